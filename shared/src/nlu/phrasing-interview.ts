import type { FactDefinition, FormField } from '../schemas/form.js';
import { classifyFact, type FactType } from './fact-type.js';
import { lowerFirst, type SessionLanguage } from './text.js';

/**
 * What the offline interviewer says: the question for a field, follow-ups on
 * what the reviewer found missing, and the closing summary. Facts are written
 * for reviewers ("Why the respondent wants to join"); before they are shown
 * they are turned to the respondent ("why you want to join").
 */

/** What phrasing needs of a field: a FormField or any view of one (the interviewer's context). */
export type QuestionField = Pick<FormField, 'label' | 'intent' | 'required'>;

/** What phrasing needs of a fact. */
export type QuestionFact = Pick<FactDefinition, 'factKey' | 'fact' | 'doneCriteria' | 'questioningHints'>;

const OPENER = {
  first: { ja: 'それでは、最初の質問です。', en: "Let's start with the first question." },
  next: { ja: 'ありがとうございます。次の質問です。', en: 'Thank you! Next question:' },
} as const;

// A value the respondent might write in several ways gets an example of the expected form.
const FORMAT_NOTE: Partial<Record<FactType, Record<SessionLanguage, string>>> = {
  date: { ja: '（例：2025年4月1日）', en: '(For example: 2025-04-01 or April 1, 2025)' },
  phone: { ja: '（市外局番からお知らせください。）', en: '(Please include the area code.)' },
  url: { ja: '（例：https://example.com）', en: '(For example: https://example.com)' },
  name: { ja: '（姓と名の両方をお願いします。）', en: '(Your first and last name, please.)' },
};

/**
 * The question for a field, built from its label (asked as a question unless
 * it already is one), its intent (as the purpose), the facts to cover when
 * there are several or they say more than the label, the facts' questioning
 * hints, an example of the expected format for typed values, and — for
 * optional fields — that it may be skipped.
 */
export function questionText(input: { field: QuestionField; facts: QuestionFact[]; language: SessionLanguage; isFirst: boolean }): string {
  const { field, facts, language: lang } = input;
  const lines = [input.isFirst ? OPENER.first[lang] : OPENER.next[lang], askLabel(field.label, lang)];
  const intent = field.intent?.trim();
  if (intent && !same(intent, field.label)) lines.push(lang === 'ja' ? `（目的：${intent}）` : `(Purpose: ${intent})`);
  const covered = facts.map((f) => f.fact).filter((f) => !same(f, field.label));
  if (facts.length > 1 || covered.length > 0) lines.push(includeText(facts.map((f) => toRespondent(f.fact, lang)), lang));
  const hints = facts.map((f) => f.questioningHints?.trim()).filter((h): h is string => Boolean(h));
  if (hints.length > 0) lines.push(`${lang === 'ja' ? 'ヒント：' : 'Hint: '}${hints.join(lang === 'ja' ? '／' : ' / ')}`);
  const format = facts.length === 1 && facts[0] ? FORMAT_NOTE[classifyFact(facts[0], field)]?.[lang] : undefined;
  if (format) lines.push(format);
  if (!field.required) lines.push(optionalNote(lang));
  return lines.join('\n');
}

/**
 * A follow-up on what is still missing: the reviewer's feedback (or thanks),
 * then the missing facts asked for plainly. When the feedback already names
 * the single missing fact, the question does not repeat it.
 */
export function followUpText(input: { field: QuestionField; missingFacts: string[]; feedback: string | null; language: SessionLanguage }): string {
  const { missingFacts: missing, language: lang } = input;
  const feedback = input.feedback?.trim() ? secondPerson(input.feedback.trim(), lang) : lang === 'ja' ? 'ありがとうございます。' : 'Thank you.';
  const only = missing.length === 1 ? missing[0] : undefined;
  let ask: string;
  if (missing.length === 0) ask = lang === 'ja' ? 'もう少し詳しく教えていただけますか？' : 'Could you tell me a little more?';
  else if (only && input.feedback?.includes(only)) ask = lang === 'ja' ? 'その点について教えていただけますか？' : 'Could you tell me about that?';
  else if (only) ask = lang === 'ja' ? `「${toRespondent(only, lang)}」を教えていただけますか？` : `Could you please tell me ${yourPhrase(toRespondent(only, lang))}?`;
  else ask = listAsk(missing.map((m) => toRespondent(m, lang)), lang);
  const lines = [feedback, ask];
  if (!input.field.required) lines.push(optionalNote(lang));
  return lines.join('\n');
}

/** Before re-asking required questions left unanswered. */
export function requiredStillMissingText(lang: SessionLanguage, labels: string[]): string {
  if (lang === 'ja') {
    const list = labels.map((l) => `「${l}」`).join('、');
    return `必須の質問${list}にまだお答えいただいていません。恐れ入りますが、もう一度お伺いします。`;
  }
  const list = labels.map((l) => `“${l}”`).join(', ');
  return labels.length === 1
    ? `The required question ${list} still needs an answer, so let me ask it again.`
    : `A few required questions still need an answer: ${list}. Let me ask them again.`;
}

/** All questions done: a summary, and an invitation to review and submit. */
export function completionText(lang: SessionLanguage, summary: Array<{ label: string; value: string | null; status: string }>): string {
  const rows = summary.map((s) => `${lang === 'ja' ? '・' : '• '}${s.label}${lang === 'ja' ? '：' : ': '}${shownValue(s, lang)}`);
  if (lang === 'ja') {
    return [
      'すべての質問にお答えいただき、ありがとうございました！ご回答の内容は次のとおりです。',
      '',
      ...rows,
      '',
      '内容をご確認のうえ、問題がなければ「送信」ボタンを押してください。修正したい点があれば、お気軽にお知らせください。',
    ].join('\n');
  }
  return [
    "Thank you — that's all the questions! Here is a summary of your answers:",
    '',
    ...rows,
    '',
    'Please review your answers and press “Submit” when everything looks right. If you would like to change anything, just let me know.',
  ].join('\n');
}

/** The reply to a message written after the interview is complete. */
export function alreadyCompleteText(lang: SessionLanguage): string {
  return lang === 'ja'
    ? 'すべての質問へのご回答はすでに完了しています。ありがとうございました。内容をご確認のうえ、「送信」ボタンを押してください。'
    : 'All the questions have already been answered — thank you! Please review your answers and press “Submit” when you are ready.';
}

function askLabel(label: string, lang: SessionLanguage): string {
  const l = label.trim();
  if (/[?？]$/.test(l) || (lang === 'ja' && /(?:か|ください|下さい)[。]?$/.test(l))) return l;
  if (lang === 'ja') return `${l}を教えていただけますか？`;
  if (/^(?:what|why|how|when|where|which|who|whom|whose|do|does|did|are|is|have|has|can|could|would|will|please|tell|describe|list|any|anything)\b/i.test(l)) {
    return `${l.replace(/[.!]$/, '')}?`;
  }
  return `Could you tell me ${yourPhrase(l)}?`;
}

/** "Email address" → "your email address"; questions and phrases with their own determiner are left alone. */
function yourPhrase(phrase: string): string {
  const p = lowerFirst(phrase.trim().replace(/[.。?？]+$/, ''));
  if (/^(?:why|what|how|when|where|which|who|whether|if|your|the|a|an|any|you)\b/i.test(p)) return p;
  return `your ${p}`;
}

function includeText(items: string[], lang: SessionLanguage): string {
  return lang === 'ja'
    ? `次の点を含めてお答えください：\n${items.map((i) => `・${i}`).join('\n')}`
    : `Please include:\n${items.map((i) => `• ${i}`).join('\n')}`;
}

function listAsk(items: string[], lang: SessionLanguage): string {
  return lang === 'ja'
    ? `次の点について教えていただけますか？\n${items.map((i) => `・${i}`).join('\n')}`
    : `Could you please tell me about the following?\n${items.map((i) => `• ${i}`).join('\n')}`;
}

function optionalNote(lang: SessionLanguage): string {
  return lang === 'ja'
    ? 'この質問は任意です。回答しない場合は「スキップ」とお送りください。'
    : 'This question is optional — if you would rather not answer, just say “skip”.';
}

function shownValue(s: { value: string | null; status: string }, lang: SessionLanguage): string {
  if (s.value !== null && s.value.trim() !== '') return s.value.replace(/\s*\n\s*/g, ' / ');
  if (s.status === 'skipped') return lang === 'ja' ? '（スキップ）' : '(skipped)';
  return lang === 'ja' ? '（未回答）' : '(not answered)';
}

// Third-person verbs that follow "the respondent" in fact descriptions, and their second-person forms.
const VERBS: Readonly<Record<string, string>> = {
  wants: 'want', hopes: 'hope', likes: 'like', needs: 'need', plans: 'plan', lives: 'live', works: 'work', expects: 'expect',
  prefers: 'prefer', knows: 'know', uses: 'use', speaks: 'speak', thinks: 'think', feels: 'feel', has: 'have', is: 'are',
  was: 'were', does: 'do', can: 'can', would: 'would', will: 'will', did: 'did',
};

/** "Why the respondent wants to join" → "Why you want to join"; "回答者の経験" → "ご自身の経験". */
export function toRespondent(fact: string, lang: SessionLanguage): string {
  return secondPerson(fact.trim().replace(/[.。]$/, ''), lang);
}

function secondPerson(text: string, lang: SessionLanguage): string {
  if (lang === 'ja' || /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u.test(text)) {
    return text.replace(/(?:回答者|応募者|候補者|ユーザー)(?:さん)?の/g, 'ご自身の').replace(/(?:回答者|応募者|候補者|ユーザー)(?:さん)?[がは]/g, '');
  }
  return text
    .replace(/\b(?:the )?(?:respondent|applicant|candidate|user|participant)'s\b/gi, 'your')
    .replace(/\b(?:the )?(?:respondent|applicant|candidate|user|participant)\b\s*(\w+)?/gi, (_m, verb: string | undefined) =>
      verb ? `you ${VERBS[verb.toLowerCase()] ?? verb}` : 'you',
    );
}

function same(a: string, b: string): boolean {
  const norm = (s: string) => s.trim().toLowerCase().replace(/[\s.。?？!！:：]/g, '');
  return norm(a) === norm(b);
}
