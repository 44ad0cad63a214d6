import type { LlmProvider } from '@convo/agent-kit';
import type { SearchHit } from '@convo/contract';

/** The hits of one executed search step, and its best hit's calibrated confidence (absent: not calibrated). */
export type SearchGroup = { query: string; hits: SearchHit[]; confidence?: number };

export type ComposedAnswer = { answer: string; sources: string[]; method: 'extractive' | 'llm' | 'none' };

const NO_MATCH = {
  ja: 'ご質問にお答えできるFAQが見つかりませんでした。別の言葉で言い換えていただけますか？',
  en: "I couldn't find an answer to that in the FAQ. Could you rephrase the question?",
} as const;

const CONTACT = {
  ja: (contact: string) => `お急ぎの場合は、こちらへお問い合わせください：${contact}`,
  en: (contact: string) => `You can also contact us: ${contact}`,
} as const;

/** What the user is told when the FAQ holds no answer the search is sure of: rephrase, or the contact the deployment configures. */
export function abstentionMessage(language: 'ja' | 'en', contact?: string): string {
  return contact ? `${NO_MATCH[language]}${language === 'ja' ? '' : ' '}${CONTACT[language](contact)}` : NO_MATCH[language];
}

/**
 * The search groups whose best hit is a confident answer: some hit, and a
 * confidence (where the index calibrates) of at least `abstainBelow`. A turn
 * none of whose groups is confident abstains; a compound question is
 * answered in its confident parts.
 */
export function confidentGroups(groups: SearchGroup[], abstainBelow: number): SearchGroup[] {
  return groups.filter((group) => group.hits.length > 0 && (group.confidence ?? 1) >= abstainBelow);
}

/**
 * The offline answer: the best hit of every search step, verbatim, with its
 * id as the source. One step gives the FAQ answer as it is; several give one
 * paragraph per topic headed by the FAQ question, so a compound question is
 * answered part by part.
 */
export function extractiveAnswer(groups: SearchGroup[], language: 'ja' | 'en'): ComposedAnswer {
  const picked: SearchHit[] = [];
  for (const group of groups) {
    const best = group.hits.find((hit) => !picked.some((pick) => pick.id === hit.id));
    if (best) picked.push(best);
  }
  if (picked.length === 0) return { answer: NO_MATCH[language], sources: [], method: 'none' };
  if (picked.length === 1) return { answer: picked[0]!.answer, sources: [picked[0]!.id], method: 'extractive' };
  const paragraphs = picked.map((hit) => (language === 'ja' ? `【${hit.question}】\n${hit.answer}` : `${hit.question}\n${hit.answer}`));
  return { answer: paragraphs.join('\n\n'), sources: picked.map((hit) => hit.id), method: 'extractive' };
}

export const SYNTHESIS_PROMPT = `You answer customer questions for an e-commerce shop using only the FAQ entries given.
- Answer in the language of the question, briefly and concretely (amounts, days, conditions).
- Use only facts stated in the entries; if they do not answer the question, say so and suggest contacting support.
- When the question has several parts, answer each part.
- Do not mention entry ids or these instructions.`;

/**
 * The seed's synthesizeAnswer: the model writes one answer from the hits of
 * every step; sources are the ids of the hits it was given. Throws when the
 * model fails or answers nothing, so the caller can fall back to the
 * extractive answer.
 */
export async function synthesizeAnswer(
  input: { question: string; groups: SearchGroup[]; history: Array<{ role: string; content: string }> },
  deps: { llm: LlmProvider; model: string; signal?: AbortSignal; extractive: string },
): Promise<ComposedAnswer> {
  const hits = dedupe(input.groups.flatMap((group) => group.hits.slice(0, 3)));
  if (hits.length === 0) throw new Error('no hits to synthesise from');
  const entries = hits.map((hit) => `[${hit.id}] Q: ${hit.question}\nA: ${hit.answer}`).join('\n\n');
  const recent = input.history
    .slice(-4)
    .map((turn) => `${turn.role}: ${turn.content}`)
    .join('\n');
  const res = await deps.llm.chat({
    model: deps.model,
    messages: [
      { role: 'system', content: SYNTHESIS_PROMPT },
      {
        role: 'user',
        content: `FAQ entries:\n${entries}\n\n${recent ? `Conversation so far:\n${recent}\n\n` : ''}Question: ${input.question}`,
      },
    ],
    tools: [],
    agent: 'search',
    // The offline provider answers with the extractive answer; remote models read the messages.
    context: { extractive: deps.extractive },
    signal: deps.signal,
  });
  const text = res.content?.trim();
  if (!text) throw new Error('the model returned no answer');
  return { answer: text, sources: hits.map((hit) => hit.id), method: 'llm' };
}

function dedupe(hits: SearchHit[]): SearchHit[] {
  const seen = new Set<string>();
  return hits.filter((hit) => (seen.has(hit.id) ? false : (seen.add(hit.id), true)));
}
