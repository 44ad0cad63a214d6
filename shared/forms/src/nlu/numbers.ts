import nlp from 'compromise';
import { morphemes, type Morpheme } from './japanese.js';

/**
 * Numbers as respondents write them, in a normalized text (full-width digits
 * are folded by normalizeText first):
 * - digits with separators and decimals ("1,200", "2.5"), with Japanese place
 *   values and magnitudes ("8万5千" = 85000, "1億2000万", "500万") or English
 *   ones ("45k", "1.2 million");
 * - English number words, read by compromise ("sixteen hundred", "two and a
 *   half", "twenty-five"), and "a dozen" / "a couple";
 * - kanji numerals ("五", "二十五") when the dictionary tags them as numerals
 *   (一泊, 三人 — not 一緒, 一番, 十分 "enough").
 * A number only hints at its role (a date, an amount, an age): callers decide.
 */

/** A number found in a text: its plain value ("5", "2.5", "1200") and where it was. */
export type FoundNumber = { value: string; text: string; index: number };

type Doc = ReturnType<typeof nlp>;
export type CompromiseMatch = { text: string; terms: Array<{ offset?: { start: number; length: number } }> };

/**
 * `numbers.json({ offset: true })` with the offsets computed once: compromise's own computes every term's offset of the
 * whole document again for each number it lists (a reply of 16,000 characters with a number in every few words took
 * seconds). Each match's offset is its first term's start and its text's length, as compromise gives it.
 */
export function numbersWithOffsets<M extends CompromiseMatch>(
  doc: Doc,
  numbers: { json(options: object): unknown },
): Array<M & { offset?: { start: number; length: number } }> {
  doc.compute('offset');
  return (numbers.json({ offset: false }) as M[]).map((match) => {
    const first = match.terms[0]?.offset;
    return first ? { ...match, offset: { start: first.start, length: match.text.length } } : match;
  });
}

const KANJI_DIGITS: Readonly<Record<string, number>> = { 〇: 0, 零: 0, 一: 1, 二: 2, 三: 3, 四: 4, 五: 5, 六: 6, 七: 7, 八: 8, 九: 9 };
const KANJI_UNITS: Readonly<Record<string, number>> = { 十: 10, 百: 100, 千: 1000 };
const MAGNITUDES: Readonly<Record<string, number>> = { 万: 1e4, 億: 1e8, 兆: 1e12 };
// ("20 grand": spoken thousands of money; see grandDescribesNoun for "two grand pianos".)
const WORD_MAGNITUDES: Readonly<Record<string, number>> = { k: 1e3, grand: 1e3, thousand: 1e3, million: 1e6, billion: 1e9, trillion: 1e12 };
// Nouns that name a count: "a dozen eggs", "half a dozen", "a couple of nights".
const COLLECTIVES: Readonly<Record<string, number>> = { dozen: 12, couple: 2 };

// Digits not glued to a preceding letter ("SW1A", "mp3" are codes), then place values and magnitudes.
const DIGIT_NUMERAL =
  /(?<![\p{Script=Latin}\d.]|\d,|\d[ \u00a0\u202f])(?:\d{1,3}(?:,\d{3})+(?!\d)|\d{1,3}(?:[ \u00a0\u202f]\d{3})+(?![\d,.]|[ \u00a0\u202f]\d)|\d+)(?:\.\d+)?(?:[十百千万億兆](?:\d+(?:\.\d+)?)?)*(?:k(?![\p{L}])|\s?(?:thousand|million|billion|trillion)\b|\s?grand\b)?/giu;
const KANJI_RUN = /[〇零一二三四五六七八九十百千万億兆]+/g;
const COLLECTIVE = new RegExp(`\\b(?:(half an?|an?)\\s+)?(${Object.keys(COLLECTIVES).join('|')})\\b(?!s)`, 'gi');

/**
 * Used only until the dictionary has loaded (see japanese.ts): the counters
 * a kanji numeral most often precedes, so "三人" still reads as 3.
 */
const COMMON_COUNTER = /^(?:年|人|名|個|件|回|歳|才|つ|ヶ月|か月|カ月|ヵ月|ケ月|箇月|日|週|時間|円|泊|台|本|枚|社|冊|点|倍|ドル)/;

/** Every number in a normalized text, in reading order; overlapping readings keep the longest. */
export function findNumbers(text: string): FoundNumber[] {
  const found = [...digitNumbers(text), ...kanjiNumbers(text), ...wordNumbers(text)];
  return withoutOverlaps([...found, ...collectiveNumbers(text, found)]);
}

function digitNumbers(text: string): FoundNumber[] {
  return [...text.matchAll(DIGIT_NUMERAL)].map((match) => {
    const [, numeral = '', spoken = ''] = /^(.*?)\s?(k|grand|thousand|million|billion|trillion)?$/i.exec(match[0]) ?? [];
    // "70 000": a space groups thousands as a comma does.
    const raw = numeral.replace(/[,\u00a0\u202f ]/g, '');
    const describes = spoken.toLowerCase() === 'grand' && grandDescribesNoun(text, match.index + match[0].length);
    const magnitude = describes ? '' : spoken;
    const value =
      /^[\d.]+$/.test(raw) && !magnitude ? plain(raw) : format(parseKanji(raw) * (WORD_MAGNITUDES[magnitude.toLowerCase()] ?? 1));
    return { value, text: describes ? numeral : match[0], index: match.index };
  });
}

/**
 * "grand" counts thousands ("20 grand a year", "40 grand, more or less")
 * unless a noun follows it directly, which it then describes ("2 grand
 * pianos", "3 grand prizes"): the tagger reads the word after it in context.
 */
function grandDescribesNoun(text: string, end: number): boolean {
  const next = /^[ \t]+(\p{L}+)/u.exec(text.slice(end))?.[1];
  return next !== undefined && nlp(`2 grand ${next}`).terms().eq(2).has('#Noun');
}

function kanjiNumbers(text: string): FoundNumber[] {
  const tokens = morphemes(text);
  return [...text.matchAll(KANJI_RUN)]
    .filter((match) => (tokens ? taggedAsNumeral(tokens, match[0], match.index) : countedWithoutDictionary(text, match[0], match.index)))
    .map((match) => ({ value: format(parseKanji(match[0])), text: match[0], index: match.index }))
    .filter((numeral) => numeral.value !== 'NaN');
}

/**
 * The dictionary's word boundaries decide: a run made of numeral morphemes
 * is a number, one inside a longer word (一緒, 十分, 千葉) is not. IPADIC
 * keeps 三つ (the native counter つ) as one word. A numeral next to 数 or 何
 * (十数人, 数十人) is an approximation, not a figure.
 */
function taggedAsNumeral(tokens: readonly Morpheme[], run: string, start: number): boolean {
  const end = start + run.length;
  const inside = tokens.filter((token) => token.end > start && token.start < end);
  const numerals = inside.every((token) => token.start >= start && token.end <= end && token.pos1 === '数');
  const nativeCounter = inside.length === 1 && inside[0]?.start === start && inside[0].surface === `${run}つ`;
  const approximate = tokens.some((token) => (token.end === start || token.start === end) && /^[数何幾]$/.test(token.surface));
  return (numerals || nativeCounter) && !approximate;
}

function countedWithoutDictionary(text: string, run: string, start: number): boolean {
  return COMMON_COUNTER.test(text.slice(start + run.length)) || run === text.replace(/[\s\p{P}]/gu, '');
}

type Term = { text: string; tags: string[]; offset: { start: number; length: number } };
type NumberMatch = { text: string; number?: { num?: number }; terms: Term[] };

/** English number words; digits are read by digitNumbers. */
function wordNumbers(text: string): FoundNumber[] {
  if (!/\p{Script=Latin}/u.test(text)) return [];
  const doc = nlp(text);
  const terms = (doc.json({ offset: true }) as Array<{ terms: Term[] }>).flatMap((sentence) => sentence.terms);
  return numbersWithOffsets<NumberMatch>(doc, doc.numbers()).flatMap((numberMatch) => {
    const first = numberMatch.terms[0];
    const last = numberMatch.terms.at(-1);
    if (!first || !last || numberMatch.number?.num === undefined) return [];
    const span = text.slice(first.offset.start, last.offset.start + last.offset.length);
    // compromise reads a number word before a full stop ("Two.") as 0: read the words alone again.
    const value = numberMatch.number.num === 0 && !/\b(?:zero|nil|nought|none|no)\b/i.test(span) ? reread(span) : numberMatch.number.num;
    if (value === undefined) return [];
    if (/\d/.test(span) || !isCardinal(numberMatch.terms, terms)) return [];
    return [{ value: format(value), text: span, index: first.offset.start }];
  });
}

function reread(span: string): number | undefined {
  return (
    nlp(span.replace(/(?<![.\s])[.\s]+$/, ''))
      .numbers()
      .json() as NumberMatch[]
  )[0]?.number?.num;
}

/**
 * A count, not a rank or a pronoun: "a few" (no cardinal) is vague, "first"
 * and "a second" are ordinals, and "one" after a determiner or an adjective is a pronoun
 * ("the one", "no one", "this one", "the weighted one").
 */
function isCardinal(number: readonly Term[], terms: readonly Term[]): boolean {
  const tags = number.flatMap((term) => term.tags);
  if (tags.includes('Ordinal') || !tags.some((tag) => tag === 'Cardinal' || tag === 'Fraction')) return false;
  const start = number[0]?.offset.start ?? 0;
  const preceding = terms.filter((term) => term.offset.length > 0 && term.offset.start + term.offset.length <= start);
  const before = preceding.at(-1);
  const determiner = (term: Term | undefined) =>
    term !== undefined && (term.tags.includes('Determiner') || term.tags.includes('Possessive') || /^no$/i.test(term.text));
  // "the one", "no one", and with a describing word between: "the weighted one", "a blue one".
  const describing =
    before !== undefined && !before.tags.includes('Value') && !before.tags.includes('Noun') && determiner(preceding.at(-2));
  const pronoun = number.length === 1 && /^one$/i.test(number[0]?.text ?? '') && (determiner(before) || describing);
  return !pronoun;
}

/** "a dozen" = 12, "half a dozen" = 6, "two dozen" = 24, "a couple" = 2. */
function collectiveNumbers(text: string, found: readonly FoundNumber[]): FoundNumber[] {
  return [...text.matchAll(COLLECTIVE)].flatMap((match) => {
    const size = COLLECTIVES[(match[2] ?? '').toLowerCase()] ?? 0;
    if (match[1]) return [{ value: format(size * (/^half/i.test(match[1]) ? 0.5 : 1)), text: match[0], index: match.index }];
    const count = found.find((numeral) => /^\s+$/.test(text.slice(numeral.index + numeral.text.length, match.index)));
    return count
      ? [{ value: format(Number(count.value) * size), text: text.slice(count.index, match.index + match[0].length), index: count.index }]
      : [];
  });
}

function withoutOverlaps(found: readonly FoundNumber[]): FoundNumber[] {
  const sorted = [...found].sort((a, b) => a.index - b.index || b.text.length - a.text.length);
  const kept: FoundNumber[] = [];
  let end = 0;
  for (const numeral of sorted) {
    if (numeral.index < end) continue;
    kept.push(numeral);
    end = numeral.index + numeral.text.length;
  }
  return kept;
}

/**
 * "二十五" → 25, "三千五百" → 3500, "二〇二五" (digit by digit) → 2025,
 * "五万" → 50000. Digit groups may stand for kanji digits: "8万5千" → 85000,
 * "1億2000万" → 120000000, "1.5万" → 15000.
 */
export function parseKanji(text: string): number {
  const parts = text.match(/\d+(?:\.\d+)?|./g) ?? [];
  if (!parts.some((part) => part in KANJI_UNITS || part in MAGNITUDES)) {
    return Number(parts.map((part) => (/\d/.test(part) ? part : (KANJI_DIGITS[part] ?? 'x'))).join(''));
  }
  let total = 0;
  let section = 0;
  let digit: number | null = null;
  for (const part of parts) {
    const value = /\d/.test(part) ? Number(part) : KANJI_DIGITS[part];
    const unit = KANJI_UNITS[part];
    const magnitude = MAGNITUDES[part];
    if (value !== undefined) digit = value;
    else if (unit !== undefined) {
      section += (digit ?? 1) * unit;
      digit = null;
    } else if (magnitude !== undefined) {
      total += (section + (digit ?? 0) || 1) * magnitude;
      section = 0;
      digit = null;
    } else return NaN;
  }
  return total + section + (digit ?? 0);
}

/** "007" stays "007" (an identifier keeps its zeros), "2.50" becomes "2.5". */
function plain(raw: string): string {
  if (/^0\d+$/.test(raw)) return raw;
  return format(Number(raw));
}

/** A plain decimal without floating-point noise (1.2 × 10⁶ is "1200000", not "1199999.9999999998"). */
function format(value: number): string {
  return String(Number(value.toPrecision(12)));
}
