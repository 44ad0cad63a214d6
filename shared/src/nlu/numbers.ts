/**
 * Numbers as respondents write them: digits (full-width digits are folded by
 * normalizeText first), "1,200", "2.5", English words up to twenty plus tens
 * ("five", "twenty-five"), simple kanji numerals ("五", "十二", "二十五"), and
 * Japanese magnitude suffixes ("500万" = 5,000,000).
 */

/** A number found in a text: its plain value ("5", "2.5", "1200") and where it was. */
export type FoundNumber = { value: string; text: string; index: number };

const UNITS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve',
  'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen', 'twenty'];
const TENS: Readonly<Record<string, number>> = { twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90 };

const KANJI_DIGITS: Readonly<Record<string, number>> = { 〇: 0, 零: 0, 一: 1, 二: 2, 三: 3, 四: 4, 五: 5, 六: 6, 七: 7, 八: 8, 九: 9 };
const KANJI_UNITS: Readonly<Record<string, number>> = { 十: 10, 百: 100, 千: 1000 };
const MAGNITUDES: Readonly<Record<string, number>> = { 万: 1e4, 億: 1e8 };

/**
 * Kanji numerals count only before a counter ("五年", "三人", "十二か月") or as
 * the whole reply: "一緒", "一番" and "十分" (enough) are words, not numbers.
 */
const COUNTER = /^(?:年|人|名|個|件|回|歳|才|つ|ヶ月|か月|カ月|ヵ月|ケ月|箇月|月|日|週|時間|円|%|台|本|枚|社|冊|点|度|倍|ドル|万|億)/;

const DIGITS = /(?<![\d.,])\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\d,])|(?<![\d.,])\d+(?:\.\d+)?(?![\d])/g;
const WORDS = new RegExp(`\\b(?:(${Object.keys(TENS).join('|')})[- ](${UNITS.slice(1, 10).join('|')})|(${[...UNITS, ...Object.keys(TENS)].join('|')}))\\b`, 'gi');
const KANJI_RUN = /[〇零一二三四五六七八九十百千万億]+/g;

/** Every number in a normalized text, in reading order. */
export function findNumbers(text: string): FoundNumber[] {
  const found = [...digitNumbers(text), ...wordNumbers(text), ...kanjiNumbers(text)];
  return found.sort((a, b) => a.index - b.index);
}

function digitNumbers(text: string): FoundNumber[] {
  return [...text.matchAll(DIGITS)].map((m) => {
    const raw = m[0].replace(/,/g, '');
    const magnitude = MAGNITUDES[text.charAt(m.index + m[0].length)] ?? 1;
    return { value: plain(raw, magnitude), text: m[0], index: m.index };
  });
}

function wordNumbers(text: string): FoundNumber[] {
  return [...text.matchAll(WORDS)].map((m) => {
    const tens = m[1] ? (TENS[m[1].toLowerCase()] ?? 0) : 0;
    const unit = m[2] ?? m[3] ?? '';
    const value = tens + (UNITS.indexOf(unit.toLowerCase()) >= 0 ? UNITS.indexOf(unit.toLowerCase()) : (TENS[unit.toLowerCase()] ?? 0));
    return { value: String(value), text: m[0], index: m.index };
  });
}

function kanjiNumbers(text: string): FoundNumber[] {
  const whole = text.replace(/[\s\p{P}]/gu, '');
  return [...text.matchAll(KANJI_RUN)]
    // A lone 万 after digits ("500万") was already read with the digits.
    .filter((m) => /[〇零一二三四五六七八九十百千]/.test(m[0]))
    .filter((m) => COUNTER.test(text.slice(m.index + m[0].length)) || m[0] === whole)
    .map((m) => ({ value: String(parseKanji(m[0])), text: m[0], index: m.index }))
    .filter((n) => n.value !== 'NaN');
}

/** "二十五" → 25, "三千五百" → 3500, "二〇二五" (digit by digit) → 2025, "五万" → 50000. */
export function parseKanji(s: string): number {
  if (![...s].some((ch) => ch in KANJI_UNITS || ch in MAGNITUDES)) {
    return Number([...s].map((ch) => KANJI_DIGITS[ch] ?? '').join(''));
  }
  let total = 0;
  let section = 0;
  let digit: number | null = null;
  for (const ch of s) {
    const d = KANJI_DIGITS[ch];
    const unit = KANJI_UNITS[ch];
    const magnitude = MAGNITUDES[ch];
    if (d !== undefined) digit = d;
    else if (unit !== undefined) {
      section += (digit ?? 1) * unit;
      digit = null;
    } else if (magnitude !== undefined) {
      total += (section + (digit ?? 0) || 1) * magnitude;
      section = 0;
      digit = null;
    }
  }
  return total + section + (digit ?? 0);
}

/**
 * "007" stays "007" (an identifier keeps its zeros), "2.50" becomes "2.5",
 * "500" before 万 becomes "5000000".
 */
function plain(raw: string, magnitude: number): string {
  if (magnitude !== 1) return String(Number(raw) * magnitude);
  if (/^0\d+$/.test(raw)) return raw;
  return String(Number(raw));
}
