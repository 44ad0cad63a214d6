import { ENGLISH_COMMON_WORDS } from '../nlu/english-words.js';
import { keywordsOf, sharedKeyword } from '../nlu/free-text.js';
import { latinWords } from '../nlu/text.js';
import { sentences } from './clauses.js';

/**
 * What a question is about, told from the form's own words: whether it is
 * bound to a field (shares a keyword with it), which sentences of it ask for
 * something, and whether it asks again for what another field already
 * holds. Keywords are those of the offline reviewer (nlu/free-text.ts):
 * English words of four letters or more that carry a topic, and two-character
 * pieces of kanji/katakana runs for Japanese.
 */

/**
 * Words a question may use for a form's words ("your name" for "氏名",
 * "e-mail" for "Contact email"). Only for binding a question to its field:
 * a duplicate needs the answered field's own words.
 */
const SYNONYMS: ReadonlyArray<readonly string[]> = [
  ['name', 'names', '氏名', '名前', 'フルネーム', '姓名'],
  ['email', 'e-mail', 'mail', 'メール', 'メアド'],
  ['phone', 'telephone', 'mobile', '電話', '携帯'],
  ['start', 'join', 'joining', 'onboarding', '入社', '開始', '着任', '勤務開始'],
  ['address', '住所'],
  ['experience', 'years', '経験', '年数'],
  ['motivation', 'reason', 'why', 'join', '志望', '動機', '理由'],
  ['portfolio', 'github', 'website', 'link', 'url', 'ポートフォリオ', 'リンク', 'サイト'],
  ['salary', 'compensation', 'pay', '給与', '年収', '報酬'],
];

// Acronyms of two or three capitals ("URL", "SNS", "ID") name a field as well as a long word does.
const ACRONYM = /\b[A-Z]{2,3}s?\b/g;

/** The keywords of a field's words (label, intent, facts, hints), with their synonyms. */
export function bindingKeywords(texts: readonly string[]): string[] {
  const out = new Set(keywordsOf([...texts]));
  for (const text of texts)
    for (const acronym of text.match(ACRONYM) ?? []) if (!ENGLISH_COMMON_WORDS.has(acronym.toLowerCase())) out.add(acronym.toLowerCase());
  for (const group of SYNONYMS) {
    if (group.some((word) => out.has(word) || texts.some((text) => mentions(text, word)))) for (const word of group) out.add(word);
  }
  return [...out];
}

/** The first keyword the text shares with the field's keywords, or null. */
export function bindingKeyword(text: string, keywords: readonly string[]): string | null {
  return sharedKeyword(text, keywords);
}

function mentions(text: string, word: string): boolean {
  return /^\p{Script=Latin}/u.test(word) ? latinWords(text).includes(word) : text.includes(word);
}

const ASKS_EN = new RegExp(
  [
    String.raw`\b(?:please|could you|can you|would you|will you|kindly)\b[^.!?]*\b(?:tell|let (?:me|us) know|share|provide|give (?:me|us)|enter|type|send|describe|explain|list|confirm|fill)\b`,
    String.raw`^\s*(?:tell|share|provide|describe|explain|list|enter)\b`,
  ].join('|'),
  'i',
);
// "お答えいただき、ありがとうございました" thanks; "お答えいただけますか" asks.
const ASKS_JA =
  /教えて|(?:お答え|ご記入|ご入力|お聞かせ|お知らせ|ご回答)(?:ください|下さい|いただけ|頂け|願|をお願い)|お伺い(?:します|させて)|ますか|ですか|でしょうか/;

/** The sentences that ask for something: a question mark, a request ("could you tell me", "教えて…"), a question ending ("…ますか"). */
export function askingSentences(text: string): string[] {
  return sentences(text).filter((sentence) => /[?？]\s*$/.test(sentence) || ASKS_EN.test(sentence) || ASKS_JA.test(sentence));
}

// Words that describe any value and tell fields apart no better than "describe" does.
const GENERIC_EN = new Set(['valid', 'correct', 'proper', 'format', 'current', 'applicant', "applicant's"]);
const GENERIC_JA = new Set([
  '有効',
  '具体的',
  '応募者',
  '回答',
  '質問',
  '情報',
  '内容',
  '記入',
  '入力',
  '確認',
  '必要',
  '場合',
  '以上',
  '詳細',
  '簡単',
  '自由',
  '形式',
]);

/**
 * The units a text is made of for duplicate detection: its English keywords,
 * acronyms and whole kanji/katakana runs ("バックエンド開発の経験年数" gives
 * バックエンド開発 and 経験年数).
 */
export function units(text: string): string[] {
  const latin = keywordsOf([text]).filter((keyword) => /^\p{Script=Latin}/u.test(keyword) && !GENERIC_EN.has(keyword));
  const acronyms = (text.match(ACRONYM) ?? [])
    .map((acronym) => acronym.toLowerCase())
    .filter((acronym) => !ENGLISH_COMMON_WORDS.has(acronym));
  const runs = (text.match(/[\p{Script=Han}\p{Script=Katakana}ー]{2,}/gu) ?? []).filter((run) => !GENERIC_JA.has(run));
  return [...new Set([...latin, ...acronyms, ...runs])];
}

/**
 * Whether the text contains the unit: an English word on a shared stem
 * ("experience" ~ "experienced"), a Japanese run when two thirds of its
 * two-character pieces appear (a two-character run must appear whole), so
 * "経験年数" is in "経験年数は" but not in "経験を活かして".
 */
export function containsUnit(text: string, unit: string): boolean {
  if (/^\p{Script=Latin}/u.test(unit)) return sharedKeyword(text, [unit]) !== null;
  const chars = [...unit];
  const pieces = chars.slice(0, -1).map((char, i) => char + (chars[i + 1] ?? ''));
  const found = pieces.filter((bigram) => text.includes(bigram)).length;
  return found >= Math.ceil((pieces.length * 2) / 3);
}

/**
 * The units of `asked` (an answered field's label or one of its facts) that
 * `question` asks for again, when it covers at least half of them. Units the
 * current field also uses do not count: a follow-up on "years of frontend
 * experience" is not a repeat of "years of backend experience".
 */
export function repeatedUnits(question: string, asked: string, currentTexts: readonly string[]): string[] {
  const current = currentTexts.join('\n');
  const own = units(asked).filter((unit) => !containsUnit(current, unit));
  if (own.length === 0) return [];
  const hit = own.filter((unit) => containsUnit(question, unit));
  return hit.length > 0 && hit.length >= Math.ceil(own.length / 2) ? hit : [];
}
