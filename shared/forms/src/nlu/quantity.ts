import nlp from 'compromise';
import { isNonAnswer } from './answer-intent.js';
import { overlap, preferAsserted, type Span } from './discourse.js';
import { morphemes, type Morpheme } from './japanese.js';
import { findNumbers, type FoundNumber } from './numbers.js';
import { contactSpans, type Extraction } from './typed-values.js';
import { checkTextBudget } from '@convo/text';

/**
 * The number a respondent gives for a quantity fact, read from a normalized
 * answer. The fact's own words (label, intent, criteria, hints) say what is
 * counted and in which unit.
 *
 * 1. Numerals are what findNumbers reads: digits, English number words, kanji
 *    numerals the dictionary tags as numbers, 万/億/k/million magnitudes.
 * 2. Numbers that belong to something else — dates, clock times, phone
 *    numbers, emails, postal codes, day ordinals ("the 20th"), calendar years
 *    unless a year is asked — come last, so they win only when alone.
 * 3. Among the rest, a number carrying the unit the fact counts ("how many
 *    nights", "number of adults", 人数, 何泊, "(km)") comes first, a bare
 *    number next, a number with another known unit after ("5泊6日" for 日数
 *    → 6).
 * 4. Otherwise the respondent's order, as discourse.ts frames it: values
 *    taken back are dropped, values in background clauses come last.
 * 5. When the fact records amounts in a magnitude ("年収（万円）", "in
 *    thousands", "(k$)"), an amount written in full or with its own magnitude
 *    ("4,200,000円", "420万円", "$45k") is expressed in it; a bare number is
 *    taken as already in it.
 * 6. No number: nothing, except that a vague quantity ("a few", 数人) is
 *    rejected so the interviewer can ask for a figure.
 */

const NONE: Extraction = { value: null, rejected: null };

// One family per unit, whatever the language or spelling: a fact asking 日数 accepts "6日間" and "6 days".
const UNIT_FAMILIES: Readonly<Record<string, readonly string[]>> = {
  day: ['day', '日', '日間'],
  night: ['night', '泊'],
  person: ['person', 'people', '人', '名'],
  year: ['year', 'yr', 'age', '年', '年間', '歳', '才'],
  month: ['month', 'か月', 'ヶ月', 'カ月', 'ヵ月', 'ケ月', '箇月'],
  week: ['week', '週', '週間'],
  hour: ['hour', 'hr', 'h', '時間'],
  minute: ['minute', 'min', '分', '分間'],
  km: ['km', 'kilometre', 'kilometer', 'キロメートル'],
  kg: ['kg', 'kilogram', 'kilo', 'キログラム'],
  cm: ['cm', 'centimetre', 'centimeter', 'センチ'],
  yen: ['yen', 'jpy', '円', '¥'],
  dollar: ['dollar', 'usd', 'buck', 'ドル', '$'],
  pound: ['pound', 'gbp', 'ポンド', '£'],
  euro: ['euro', 'eur', 'ユーロ', '€'],
  percent: ['percent', 'パーセント', '%'],
};
const FAMILY_OF = new Map(Object.entries(UNIT_FAMILIES).flatMap(([family, words]) => words.map((word) => [word, family] as const)));
const CURRENCIES = new Set(['yen', 'dollar', 'pound', 'euro']);
const JA_UNITS = [...FAMILY_OF.keys()].filter((w) => !/^[a-z]/.test(w)).sort((a, b) => b.length - a.length);

const MAGNITUDE: Readonly<Record<string, number>> = {
  百: 1e2,
  千: 1e3,
  万: 1e4,
  億: 1e8,
  k: 1e3,
  thousands: 1e3,
  millions: 1e6,
  billions: 1e9,
};
// A magnitude that is not part of an amount names the unit of record. 万 and 億 need a figure to be an amount
// ("500万円"; "万円単位", "（万円）", 何万円 are units); 千円 and 百万円 are amounts unless bracketed alone, asked
// with 何, or called a 単位.
const SCALE_JA = [
  // (「○万〜○万円」: a placeholder for a figure is a figure.)
  /(?<![\d〇一二三四五六七八九十百千万億数○◯●□×Xx])([万億])(?=円|ドル|ユーロ|ポンド|単位)/,
  /[(（]\s*([百千][万億]?)(?:円|ドル|ユーロ|ポンド)\s*[)）]/,
  /(?:単位(?:\s*[:：は])?\s*|何)([百千][万億]?)(?:円|ドル|ユーロ|ポンド)|([百千][万億]?)(?:円|ドル|ユーロ|ポンド)?単位/,
];
const CURRENCY_WORDS = [...CURRENCIES]
  .flatMap((family) => UNIT_FAMILIES[family] ?? [])
  .filter((word) => /^[a-z]+$/.test(word))
  .join('|');
const SCALE_EN = new RegExp(
  `\\b(?:in|of)\\s+(?:[$£€¥]\\s*)?(thousands|millions|billions)\\b|\\b(thousands|millions|billions)\\s+of\\s+(?:${CURRENCY_WORDS})s?\\b|(?<![\\w.])(k)(?=\\s*[$£€¥)]|\\s*(?:${CURRENCY_WORDS})\\b)|(?<=[$£€¥(]\\s*)(k)\\b`,
  'i',
);
const COUNTED_EN = /^(?:how many|number of|no\.? of|# of|count of|quantity of)$/i;
const CALENDAR_YEAR = /\b(?:what|which)\s+year\b|\byear\s+(?:of|built|founded|established|made)\b|西暦|年度|何年に/i;

const NUMERAL = '[\\d〇一二三四五六七八九十]+';
// A number is matched from its first numeral (NUMERAL_START, `(?<!\d)`): tried from each of a long row of them,
// these searches were quadratic; a match from inside the row is one from its start anyway.
const NUMERAL_START = '(?<![\\d〇一二三四五六七八九十])';
// Values of other kinds whose digits are not a quantity.
const OTHER_VALUES = [
  /\d{1,4}\/\d{1,2}(?:\/\d{1,4})?|\d{1,4}[-.]\d{1,2}[-.]\d{1,4}/g,
  /\d{1,2}:\d{2}(?::\d{2})?|\d{1,2}\s*(?:am|pm|a\.m\.|p\.m\.|o'clock)\b/gi,
  /(?<!\d)(?:\d+-){2,}\d+/g,
  /(?:〒\s*)?(?<!\d)\d{3}-\d{4}(?!\d)/g,
  new RegExp(`${NUMERAL_START}(?:(?:${NUMERAL}年)?${NUMERAL}月(?:${NUMERAL}日)?|${NUMERAL}時(?!間)(?:${NUMERAL}分|半)?)`, 'g'),
  // The "1" of a rate: 「1泊あたり2万円」, "£20 per 1 kg".
  new RegExp(`${NUMERAL_START}${NUMERAL}[^\\d\\s、。,]{0,3}?(?:あたり|当たり|につき)|\\bper\\s+${NUMERAL}`, 'gi'),
];
const ORDINAL_SUFFIX = /^(?:st|nd|rd|th)\b/i;
const CALENDAR_YEAR_NUMBER = /^(?:19\d\d|20\d\d|2100)$/;
const RELATIVE_TIME = new RegExp(
  `${NUMERAL_START}${NUMERAL}\\s*(?:日|週間|か月|ヶ月|カ月|年|時間|分)[前後]|(?<!\\d)\\d+\\s*(?:days?|weeks?|months?|years?|hours?|minutes?)\\s+ago\\b`,
  'gi',
);
const RANGE_LINK = /^\s*(?:-|~|〜|to|or|、|から)\s*$/i;

const VAGUE_EN =
  /\b(?:(?:quite )?a few|several|some|many|a lot|lots|a handful|a bunch|plenty|multiple|numerous|a number of|dozens|hundreds|thousands)\b/i;
const VAGUE_JA = /複数|多数|大勢|若干|いくつか|いくらか|少々|少し|たくさん|沢山/;

type Term = { text: string; normal: string; root?: string; tags: string[]; offset: { start: number; length: number } };
type Asked = { units: string[]; scale: number; calendarYear: boolean };
type Candidate = FoundNumber & { end: number; unit: string | null; elsewhere: boolean };

/** The number the respondent gives for a fact whose own words (`unitTexts`) may name its unit; see the rules above. */
export function extractQuantity(text: string, unitTexts: readonly string[], options: { near?: string | null } = {}): Extraction {
  if (isNonAnswer(text)) return NONE;
  const asked = askedUnit(unitTexts);
  // 「第2番」, "No. 5", "#3": a rank or a label is never a count.
  const candidates = candidatesIn(text, asked).filter(
    (candidate) => !/(?:第|No\.?|#)\s*$/i.test(text.slice(Math.max(0, candidate.index - 4), candidate.index)),
  );
  const total = totalOf(text, candidates, asked);
  // A corrected count is of the order of the one it replaces ("the second digit is a 7 … it's 67,500, not 61,500").
  const near = options.near && /^\d+(?:\.\d+)?$/.test(options.near) ? Number(options.near) : null;
  // The replaced value itself, said again, is the one taken back.
  const distance = (candidate: Candidate) =>
    near === null || Number(candidate.value) <= 0 || near <= 0
      ? 0
      : Number(candidate.value) === near
        ? 0.9
        : Math.abs(Math.log10(Number(candidate.value)) - Math.log10(near)) / 100;
  const rank = (candidate: Candidate) =>
    (candidate.elsewhere ? 1000 : 0) + unitRank(candidate, asked) + (candidate === total ? -500 : 0) + distance(candidate);
  const grouped = digitGroups(text, unitTexts);
  if (grouped) return { value: grouped, rejected: null };
  const best = preferAsserted(text, candidates, (candidate) => [candidate.index, candidate.end]).sort((a, b) => rank(a) - rank(b))[0];
  if (best) {
    const span = spanFrom(text, candidates, best);
    if (span) return { value: span.map((end) => inRecordUnit(end, asked.scale)).join('/'), rejected: null };
    return { value: halved(text, best, inRecordUnit(best, asked.scale)), rejected: null };
  }
  const spoken = spokenCount(text);
  if (spoken !== null) return { value: spoken, rejected: null };
  const vague = vagueQuantity(text);
  return vague ? { value: null, rejected: vague, problem: 'invalid' } : NONE;
}

// What joins the two ends of a span of amounts: "5万〜8万円", "10-12 people", "between 20 and 30", 「20万から30万」.
const SPAN_LINK = /^\s*(?:-|–|—|~|〜|to|and|から)\s*$/i;
const SPAN_OPENING = /\bbetween\s*$/i;

/**
 * The span a number opens or closes, kept whole (issue 33): two amounts of one unit joined as a span ("5万〜8万円",
 * "10 to 12 people", "between 20 and 30 dollars"; "and" only after "between"), the smaller first. Alternatives
 * ("5 or 6", 「2、3人」) are not a span: the first is the answer, as before. The stored shape is `min/max`
 * (docs/api.md, compound values).
 */
function spanFrom(text: string, candidates: readonly Candidate[], best: Candidate): [Candidate, Candidate] | null {
  const i = candidates.indexOf(best);
  for (const [first, second] of [
    [candidates[i], candidates[i + 1]],
    [candidates[i - 1], candidates[i]],
  ] as const) {
    if (!first || !second || first.elsewhere || second.elsewhere) continue;
    const link = text.slice(first.end, second.index).replace(/^\s*(?:[万億千k]|円|ドル)?/u, '');
    if (!SPAN_LINK.test(link)) continue;
    if (/^\s*and\s*$/i.test(link) && !SPAN_OPENING.test(text.slice(Math.max(0, first.index - 12), first.index))) continue;
    if (first.unit !== null && second.unit !== null && first.unit !== second.unit) continue;
    // 「5〜8万円」, "10-12k": a magnitude written once at the end is both ends'.
    const magnitude = /[万億千]$|k$/i.exec(second.text)?.[0];
    const scaled =
      magnitude && !/[万億千]|k$/i.test(first.text)
        ? { ...first, value: String(Number(first.value) * (MAGNITUDE[magnitude.toLowerCase()] ?? 1)), text: `${first.text}${magnitude}` }
        : first;
    if (!(Number(scaled.value) < Number(second.value))) continue;
    return [scaled, second];
  }
  return null;
}

/** "13 and a half pounds", 「2歳半」: half a unit more. */
function halved(text: string, candidate: Candidate, value: string): string {
  const after = text.slice(candidate.end, candidate.end + 16);
  if (!/^\s*(?:\p{L}+\s+)?and a half\b|^\s*(?:[^\s\d]{0,3})?半/u.test(after) || /\./.test(value)) return value;
  return String(Number(value) + 0.5);
}

// "10桁", "10-digit": an identifier whose length the form states.
const STATED_DIGITS = /(\d{1,2})\s*(?:桁|けた|(?:-\s*)?digits?\b)/i;

/** 「1207 3365 49」 for a 10-digit number: groups of digits written apart, read as the one number the form asks for. */
function digitGroups(text: string, unitTexts: readonly string[]): string | null {
  const digitCount = unitTexts.map((unitText) => STATED_DIGITS.exec(unitText)?.[1]).find((count) => count !== undefined);
  if (!digitCount) return null;
  for (const groupMatch of text.matchAll(/\d[\d\s-]*\d/g)) {
    const digits = groupMatch[0].replace(/[\s-]/g, '');
    if (digits.length === Number(digitCount) && /[\s-]/.test(groupMatch[0])) return digits;
  }
  return null;
}

// "合計88名", "計147名", "50 in total", "so 24 altogether": the number that sums up a breakdown.
const TOTAL_BEFORE = /(?:合計|総計|総数|全部で|全員で|計|総勢|\b(?:total(?: of)?|in all|altogether|all together|that makes|making)\s*)$/i;
// "me plus two devs, so three seats": "so" draws the conclusion of a breakdown, when it counts what is asked.
const CONCLUSION_BEFORE = /\bso(?: that's| that is| it's)?\s*$/i;
// 「妻と子ども1人と私の3人です」「夫と息子2人の4人家族」: the count after a と-list and の, or before 家族, sums it up.
const JA_LIST_TOTAL_BEFORE = /と[^。、,]{0,16}の$/;
const JA_TOTAL_AFTER = /^\s*(?:人|名)\s*(?:家族|全員|みんな)/;
const TOTAL_AFTER = /^\s*(?:\p{L}{1,4}\s*)?(?:in total|total|altogether|all together|in all)\b/iu;

/**
 * The total of a breakdown ("児童82名と引率6名で、合計88名です", "22名と2名で24名"): a number marked as the total,
 * or one that equals the sum of the numbers before it in the same unit.
 */
function totalOf(text: string, cs: readonly Candidate[], asked: Asked): Candidate | null {
  const counted = cs.filter((candidate) => !candidate.elsewhere);
  const before = (candidate: Candidate) => text.slice(Math.max(0, candidate.index - 16), candidate.index).replace(/[、,]\s*$/, '');
  const concludes = (candidate: Candidate) =>
    CONCLUSION_BEFORE.test(before(candidate)) &&
    candidate.index > (counted[0]?.index ?? candidate.index) &&
    !(candidate.unit !== null && isKnownUnit(candidate.unit) && !asked.units.includes(candidate.unit));
  const after = (candidate: Candidate) => text.slice(candidate.end, candidate.end + 24);
  const marked = counted.find(
    (candidate) =>
      TOTAL_BEFORE.test(before(candidate)) ||
      TOTAL_AFTER.test(after(candidate)) ||
      JA_LIST_TOTAL_BEFORE.test(before(candidate)) ||
      JA_TOTAL_AFTER.test(after(candidate)) ||
      concludes(candidate),
  );
  if (marked) return marked;
  // The numbers before each one, summed per unit family as the walk goes (summing them again for each was quadratic).
  const earlier = new Map<string, { sum: number; count: number }>();
  for (const [i, candidate] of counted.entries()) {
    const family = familyOf(candidate.unit ?? '');
    const parts = earlier.get(family) ?? { sum: 0, count: 0 };
    if (i >= 2 && parts.count >= 2 && parts.sum === Number(candidate.value)) return candidate;
    earlier.set(family, { sum: parts.sum + Number(candidate.value), count: parts.count + 1 });
  }
  return null;
}

/** "Just the one", "only one", "twice a week", 「一回だけ」: counts said without a numeral. */
function spokenCount(text: string): string | null {
  if (/\b(?:just|only)\s+(?:the\s+)?one\b|\bthe one\b(?=\s*(?:[-—,.!]|$))/i.test(text)) return '1';
  if (/\btwice\b/i.test(text)) return '2';
  if (/\bthrice\b/i.test(text)) return '3';
  if (/\bonce\s+(?:a|per|every)\b/i.test(text)) return '1';
  return null;
}

function askedUnit(texts: readonly string[]): Asked {
  const counted = texts.flatMap((text) => [...recordedIn(text), ...countedEnglish(text), ...countedJapanese(text), ...labelNoun(text)]);
  const mentioned = texts.flatMap((text) => [...mentionedUnits(text), ...(text.match(/[$£€¥%]/g) ?? [])]);
  const units = [...new Set([...counted, ...mentioned.filter(isKnownUnit)].map(familyOf))];
  return { units, scale: scaleOf(texts.join(' ')), calendarYear: texts.some((text) => CALENDAR_YEAR.test(text)) };
}

/** A unit in brackets states how the value is recorded: "(km)", "（万円）" → 円, "(k$)" → $. */
function recordedIn(text: string): string[] {
  return [...text.matchAll(/[(（]([^()（）]{1,8})[)）]/g)]
    .map((bracketMatch) => (bracketMatch[1] ?? '').trim().replace(/^(?:[百千万億]+|k(?=\W))/i, ''))
    .filter(isKnownUnit);
}

/** The noun after "how many" / "number of": what the fact counts. */
function countedEnglish(text: string): string[] {
  const terms = englishTerms(text);
  return terms.flatMap((term, i) => {
    const phrase = `${terms[i - 1]?.normal ?? ''} ${term.normal}`;
    if (!COUNTED_EN.test(phrase)) return [];
    const noun = terms.slice(i + 1, i + 4).find((following) => following.tags.includes('Noun') && !following.tags.includes('Pronoun'));
    return noun ? [termWord(noun)] : [];
  });
}

/** A label that is a plural noun and little else ("Seats needed", "Guests", "Bedrooms"): that noun is what is counted. */
function labelNoun(text: string): string[] {
  const terms = englishTerms(text).filter((term) => term.normal.length > 0);
  if (terms.length === 0 || terms.length > 3) return [];
  const plural = terms.filter((term) => term.tags.includes('Plural') && !term.tags.includes('Pronoun'));
  return plural.length === 1 ? [termWord(plural[0]!)] : [];
}

/** The counter in 何泊 / 何名, or the head of an X数 compound (人数 → 人, 宿泊数 → 泊). */
function countedJapanese(text: string): string[] {
  const tokens = morphemes(text);
  if (!tokens) return [...text.matchAll(/何(\p{Script=Han})|(\p{Script=Han})数/gu)].map((match) => match[1] ?? match[2] ?? '');
  return tokens.flatMap((token, i) => {
    const next = tokens[i + 1];
    if (token.surface === '何' && next?.pos1 === '接尾') return [next.surface];
    if (token.surface.length > 1 && token.surface.endsWith('数')) return [token.surface.slice(-2, -1)];
    if (token.surface === '数' && token.pos1 === '接尾') return [tokens[i - 1]?.surface.slice(-1) ?? ''];
    return [];
  });
}

// A unit in a rate ("per year", "a week", 「1泊あたり」, 「毎月」) divides the quantity; it is not what is counted.
const RATE = /^(?:per|a|an|each|every|あたり|当たり|につき|ごと|毎)$/;

/** Unit words anywhere in a text, rates aside. Latin words are compromise's, which knows "per year" from "years". */
function mentionedUnits(text: string): string[] {
  const words = englishTerms(text).map(termWord);
  const english = words.filter((_, i) => !RATE.test(words[i - 1] ?? ''));
  const japanese = (morphemes(text) ?? []).filter(
    (morpheme, i, all) => isJapaneseUnit(morpheme) && !RATE.test(all[i - 1]?.surface ?? '') && !RATE.test(all[i + 1]?.surface ?? ''),
  );
  return [...english, ...japanese.map((morpheme) => morpheme.surface)];
}

function isJapaneseUnit(morpheme: Morpheme): boolean {
  return !/\p{Script=Latin}/u.test(morpheme.surface) && (morpheme.pos2 === '助数詞' || FAMILY_OF.has(morpheme.surface));
}

function scaleOf(text: string): number {
  const scaleMatch = SCALE_JA.map((re) => re.exec(text)).find((match) => match !== null);
  const ja = scaleMatch?.[1] ?? scaleMatch?.[2];
  if (ja) return [...ja].reduce((product, ch) => product * (MAGNITUDE[ch] ?? 1), 1);
  const en = SCALE_EN.exec(text);
  return en ? (MAGNITUDE[(en[1] ?? en[2] ?? en[3] ?? en[4] ?? '').toLowerCase()] ?? 1) : 1;
}

function candidatesIn(text: string, asked: Asked): Candidate[] {
  const terms = termIndex(englishTerms(text));
  const tokens = morphemes(text);
  const tokensAt = tokens && byStart(tokens);
  const found = findNumbers(text);
  const units = found.map((numeral) => {
    checkTextBudget();
    return unitOf(text, numeral.index, numeral.index + numeral.text.length, terms, tokensAt);
  });
  // "2、3人", "10 to 12 people", "5 or 6 nights": the numbers of a range share its last unit.
  for (let i = found.length - 2; i >= 0; i--) {
    const [numeral, next] = [found[i], found[i + 1]];
    if (numeral && next && units[i] === null && RANGE_LINK.test(text.slice(numeral.index + numeral.text.length, next.index)))
      units[i] = units[i + 1] ?? null;
  }
  const others = overlap([...OTHER_VALUES.flatMap((re) => spansOf(re, text)), ...contactSpans(text, null)]);
  const context = { text, terms, asked, others, relative: overlap(spansOf(RELATIVE_TIME, text)) };
  return found.map((numeral, i) => {
    // A bare 1900–2100 reads as a calendar year: the answer to "what year", and nothing else's count.
    const unit = units[i] ?? (CALENDAR_YEAR_NUMBER.test(numeral.text) ? 'year' : null);
    const candidate = { ...numeral, end: numeral.index + numeral.text.length, unit, elsewhere: false };
    return { ...candidate, elsewhere: belongsElsewhere(candidate, context) };
  });
}

type Overlap = (start: number, end: number) => boolean;
type Context = { text: string; terms: TermIndex; asked: Asked; others: Overlap; relative: Overlap };

function belongsElsewhere(candidate: Candidate, { text, terms, asked, others, relative }: Context): boolean {
  const tags = terms.overlapping(candidate.index, candidate.end).flatMap((term) => term.tags);
  // "3 days ago", 「3日前から」 date an event, unless the fact measures that very span ("how many days ago").
  const relativeDate = relative(candidate.index, candidate.end) && !(candidate.unit !== null && asked.units.includes(candidate.unit));
  return (
    others(candidate.index, candidate.end) ||
    relativeDate ||
    ORDINAL_SUFFIX.test(text.slice(candidate.end)) ||
    ['Time', 'PhoneNumber', 'Email', 'Url'].some((tag) => tags.includes(tag)) ||
    (tags.includes('Date') && !tags.includes('Year')) ||
    (CALENDAR_YEAR_NUMBER.test(candidate.text) && !asked.calendarYear && candidate.unit === 'year')
  );
}

function spansOf(re: RegExp, text: string): Span[] {
  return [...text.matchAll(re)].map((match) => [match.index, match.index + match[0].length] as const);
}

/**
 * compromise's terms in text order, with the lookups the candidate rules make by position: scanning every term for
 * every number was quadratic in a reply full of numbers.
 */
type TermIndex = { overlapping: (start: number, end: number) => Term[]; after: (start: number, count: number) => Term[] };

function termIndex(all: readonly Term[]): TermIndex {
  const startOf = (term: Term) => term.offset.start;
  const longest = all.reduce((max, term) => Math.max(max, term.offset.length), 0);
  /** The first term starting at or after `at`. */
  const first = (at: number) => {
    let [low, high] = [0, all.length];
    while (low < high) {
      const middle = (low + high) >> 1;
      if (startOf(all[middle]!) < at) low = middle + 1;
      else high = middle;
    }
    return low;
  };
  const ordered = all.every((term, i) => i === 0 || startOf(all[i - 1]!) <= startOf(term));
  return {
    overlapping(start, end) {
      const overlaps = (term: Term) => term.offset.start < end && term.offset.start + term.offset.length > start;
      if (!ordered) return all.filter(overlaps);
      const out: Term[] = [];
      for (let i = first(start - longest); i < all.length && startOf(all[i]!) < end; i++) if (overlaps(all[i]!)) out.push(all[i]!);
      return out;
    },
    after(start, count) {
      const out: Term[] = [];
      for (let i = ordered ? first(start) : 0; i < all.length && out.length < count; i++) {
        const term = all[i]!;
        if (term.offset.start >= start && term.offset.length > 0) out.push(term);
      }
      return out;
    },
  };
}

/** The morphemes by where they start. */
function byStart(tokens: readonly Morpheme[]): Map<number, Morpheme[]> {
  const at = new Map<number, Morpheme[]>();
  for (const token of tokens) {
    const list = at.get(token.start);
    if (list) list.push(token);
    else at.set(token.start, [token]);
  }
  return at;
}

/** The unit written with a number: a currency sign before it, or %, a glued abbreviation, a counter or a noun after it. */
function unitOf(text: string, start: number, end: number, terms: TermIndex, tokensAt: Map<number, Morpheme[]> | null): string | null {
  // (The sign before the spaces before the number, found backwards: a regex over all the text before it was quadratic.)
  let before = start;
  while (before > 0 && /\s/.test(text[before - 1]!)) before--;
  const sign = before > 0 && /[$£€¥]/.test(text[before - 1]!) ? text[before - 1] : undefined;
  if (sign) return familyOf(sign);
  const rest = text.slice(end);
  if (/^\s?%/.test(rest)) return 'percent';
  const glued = /^[a-z]+/i.exec(rest)?.[0];
  if (glued) return familyOf(glued);
  const at = end + (rest.length - rest.trimStart().length);
  if (tokensAt) {
    const counter = tokensAt.get(at)?.find((token) => isJapaneseUnit(token));
    if (counter) return familyOf(counter.surface);
  } else {
    const counter = JA_UNITS.find((unitWord) => rest.trimStart().startsWith(unitWord));
    if (counter) return familyOf(counter);
  }
  if (!/^\s?\p{Script=Latin}/u.test(rest)) return null;
  // "2 adults", "25 years old", "2 big rooms": the noun right after, past one modifier.
  const [first, second] = terms.after(end, 2);
  if (first && isUnitTerm(first)) return familyOf(termWord(first));
  const modifier = first && (first.tags.includes('Adjective') || first.tags.includes('Adverb'));
  return modifier && second && isUnitTerm(second) ? familyOf(termWord(second)) : null;
}

function isUnitTerm(term: Term): boolean {
  return FAMILY_OF.has(termWord(term)) || (term.tags.includes('Noun') && !term.tags.includes('Pronoun'));
}

// Only a known unit of another family ("5泊" for 日数) marks a number as measuring something else:
// an unknown noun ("3 kids" for children) may be a synonym.
function unitRank(candidate: Candidate, asked: Asked): number {
  const unitIndex = candidate.unit === null ? -1 : asked.units.indexOf(candidate.unit);
  if (asked.units.length === 0 || unitIndex >= 0) return Math.max(unitIndex, 0);
  return asked.units.length + (candidate.unit !== null && isKnownUnit(candidate.unit) ? 1 : 0);
}

function inRecordUnit(candidate: Candidate, scale: number): string {
  const written = /[千万億兆]|k$|thousand|million|billion|trillion/i.test(candidate.text) || CURRENCIES.has(candidate.unit ?? '');
  if (scale === 1 || !written) return candidate.value;
  return String(Number((Number(candidate.value) / scale).toPrecision(12)));
}

/** "a few", "several", 「数人」「十数名」「何人か」「複数」: a quantity without a figure. */
function vagueQuantity(text: string): string | null {
  const tokens = morphemes(text) ?? [];
  for (const [i, counter] of tokens.entries()) {
    let j = i;
    while (j > 0 && tokens[j - 1]?.pos1 === '数') j--;
    const run = tokens.slice(j, i).map((token) => token.surface);
    // 何人 asks; 何人か and 数人 answer without a figure.
    const last = tokens[i + 1]?.surface === 'か' ? tokens[i + 1] : run.includes('何') ? undefined : counter;
    if (counter.pos2 === '助数詞' && last && run.some((surface) => /^[数何幾]$/.test(surface)))
      return text.slice(tokens[j]?.start ?? 0, last.end);
  }
  return (VAGUE_JA.exec(text) ?? VAGUE_EN.exec(text))?.[0] ?? null;
}

function englishTerms(text: string): Term[] {
  if (!/\p{Script=Latin}/u.test(text)) return [];
  const doc = nlp(text);
  doc.compute('root');
  return (doc.json({ offset: true }) as Array<{ terms: Term[] }>).flatMap((sentence) => sentence.terms);
}

function termWord(term: Term): string {
  return (term.root ?? term.normal).toLowerCase();
}

function isKnownUnit(word: string): boolean {
  return UNIT_FAMILIES[familyOf(word)] !== undefined;
}

/** The family a unit word belongs to ("days" → day, "日間" → day), or the word itself for units the table does not know ("adults"). */
function familyOf(word: string): string {
  const lower = word.toLowerCase();
  return FAMILY_OF.get(lower) ?? FAMILY_OF.get(lower.replace(/s$/, '')) ?? lower;
}
