import type { FactType } from './fact-type.js';
import { clip, type SessionLanguage } from './text.js';
import { optionInLanguage } from './transliterate.js';

/**
 * Why a fact is or is not satisfied, as data; {@link verdictText} words it in
 * the session language, so the same verdict explains itself in logs, in the
 * reviewer's feedback and in the interviewer's follow-up.
 */
export type Verdict =
  | { code: 'found'; value: string }
  | { code: 'invalid'; text: string }
  | { code: 'no_year'; text: string }
  | { code: 'incomplete_name'; text: string }
  | { code: 'ambiguous'; text: string; options: readonly string[] }
  | { code: 'not_an_option'; text: string; options: readonly string[] }
  | { code: 'vague'; text: string }
  | { code: 'no_code'; text: string }
  | { code: 'missing' }
  | { code: 'too_short'; text: string }
  | { code: 'covered'; keyword: string | null }
  | { code: 'nil_ok'; text: string }
  | { code: 'nil_not_enough'; text: string };

/** What each kind of value is called, in the session language (also how a field in the other language is named). */
export const KIND_NAME: Readonly<Record<SessionLanguage, Record<Exclude<FactType, 'text'>, string>>> = {
  en: {
    email: 'email address',
    phone: 'phone number',
    date: 'date',
    number: 'number',
    url: 'web address (URL)',
    name: 'name',
    choice: 'choice',
    yes_no: 'yes or no',
    time: 'time',
    year: 'year',
    period: 'time or period',
    duration: 'length of time',
    postal_code: 'postal code',
    time_range: 'time window (from and until)',
    date_range: 'first and last day',
    datetime: 'day and time',
  },
  ja: {
    email: 'メールアドレス',
    phone: '電話番号',
    date: '日付',
    number: '数値',
    url: 'URL',
    name: 'お名前',
    choice: '選択肢',
    yes_no: '「はい」か「いいえ」',
    time: '時刻',
    year: '年',
    period: '時期や期間',
    duration: '期間',
    postal_code: '郵便番号',
    time_range: '時間帯（何時から何時まで）',
    date_range: '開始日と終了日',
    datetime: '日時（日付と時刻）',
  },
};
const WHAT = KIND_NAME;

/**
 * Every sentence the offline reviewer writes, one entry per kind. People read
 * them (the respondent, in a follow-up, and whoever reads the logs); no agent
 * does: the interviewer acts on the verdict's data (ReviewerOutput), so this
 * wording may change at will.
 */
export type ReviewMessages = {
  /** One sentence explaining a verdict on a fact. */
  verdict: (lang: SessionLanguage, type: FactType, fact: string, v: Verdict) => string;
  /** Opening sentence of the feedback when a required question was refused or not known. */
  required: (lang: SessionLanguage, reason: 'skip' | 'non_answer') => string;
  /** Added when an optional question got "I don't know": it may simply be skipped. */
  optionalHint: (lang: SessionLanguage) => string;
  /** Feedback for an optional question the respondent chose to skip. */
  skipped: (lang: SessionLanguage) => string;
};

const WRITTEN: ReviewMessages = {
  verdict: (lang, type, fact, v) => (lang === 'ja' ? ja(type, fact, v) : en(type, fact, v)),
  required: requiredSentence,
  optionalHint: (lang) =>
    lang === 'ja' ? 'この質問は任意のため、スキップすることもできます。' : 'This question is optional, so it can also be skipped.',
  skipped: (lang) =>
    lang === 'ja' ? '任意の質問のため、回答をスキップしました。' : 'The respondent chose to skip this optional question.',
};

let messages: ReviewMessages = WRITTEN;

/**
 * Runs `run` with the messages `reword` makes of the written ones, and puts
 * the written ones back after. A seam for tests: they reword every message to
 * show that what the interview does never depends on it
 * (test/unit/reviewer-output.test.ts).
 */
export async function withReviewMessages<T>(reword: (written: ReviewMessages) => ReviewMessages, run: () => Promise<T>): Promise<T> {
  const before = messages;
  messages = reword(WRITTEN);
  try {
    return await run();
  } finally {
    messages = before;
  }
}

/** One sentence explaining a verdict on a fact. */
export function verdictText(lang: SessionLanguage, type: FactType, fact: string, v: Verdict): string {
  return messages.verdict(lang, type, fact, v);
}

/** Opening sentence of the feedback when a required question was refused or not known. */
export function requiredText(lang: SessionLanguage, reason: 'skip' | 'non_answer'): string {
  return messages.required(lang, reason);
}

/** Added when an optional question got "I don't know": it may simply be skipped. */
export function optionalHintText(lang: SessionLanguage): string {
  return messages.optionalHint(lang);
}

/** Feedback for an optional question the respondent chose to skip. */
export function skippedText(lang: SessionLanguage): string {
  return messages.skipped(lang);
}

function en(type: FactType, fact: string, v: Verdict): string {
  const what = type === 'text' ? fact : WHAT.en[type];
  switch (v.code) {
    case 'found':
      return type === 'text' ? `Answered: ${fact}.` : `Found the ${what}: ${v.value}.`;
    case 'invalid':
      return type === 'date' ? `'${v.text}' is not a valid date.` : `The ${what} '${v.text}' is not valid.`;
    case 'no_year':
      return `The date '${v.text}' has no year.`;
    case 'incomplete_name':
      return `'${v.text}' is only part of the name; the full name (first and last name) is needed.`;
    case 'missing':
      return type === 'text' ? `No answer yet about: ${fact}.` : `No ${what} was found in the answer.`;
    case 'too_short':
      return `The answer '${clip(v.text)}' is too brief for: ${fact}.`;
    case 'covered':
      return v.keyword ? `Answered (mentions '${v.keyword}'): ${fact}.` : `Answered: ${fact}.`;
    case 'nil_ok':
      return `Answered '${v.text}' (none): ${fact}.`;
    case 'nil_not_enough':
      return `'${v.text}' does not answer: ${fact}.`;
    case 'ambiguous':
      return `'${clip(v.text)}' could mean ${shownOptions(v.options, 'en').join(' or ')}; which one is it?`;
    case 'not_an_option':
      return `Please choose one of: ${shownOptions(v.options, 'en').join(', ')}.`;
    case 'vague':
      return `'${clip(v.text)}' does not say what: ${fact}.`;
    case 'no_code':
      return `'${clip(v.text)}' gives no number or code for: ${fact}.`;
  }
}

function ja(type: FactType, fact: string, v: Verdict): string {
  const what = type === 'text' ? fact : WHAT.ja[type];
  switch (v.code) {
    case 'found':
      return type === 'text' ? `「${fact}」は回答済みです。` : `${what}「${v.value}」を確認しました。`;
    case 'invalid':
      return type === 'date' ? `「${v.text}」は有効な日付ではありません。` : `${what}「${v.text}」の形式が正しくありません。`;
    case 'no_year':
      return `日付「${v.text}」に年が含まれていません。`;
    case 'incomplete_name':
      return `「${v.text}」だけでなく、姓と名の両方（フルネーム）が必要です。`;
    case 'missing':
      return type === 'text' ? `「${fact}」についてまだ回答がありません。` : `回答に${what}が見つかりませんでした。`;
    case 'too_short':
      return `「${clip(v.text)}」だけでは「${fact}」への回答として短すぎます。`;
    case 'covered':
      return v.keyword ? `「${fact}」は回答済みです（「${v.keyword}」に言及）。` : `「${fact}」は回答済みです。`;
    case 'nil_ok':
      return `「${fact}」は「${v.text}」との回答です。`;
    case 'nil_not_enough':
      return `「${v.text}」では「${fact}」への回答になりません。`;
    case 'ambiguous':
      return `「${clip(v.text)}」は${shownOptions(v.options, 'ja')
        .map((o) => `「${o}」`)
        .join('と')}のどちらとも取れます。`;
    case 'not_an_option':
      return `${shownOptions(v.options, 'ja')
        .map((o) => `「${o}」`)
        .join('、')}の中からお選びください。`;
    case 'vague':
      return `「${clip(v.text)}」だけでは「${fact}」の内容がわかりません。`;
    case 'no_code':
      return `「${clip(v.text)}」には「${fact}」の番号や記号がありません。`;
  }
}

function requiredSentence(lang: SessionLanguage, reason: 'skip' | 'non_answer'): string {
  if (lang === 'ja') {
    return reason === 'skip'
      ? 'この質問は必須のため、スキップできません。'
      : 'この質問は必須です。おおよそで構いませんので、お答えください。';
  }
  return reason === 'skip'
    ? "This question is required, so it can't be skipped."
    : 'This question is required; an approximate answer is fine.';
}

/** Options as they can be named in the session language (romanised, or left out when they cannot be). */
function shownOptions(options: readonly string[], lang: SessionLanguage): string[] {
  return options.map((o) => optionInLanguage(o, lang)).filter((o): o is string => o !== null);
}
