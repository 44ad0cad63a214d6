import * as chrono from 'chrono-node';
import { findPhoneNumbersInText, isSupportedCountry, type CountryCode } from 'libphonenumber-js';
import validator from 'validator';
import { ENGLISH_COMMON_WORDS } from './english-words.js';
import { findNumbers } from './numbers.js';
import { chronoReference, utcOffsetMinutes } from './time-values.js';
import { hasJapanese, japaneseChars, trimPunctuation, type SessionLanguage } from './text.js';

/**
 * Extractors for typed facts. Each reads one normalized answer and returns the
 * normalised value it found, or — when there is something that looks like an
 * attempt but is not valid ("foo@") — that text, so feedback can name it.
 */
export type Extraction = { value: string | null; rejected: string | null; problem?: 'invalid' | 'no_year' | 'incomplete_name' | 'ambiguous' | 'not_an_option' };

const NONE: Extraction = { value: null, rejected: null };

const EMAIL_CANDIDATE = /[A-Za-z0-9._%+'-]*@[A-Za-z0-9.-]*/g;

/** An email address (validator.isEmail), lowercased. */
export function extractEmail(text: string): Extraction {
  let rejected: string | null = null;
  for (const m of text.matchAll(EMAIL_CANDIDATE)) {
    const candidate = m[0].replace(/[.-]+$/, '');
    if (candidate.length < 2) continue;
    if (validator.isEmail(candidate)) return { value: candidate.toLowerCase(), rejected: null };
    rejected ??= candidate;
  }
  return rejected ? { value: null, rejected, problem: 'invalid' } : NONE;
}

/**
 * A valid phone number in E.164, read with the respondent's country as the
 * default for national formats (090-1234-5678 in JP → +819012345678).
 */
export function extractPhone(text: string, country: string | null): Extraction {
  const defaultCountry = country && isSupportedCountry(country) ? (country as CountryCode) : undefined;
  const found = findPhoneNumbersInText(text, defaultCountry ? { defaultCountry } : undefined);
  const valid = found.find((f) => f.number.isValid());
  if (valid) return { value: valid.number.number, rejected: null };
  const attempt = /\+?\d[\d\s().-]{3,}\d/.exec(text)?.[0];
  return attempt ? { value: null, rejected: attempt.trim(), problem: 'invalid' } : NONE;
}

/** Where emails, URLs and phone numbers sit in a text, so free-text rules can ignore them. */
export function contactSpans(text: string, country: string | null): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  for (const m of text.matchAll(EMAIL_CANDIDATE)) if (m[0].includes('@') && m[0].length > 1) spans.push([m.index, m.index + m[0].length]);
  for (const u of urlCandidates(text)) spans.push([u.index, u.index + u.candidate.length]);
  const defaultCountry = country && isSupportedCountry(country) ? (country as CountryCode) : undefined;
  for (const f of findPhoneNumbersInText(text, defaultCountry ? { defaultCountry } : undefined)) spans.push([f.startsAt, f.endsAt]);
  return spans;
}

/** The text with the given spans blanked out. */
export function stripSpans(text: string, spans: Array<[number, number]>): string {
  let out = text;
  for (const [start, end] of [...spans].sort((a, b) => b[0] - a[0])) out = out.slice(0, start) + ' ' + out.slice(end);
  return out;
}

const URL_CANDIDATE =
  /\bhttps?:\/\/[^\s<>"'「」『』、。]*|(?<![@\w.-])(?:www\.)?(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,}(?::\d+)?(?:\/[^\s<>"'「」『』、。]*)?/gi;
// "Node.js" or "README.md" are file names, not sites, unless they carry a path or www.
const FILE_LIKE = /\.(?:js|ts|py|rb|md|txt|json|html?|css|java|go|rs|sh|ya?ml|exe|pdf|docx?|xlsx?|pptx?|png|jpe?g|gif|zip)$/i;

/** A web address (http/https or a bare domain such as example.com/portfolio), with https:// added when missing. */
export function extractUrl(text: string): Extraction {
  let rejected: string | null = null;
  for (const { candidate, hasProtocol } of urlCandidates(text)) {
    if (validator.isURL(candidate, { protocols: ['http', 'https'], require_tld: true })) {
      return { value: hasProtocol ? candidate : `https://${candidate}`, rejected: null };
    }
    if (hasProtocol) rejected ??= candidate;
  }
  return rejected ? { value: null, rejected, problem: 'invalid' } : NONE;
}

function* urlCandidates(text: string): Generator<{ candidate: string; index: number; hasProtocol: boolean }> {
  for (const m of text.matchAll(URL_CANDIDATE)) {
    const candidate = m[0].replace(/[.,;:!?)\]]+$/, '');
    const hasProtocol = /^https?:\/\//i.test(candidate);
    if (!hasProtocol && !candidate.includes('/') && !/^www\./i.test(candidate) && FILE_LIKE.test(candidate)) continue;
    yield { candidate, index: m.index, hasProtocol };
  }
}

export type DateOptions = { language: SessionLanguage; now: Date; requireYear: boolean; timezone?: string | null; country?: string | null };

// Countries that write numeric dates month first (3/4/2025 is March 4th); elsewhere day first.
const MONTH_FIRST = new Set(['US', 'PH', 'FM', 'MH', 'PW', 'BZ', 'CA']);

/** chrono's English parser for the respondent's country: month-first or day-first numeric dates. */
function englishParser(country: string | null | undefined) {
  return !country || MONTH_FIRST.has(country) ? chrono.en : chrono.en.GB;
}

/**
 * A date as YYYY-MM-DD (YYYY-MM when only the month is known): ISO forms,
 * then chrono in the session language, then the other language. Relative
 * dates ("next Monday", "来週の月曜日") resolve against `now`, towards the
 * future — except for birth dates, which must carry a year.
 */
export function extractDate(text: string, options: DateOptions): Extraction {
  const iso = /(?<!\d)(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?!\d)/.exec(text);
  if (iso) {
    const value = isoDate(Number(iso[1]), Number(iso[2]), Number(iso[3]));
    return value ? { value, rejected: null } : { value: null, rejected: iso[0], problem: 'invalid' };
  }
  const en = englishParser(options.country);
  const parsers = options.language === 'ja' ? [chrono.ja, en] : [en, chrono.ja];
  let rejected: Extraction = NONE;
  for (const parser of parsers) {
    for (const r of parser.parse(text, chronoReference(options), { forwardDate: !options.requireYear })) {
      const s = r.start;
      const hasDay = s.isCertain('day') || s.isCertain('weekday');
      if (!hasDay && !s.isCertain('month')) continue;
      if (options.requireYear && !s.isCertain('year')) {
        rejected = { value: null, rejected: r.text, problem: 'no_year' };
        continue;
      }
      if (hasDay && !s.isCertain('day')) return { value: weekdayDate(text, s.get('year') ?? 0, s.get('month') ?? 1, s.get('day') ?? 1, options), rejected: null };
      const month = `${s.get('year')}-${pad(s.get('month'))}`;
      return { value: hasDay ? `${month}-${pad(s.get('day'))}` : month, rejected: null };
    }
  }
  // chrono reads "2025年4月1日" but not a bare "2025年4月".
  const ym = /(\d{4})年\s*(\d{1,2})月(?!\s*\d)/.exec(text);
  if (ym && Number(ym[2]) >= 1 && Number(ym[2]) <= 12) return { value: `${ym[1]}-${pad(Number(ym[2]))}`, rejected: null };
  return rejected;
}

/**
 * A weekday chrono placed in the coming days, moved to next week when the
 * respondent said so (「来週の金曜日」, which chrono reads as this week's),
 * or to the week after for 「再来週」.
 */
function weekdayDate(text: string, y: number, m: number, d: number, options: DateOptions): string {
  const weeksAhead = /再来週/.test(text) ? 2 : /来週/.test(text) ? 1 : 0;
  const day = new Date(Date.UTC(y, m - 1, d));
  if (weeksAhead > 0) {
    const offset = options.timezone ? (utcOffsetMinutes(options.timezone, options.now) ?? 0) : 0;
    const local = new Date(options.now.getTime() + offset * 60_000);
    const today = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate());
    const monday = today + ((8 - (local.getUTCDay() || 7)) % 7 || 7) * 86_400_000;
    const target = monday + (weeksAhead - 1) * 7 * 86_400_000;
    while (day.getTime() < target) day.setUTCDate(day.getUTCDate() + 7);
  }
  return day.toISOString().slice(0, 10);
}

function isoDate(y: number, m: number, d: number): string | null {
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return null;
  return `${y}-${pad(m)}-${pad(d)}`;
}

function pad(n: number | null): string {
  return String(n ?? 0).padStart(2, '0');
}

/** The first number in the answer, as a plain number string ("5", "2.5"). */
export function extractNumber(text: string): Extraction {
  const first = findNumbers(text)[0];
  return first ? { value: first.value, rejected: null } : NONE;
}

const NAME_INTRO_EN = /^(?:(?:hi|hello|hey)\b[\s,!.]*)?(?:(?:my (?:full |legal )?name is|my name's|i am|i'm|it's|this is|call me|name:)\s+)?/i;
const NAME_INTRO_JA = /^(?:(?:私|わたし|僕|ぼく|俺)の?)?(?:(?:お?名前|氏名|フルネーム)は|(?:私|わたし|僕|ぼく)は)\s*/;
const NAME_OUTRO_JA = /\s*(?:と申します|といいます|と言います|でございます|です|だよ|です。)$/;

/**
 * A personal name: at least `parts` name words in Latin script ("Taro
 * Yamada"), or at least two kana/kanji for a Japanese full name ("山田太郎").
 * Introductions ("My name is…", "山田太郎と申します") are removed; a sentence
 * (lower-case common words such as "the", "will") is not a name.
 */
export function extractName(text: string, parts: 1 | 2): Extraction {
  const whole = nameIn(text, parts);
  if (whole.value !== null) return whole;
  // "Jane Doe, and you can reach me at …", 「山田花子です。メールは…」: the name is the first clause.
  const first = text.split(/\s*(?:[,;、。]|\s(?:and|but)\s)\s*/)[0] ?? '';
  if (first && first.length < text.length) {
    const clause = nameIn(first, parts);
    if (clause.value !== null) return clause;
  }
  return whole;
}

function nameIn(text: string, parts: 1 | 2): Extraction {
  let rest = trimPunctuation(text);
  if (hasJapanese(rest)) {
    rest = trimPunctuation(rest.replace(NAME_INTRO_JA, '').replace(NAME_OUTRO_JA, ''));
    const chars = japaneseChars(rest).length;
    const latin = rest.replace(/[^\p{Script=Latin}]/gu, '').length;
    // Verb and sentence endings mean a sentence ("東京に住んでいます"), not a name.
    const sentence = /ます|ません|ました|でした|ください|ない|から|ので/.test(rest);
    if (chars >= (parts === 2 ? 2 : 1) && chars <= 12 && latin === 0 && !sentence) return { value: rest.replace(/\s+/g, ' '), rejected: null };
    if (latin === 0) return NONE;
  }
  rest = trimPunctuation(rest.replace(NAME_INTRO_EN, ''));
  const words = rest.split(/\s+/).filter(Boolean);
  const nameLike = words.every((w) => /^\p{L}[\p{L}'.-]*$/u.test(w) && !(w === w.toLowerCase() && ENGLISH_COMMON_WORDS.has(w)));
  if (nameLike && words.length >= parts && words.length <= 5) return { value: words.join(' '), rejected: null };
  if (nameLike && words.length === 1) return { value: null, rejected: rest, problem: 'incomplete_name' };
  return NONE;
}
