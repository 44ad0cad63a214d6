import { withinTextBudget } from '@convo/text';
import { askingSentences, bindingKeyword, bindingKeywords, repeatedUnits } from './field-terms.js';
import { describeToneIssue, findToneIssues } from './tone.js';
import { describeTopic, findTopicMentions, type ProhibitedTopic } from './topics.js';

/** What the checker knows when a question is about to be asked (docs/seeds/001, QuickCheck). */
export type QuickCheckInput = {
  question: string;
  language: 'ja' | 'en';
  /** The field the question is for; an empty `fieldId` means none (the closing message). */
  field: { fieldId: string; label: string; intent: string | null; required: boolean };
  facts: Array<{ factKey: string; fact: string; doneCriteria: string; questioningHints: string | null }>;
  /** Fields already done, with their facts. */
  answered: Array<{ fieldId: string; label: string; facts: string[] }>;
  topics: readonly ProhibitedTopic[];
};

export type QuickCheckViolationType = 'prohibited_topic' | 'duplicate_question' | 'tone_violation' | 'no_intent_binding';

/** The seed's QuickCheckResultSchema. Messages are English and quote what was found. */
export type QuickCheckResult = {
  passed: boolean;
  violations: Array<{ type: QuickCheckViolationType; message: string }>;
};

type Violation = QuickCheckResult['violations'][number];

/**
 * The offline QuickCheck: four deterministic rules over the exact text about
 * to be sent.
 *
 * - `prohibited_topic`: each topic mentioned anywhere in the question.
 * - `duplicate_question`: a sentence that asks for something (a question
 *   mark, "could you tell me", "教えて", "…ますか") covers at least half of
 *   the words of an answered field's label or of one of its facts, not
 *   counting words the current field also uses.
 * - `tone_violation`: rude, pressuring or overly casual words, or shouting
 *   (see tone.ts); words inside quotes are not judged.
 * - `no_intent_binding`: the question shares no keyword (or synonym) with
 *   the current field's label, intent, facts, criteria or hints. Not checked
 *   when the field's words yield no keyword.
 *
 * An empty `field.fieldId` is the closing message: only the topic and tone
 * rules apply to it.
 */
export function quickCheck(input: QuickCheckInput): QuickCheckResult {
  return withinTextBudget(() => check(input));
}

function check(input: QuickCheckInput): QuickCheckResult {
  const violations: Violation[] = [
    ...topicViolations(input),
    ...duplicateViolations(input),
    ...toneViolations(input),
    ...bindingViolations(input),
  ];
  return { passed: violations.length === 0, violations };
}

function topicViolations(input: QuickCheckInput): Violation[] {
  const byId = new Map(input.topics.map((topic) => [topic.id, topic]));
  const seen = new Set<string>();
  const out: Violation[] = [];
  for (const mention of findTopicMentions(input.question, input.topics)) {
    const key = `${mention.topicId}\u0000${mention.match.toLowerCase()}`;
    const topic = byId.get(mention.topicId);
    if (seen.has(key) || !topic) continue;
    seen.add(key);
    out.push({ type: 'prohibited_topic', message: `prohibited topic ${describeTopic(topic)}: "${mention.match}"` });
  }
  return out;
}

function currentTexts(input: QuickCheckInput): string[] {
  const field = input.field;
  return [
    field.label,
    field.intent ?? '',
    ...input.facts.flatMap((fact) => [fact.fact, fact.doneCriteria, fact.questioningHints ?? '']),
  ].filter((fact) => fact.length > 0);
}

function duplicateViolations(input: QuickCheckInput): Violation[] {
  const asking = askingSentences(input.question).join('\n');
  // The closing message restates the answers; it asks for nothing again.
  if (!asking || !input.field.fieldId) return [];
  const current = currentTexts(input);
  const out: Violation[] = [];
  for (const answered of input.answered) {
    if (answered.fieldId === input.field.fieldId) continue;
    for (const asked of [answered.label, ...answered.facts]) {
      const repeated = repeatedUnits(asking, asked, current);
      if (repeated.length === 0) continue;
      out.push({
        type: 'duplicate_question',
        message: `asks again for "${asked}" of the answered field "${answered.label}" (${answered.fieldId}): shares ${repeated.map((unit) => `"${unit}"`).join(', ')}`,
      });
      break;
    }
  }
  return out;
}

function toneViolations(input: QuickCheckInput): Violation[] {
  return findToneIssues(input.question).map((issue) => ({ type: 'tone_violation', message: describeToneIssue(issue) }));
}

function bindingViolations(input: QuickCheckInput): Violation[] {
  if (!input.field.fieldId) return [];
  const keywords = bindingKeywords(currentTexts(input));
  if (keywords.length === 0 || bindingKeyword(input.question, keywords) !== null) return [];
  const shown = keywords
    .slice(0, 8)
    .map((keyword) => `"${keyword}"`)
    .join(', ');
  return [
    {
      type: 'no_intent_binding',
      message: `shares no keyword with the field "${input.field.label}" (${input.field.fieldId}); expected one of ${shown}${keywords.length > 8 ? ', …' : ''}`,
    },
  ];
}
