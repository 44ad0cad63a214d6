import { ENGLISH_COMMON_WORDS, ENGLISH_GENERIC_WORDS } from './english-words.js';
import { japaneseChars, latinWords } from './text.js';

/**
 * Rules for facts answered in prose: how much content is enough, and which
 * answer speaks to which fact.
 *
 * Content is counted in units: a Latin-script word counts 2, a kana
 * character 1, a kanji or katakana 1.5 (fillers such as "ok", "yes", "はい", "そうですね" count 0). So
 * one English word ≈ two Japanese characters, and a mixed reply
 * ("Pythonで開発") adds up naturally.
 */
export const CONTENT_THRESHOLDS = {
  /** "Why…", "describe…", "理由", "経験": about three English words or six Japanese characters. */
  descriptive: 6,
  /** Anything else (a job title, a city, "営業"): one word or two characters. */
  short: 2,
} as const;

const LATIN_FILLERS = new Set([
  'ok',
  'okay',
  'yes',
  'yeah',
  'yep',
  'sure',
  'hi',
  'hello',
  'hey',
  'thanks',
  'thank',
  'please',
  'hmm',
  'um',
  'uh',
  'no',
  'so',
  'well',
]);
const JA_FILLERS = /そうですね|そうです|はい|ええ|うん|いいえ|えーと|えっと|あの|ありがとうございます|ありがとう|よろしくお願いします/g;

/** The content units of a text (see {@link CONTENT_THRESHOLDS}). */
export function contentUnits(text: string): number {
  const latin = latinWords(text).filter((word) => !LATIN_FILLERS.has(word)).length;
  const chars = japaneseChars(text.replace(JA_FILLERS, ' '));
  // Kanji and katakana carry a word's meaning in fewer characters than kana do (英検2級, 微分積分).
  const dense = chars.filter((char) => /[\p{Script=Han}\p{Script=Katakana}]/u.test(char)).length;
  return latin * 2 + chars.length + dense / 2;
}

// Two-character pieces that appear in any fact description and tell facts apart no better than "describe" does.
const JA_GENERIC = new Set(
  '回答 答者 具体 体的 内容 記入 記載 説明 場合 以上 情報 質問 確認 必要 記述 程度 明確 有無 教え 詳細 簡単 自由'.split(' '),
);

/**
 * Topic words of a fact: English words of four letters or more that are not
 * function or form-design words ("describe", "respondent"); for Japanese,
 * every two-character piece of a run of kanji/katakana ("志望動機" gives
 * 志望, 望動, 動機), since Japanese does not mark word boundaries.
 */
export function keywordsOf(texts: string[]): string[] {
  const out = new Set<string>();
  for (const text of texts) {
    for (const word of latinWords(text)) {
      if (/^\p{L}{4,}$/u.test(word) && !ENGLISH_COMMON_WORDS.has(word) && !ENGLISH_GENERIC_WORDS.has(word)) out.add(word);
    }
    for (const run of text.match(/[\p{Script=Han}\p{Script=Katakana}ー]{2,}/gu) ?? []) {
      for (const piece of bigrams(run)) if (!JA_GENERIC.has(piece)) out.add(piece);
    }
  }
  return [...out];
}

/**
 * The first keyword the answer shares with the fact, or null. English words
 * match on a shared stem of five letters ("motivation" ~ "motivated");
 * Japanese pieces match as substrings ("動機" in "志望動機は…").
 */
export function sharedKeyword(answer: string, keywords: readonly string[]): string | null {
  const words = latinWords(answer);
  for (const keyword of keywords) {
    if (isLatinKeyword(keyword) ? words.some((word) => sameStem(word, keyword)) : answer.includes(keyword)) return keyword;
  }
  return null;
}

/** Keywords of each fact minus those shared with another fact of the field: they cannot tell facts apart. */
export function distinctiveKeywords(perFact: readonly string[][]): string[][] {
  const count = new Map<string, number>();
  for (const ks of perFact) for (const keyword of new Set(ks)) count.set(keyword, (count.get(keyword) ?? 0) + 1);
  return perFact.map((ks) => ks.filter((keyword) => (count.get(keyword) ?? 0) < 2));
}

function isLatinKeyword(keyword: string): boolean {
  return /^\p{Script=Latin}/u.test(keyword);
}

function sameStem(a: string, b: string): boolean {
  if (a === b) return true;
  const shorter = Math.min(a.length, b.length);
  if (shorter < 4) return false;
  let common = 0;
  while (common < shorter && a[common] === b[common]) common++;
  return common >= Math.min(5, shorter);
}

function bigrams(run: string): string[] {
  const chars = [...run];
  return chars.slice(0, -1).map((char, i) => char + (chars[i + 1] ?? ''));
}
