/**
 * Text helpers shared by the rule layer: one normal form for respondent text
 * and the script tests (kana, kanji, Latin) the Japanese/English rules need.
 */

/** The two languages an interview can be held in. */
export type SessionLanguage = 'ja' | 'en';

const KANA = /[\p{Script=Hiragana}\p{Script=Katakana}ー]/u;
const HAN = /\p{Script=Han}/u;
const LATIN_LETTER = /\p{Script=Latin}/u;

/**
 * NFKC (full-width letters and digits become ASCII, half-width katakana
 * full-width), curly quotes made straight, whitespace collapsed. Respondents
 * type on Japanese IMEs, so "０９０" and "ｆｏｏ＠ｅｘａｍｐｌｅ．ｃｏｍ" must read
 * like their ASCII forms.
 */
export function normalizeText(text: string): string {
  return text
    .normalize('NFKC')
    .replace(/[‘’‛`´]/g, "'")
    .replace(/[“”„]/g, '"')
    .replace(/[‐‑‒–—―−]/g, '-')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Escapes a literal for use inside a RegExp. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** True for hiragana, katakana (incl. the long-vowel mark) and kanji. */
export function isJapaneseChar(ch: string): boolean {
  return KANA.test(ch) || HAN.test(ch);
}

/** True for katakana, including the long-vowel mark "ー" and the middle dot. */
export function isKatakanaChar(ch: string): boolean {
  return /[\p{Script=Katakana}ー・]/u.test(ch);
}

/** Whether the text contains any kana or kanji. */
export function hasJapanese(text: string): boolean {
  return [...text].some(isJapaneseChar);
}

/** Counts of the scripts that matter here; other characters are ignored. */
export function scriptCounts(text: string): { japanese: number; latin: number } {
  let japanese = 0;
  let latin = 0;
  for (const ch of text) {
    if (isJapaneseChar(ch)) japanese++;
    else if (LATIN_LETTER.test(ch)) latin++;
  }
  return { japanese, latin };
}

/** Latin-script words (letters, digits, inner apostrophes and hyphens), lowercased. */
export function latinWords(text: string): string[] {
  return (text.toLowerCase().match(/[\p{Script=Latin}0-9]+(?:['-][\p{Script=Latin}0-9]+)*/gu) ?? []).filter((word) =>
    /\p{L}|\d/u.test(word),
  );
}

/** The kana and kanji of a text, in order (punctuation, spaces and Latin removed). */
export function japaneseChars(text: string): string[] {
  return [...text].filter(isJapaneseChar);
}

/** Lowercases the first letter unless the word looks like an acronym ("URL", "GitHub"). */
export function lowerFirst(text: string): string {
  const first = text.charAt(0);
  const second = text.charAt(1);
  if (!first || (second && second === second.toUpperCase() && /\p{Lu}/u.test(second))) return text;
  return first.toLowerCase() + text.slice(1);
}

/** Strips sentence punctuation (ASCII and Japanese) from both ends. */
/** A reply quoted back in feedback: at most 40 characters. */
export function clip(text: string): string {
  return [...text].length > 40 ? `${[...text].slice(0, 40).join('')}…` : text;
}

// The trailing runs below are matched from their first character (the lookbehinds): tried from each
// character of a long run of marks, they were quadratic.

export function trimPunctuation(text: string): string {
  return text.replace(/^[\s\p{P}\p{S}]+|(?<![\s\p{P}\p{S}])[\s\p{P}\p{S}]+$/gu, '');
}

/**
 * Strips sentence punctuation and spaces from both ends of a value the
 * respondent wrote, keeping signs that are part of it ("20%", "(M)", "#3").
 */
export function trimSentence(text: string): string {
  return text.replace(/^[\s、。，,．.!?！？…:：;；〜~・-]+|(?<![\s、。，,．.!?！？…:：;；〜~・])[\s、。，,．.!?！？…:：;；〜~・]+$/gu, '');
}

/** Whether a message names a field ("email", 「電話番号」): a content word of its label, or a kanji/katakana run of it. */
export function mentionsLabel(text: string, label: string): boolean {
  const lower = text.toLowerCase();
  const words = (label.toLowerCase().match(/\p{Script=Latin}{4,}/gu) ?? []).filter(
    (word) => !['your', 'what', 'which', 'address', 'number'].includes(word),
  );
  if (words.some((word) => new RegExp(`\\b${word.slice(0, Math.max(4, word.length - 2))}`, 'i').test(lower))) return true;
  const runs = label.match(/[\p{Script=Han}\p{Script=Katakana}ー]{2,}/gu) ?? [];
  return runs.some((run) => lower.includes(run) || (run.length >= 4 && lower.includes(run.slice(0, 2)) && lower.includes(run.slice(-2))));
}
