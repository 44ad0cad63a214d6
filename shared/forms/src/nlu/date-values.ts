import * as chrono from 'chrono-node';
import nlp from 'compromise';
import { backgroundSpans, containment, preferAsserted, type Span } from './discourse.js';
import { parseKanji } from './numbers.js';
import type { SessionLanguage } from './text.js';
import type { Extraction } from './typed-values.js';

/**
 * Calendar dates as respondents write them. chrono-node reads English and
 * Japanese; Japanese forms it does not read (和暦, 「2025年の1月15日」,
 * 「一昨日」, 「3日前」, 「先週の金曜日」, 「先月」, kanji numerals) are first
 * rewritten into forms it does, with offsets kept so every value can be
 * traced back to the words the respondent wrote (discourse spans, periods).
 */

export type DateDirection = 'past' | 'future' | 'any';

export type DateOptions = {
  language: SessionLanguage;
  now: Date;
  timezone?: string | null;
  country?: string | null;
  requireYear: boolean;
  /** Where a date without a year lies from `now` (see {@link dateDirection}); without one, the reply's own words decide. */
  /** How to complete a missing year; 'nearest' takes the date closest to `now` whatever the reply's tense. */
  direction?: DateDirection | 'nearest';
};

/** The instant a reply is read at, and the respondent's zone: "today" is their today. */
export type Reference = { now: Date; timezone?: string | null };

const NONE: Extraction = { value: null, rejected: null };

/** chrono's reference: the instant plus the session's UTC offset, so "next Friday" is the respondent's next Friday. */
export function chronoReference(reference: Reference): chrono.ParsingReference {
  const offset = reference.timezone ? utcOffsetMinutes(reference.timezone, reference.now) : null;
  return offset === null ? { instant: reference.now } : { instant: reference.now, timezone: offset };
}

/** The zone's offset from UTC at `at`, in minutes (Asia/Tokyo → 540), or null for an unknown zone. */
export function utcOffsetMinutes(timeZone: string, at: Date): number | null {
  try {
    const parts = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    }).formatToParts(at);
    const get = (unit: string) => Number(parts.find((part) => part.type === unit)?.value ?? 0);
    const local = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'));
    return Math.round((local - Math.floor(at.getTime() / 60000) * 60000) / 60000);
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------- calendar days

/** A calendar day (month 1-12). */
export type Day = { y: number; m: number; d: number };

/** The respondent's calendar day at `now`: in their zone, or the machine's when none is known (as chrono does). */
export function localToday(reference: Reference): Day {
  const offset = reference.timezone ? utcOffsetMinutes(reference.timezone, reference.now) : null;
  if (offset === null) return { y: reference.now.getFullYear(), m: reference.now.getMonth() + 1, d: reference.now.getDate() };
  const local = new Date(reference.now.getTime() + offset * 60_000);
  return { y: local.getUTCFullYear(), m: local.getUTCMonth() + 1, d: local.getUTCDate() };
}

function dayFrom(instant: Date): Day {
  return { y: instant.getUTCFullYear(), m: instant.getUTCMonth() + 1, d: instant.getUTCDate() };
}

function shiftDays(day: Day, days: number): Day {
  return dayFrom(new Date(Date.UTC(day.y, day.m - 1, day.d + days)));
}

function shiftMonths(day: Day, months: number): Day {
  return dayFrom(new Date(Date.UTC(day.y, day.m - 1 + months, 1)));
}

function dayNumber(day: Day): number {
  return Date.UTC(day.y, day.m - 1, day.d) / 86_400_000;
}

function weekdayOf(day: Day): number {
  return new Date(Date.UTC(day.y, day.m - 1, day.d)).getUTCDay();
}

function pad(part: number): string {
  return String(part).padStart(2, '0');
}

/** YYYY-MM-DD, or null when the day does not exist (2025-02-30). */
export function isoDate(year: number, month: number, day: number): string | null {
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return `${year}-${pad(month)}-${pad(day)}`;
}

function jaDay(day: Day): string {
  return `${day.y}年${day.m}月${day.d}日`;
}

// ---------------------------------------------------------------- rewriting with offsets

/** A text rewritten for a parser (`text`), the respondent's `source`, and the way back to its offsets. */
export type Rewritten = { text: string; source: string; start: (offset: number) => number; end: (offset: number) => number };

export function unchanged(text: string): Rewritten {
  return { text, source: text, start: (offset) => offset, end: (offset) => offset };
}

/** What the respondent wrote where the rewritten text has [at, to). */
export function original(rewritten: Rewritten, at: number, to: number): string {
  return rewritten.source.slice(rewritten.start(at), rewritten.end(to));
}

/** A stretch [start, end) of the current text and what replaces it. */
export type Edit = { start: number; end: number; by: string };

/** Replaces every match of `pattern` (global) for which `replace` returns a string; offsets map back through the edit. */
export function rewrite(src: Rewritten, pattern: RegExp, replace: (match: RegExpMatchArray) => string | null): Rewritten {
  const edits: Edit[] = [];
  for (const match of src.text.matchAll(pattern)) {
    const by = replace(match);
    if (by !== null) edits.push({ start: match.index, end: match.index + match[0].length, by });
  }
  return applyEdits(src, edits);
}

/** Applies non-overlapping edits (in text order). */
export function applyEdits(src: Rewritten, edits: readonly Edit[]): Rewritten {
  if (edits.length === 0) return src;
  const placed: Array<{ from: number; to: number; at: number; len: number }> = [];
  let out = '';
  let last = 0;
  for (const edit of edits) {
    out += src.text.slice(last, edit.start);
    placed.push({ from: edit.start, to: edit.end, at: out.length, len: edit.by.length });
    out += edit.by;
    last = edit.end;
  }
  out += src.text.slice(last);
  // An offset inside a replacement maps to the whole replaced stretch: starts to its start, ends to its end.
  const back = (offset: number, isEnd: boolean): number => {
    let shift = 0;
    for (const edit of placed) {
      if (isEnd ? offset <= edit.at : offset < edit.at) break;
      if (isEnd ? offset <= edit.at + edit.len : offset < edit.at + edit.len) return isEnd ? edit.to : edit.from;
      shift = edit.to - (edit.at + edit.len);
    }
    return offset + shift;
  };
  return { text: out, source: src.source, start: (offset) => src.start(back(offset, false)), end: (offset) => src.end(back(offset, true)) };
}

// ---------------------------------------------------------------- Japanese forms chrono does not read

// Japanese eras still in living memory, by the Gregorian year of their first year; R5 / H30 / 令5 abbreviate them.
const ERA_START: Readonly<Record<string, number>> = {
  令和: 2019,
  平成: 1989,
  昭和: 1926,
  大正: 1912,
  令: 2019,
  平: 1989,
  昭: 1926,
  R: 2019,
  H: 1989,
  S: 1926,
  T: 1912,
};
const ERA = String.raw`(?<![A-Za-z\d])(令和|平成|昭和|大正|令|平|昭|[RHSTrhst])\s*(元|\d{1,2})`;
const ERA_YEAR = new RegExp(String.raw`${ERA}\s*年`, 'g');
// An era year without 年 ("R5", 「H30卒」) only where Japanese usage puts one: "H1 results" is a half-year.
const ERA_ALONE = new RegExp(String.raw`${ERA}(?=\s*(?:年度|です|頃|ごろ|生まれ|卒|入社|入学|[、。,.!?]|$))`, 'g');
const ERA_NUMERIC_DATE = new RegExp(String.raw`${ERA}\s*[./-]\s*(\d{1,2})\s*[./-]\s*(\d{1,2})(?!\d)`, 'g');
// 「R7.6」: an era year and a month.
const ERA_NUMERIC_MONTH = new RegExp(String.raw`${ERA}\s*[./-]\s*(\d{1,2})(?![\d./-])`, 'g');

/** The Gregorian year of an era year (平成, "30" → 2018; 令和, 元 → 2019), or null for an unknown era. */
export function eraYear(era: string, yearInEra: string): number | null {
  const first = ERA_START[era] ?? ERA_START[era.toUpperCase()];
  if (first === undefined) return null;
  return first + (yearInEra === '元' ? 1 : Number(yearInEra)) - 1;
}

const KANJI_DIGIT = '[〇一二三四五六七八九十百千]';
const KANJI = `${KANJI_DIGIT}+`;
// Kanji numerals count before a calendar or clock counter; 「一時的」「一時期」 are words, and 十分 ("enough") is
// only minutes after an hour. (Read from the first numeral, and the lookbehinds tried at numerals only: tried from
// each numeral of a long row, or each space of a long run, the search was quadratic.)
const KANJI_BEFORE_COUNTER = new RegExp(
  String.raw`(?<!${KANJI_DIGIT})${KANJI}(?=\s*(?:年|月|週|[かヶカヵケ箇]月|時(?![的期])))|(?=${KANJI_DIGIT})(?:(?<=月\s*)${KANJI}(?=\s*日)|(?<=時\s*)${KANJI}(?=\s*分)|(?<=分\s*)${KANJI}(?=\s*秒))`,
  'g',
);

/** Kanji numerals before 年/月/日/時/分 as digits (平成三十年四月一日 → 平成30年4月1日). */
export function kanjiDigits(src: Rewritten): Rewritten {
  return rewrite(src, KANJI_BEFORE_COUNTER, (match) => {
    const parsed = parseKanji(match[0]);
    return Number.isFinite(parsed) ? String(parsed) : null;
  });
}

const RELATIVE_DAY: Readonly<Record<string, number>> = {
  一昨日: -2,
  おととい: -2,
  昨日: -1,
  きのう: -1,
  昨夜: -1,
  昨晩: -1,
  今日: 0,
  本日: 0,
  今朝: 0,
  今夜: 0,
  今晩: 0,
  明日: 1,
  あした: 1,
  明後日: 2,
  あさって: 2,
};
const RELATIVE_DAY_WORD = new RegExp(
  Object.keys(RELATIVE_DAY)
    .sort((a, b) => b.length - a.length)
    .join('|'),
  'g',
);
const RELATIVE_WEEK: Readonly<Record<string, number>> = { 先々週: -2, 先週: -1, 今週: 0, 来週: 1, 再来週: 2 };
const WEEKDAY_JA = '日月火水木金土';
const RELATIVE_MONTH: Readonly<Record<string, number>> = { 先々月: -2, 先月: -1, 今月: 0, 来月: 1, 再来月: 2 };
const RELATIVE_YEAR: Readonly<Record<string, number>> = {
  一昨年: -2,
  おととし: -2,
  去年: -1,
  昨年: -1,
  今年: 0,
  本年: 0,
  来年: 1,
  再来年: 2,
};
const UNIT_JA = '日|週間|週|[かヶカヵケ箇]月|年';

/**
 * The reply with Japanese dates rewritten into forms chrono reads
 * (「令和3年の2月14日」 → 「2021年2月14日」, 「先週の金曜日」 → the date it
 * names). Relative words resolve against the respondent's today.
 */
export function forChrono(text: string, reference: Reference): Rewritten {
  return relativeJapanese(japaneseDayPhrases(gregorianYears(kanjiDigits(weekdayBeforeDay(unchanged(text))))), localToday(reference));
}

/**
 * 「10月の…7日の火曜日」: a month and its day said apart, and a weekday after the day, are one date
 * (10月7日); the weekday only confirms it.
 */
function japaneseDayPhrases(src: Rewritten): Rewritten {
  const joined = rewrite(src, /(\d{1,2})月(?:の|[…\s、,.・ー]|えっと|えーと)+(\d{1,2})日/g, (match) => `${match[1]}月${match[2]}日`);
  return rewrite(joined, /(?<=\d日)(?:の|\s)?[(（]?[月火水木金土日](?:曜日?)?[)）]?(?![\p{Script=Han}])/gu, () => '');
}

/** "Friday the 21st": the day of the month says which Friday (chrono would take the nearest Friday and drop the 21st). */
function weekdayBeforeDay(src: Rewritten): Rewritten {
  return rewrite(
    src,
    /\b(?:mon|tues|wednes|thurs|fri|satur|sun)day,?\s+(?=(?:the\s+)?(?:[1-9]|[12]\d|3[01])(?:st|nd|rd|th)\b)/gi,
    () => '',
  );
}

/** 和暦 as Gregorian years, and 「2025年の1月」 with the year and month side by side. */
function gregorianYears(src: Rewritten): Rewritten {
  const year = (match: RegExpMatchArray) => eraYear(match[1] ?? '', match[2] ?? '');
  let rewritten = rewrite(src, ERA_NUMERIC_DATE, (match) =>
    year(match) === null ? null : `${year(match)}年${Number(match[3])}月${Number(match[4])}日`,
  );
  rewritten = rewrite(rewritten, ERA_NUMERIC_MONTH, (match) =>
    year(match) === null || Number(match[3]) < 1 || Number(match[3]) > 12 ? null : `${year(match)}年${Number(match[3])}月`,
  );
  for (const era of [ERA_YEAR, ERA_ALONE])
    rewritten = rewrite(rewritten, era, (match) => (year(match) === null ? null : `${year(match)}年`));
  return rewrite(rewritten, /(\d{4}\s*年)\s*の\s*(?=\d{1,2}\s*月)/g, (match) => match[1] ?? null);
}

const alternatives = (words: Readonly<Record<string, number>>) => Object.keys(words).join('|');
const RELATIVE_YEAR_WORD = new RegExp(String.raw`(${alternatives(RELATIVE_YEAR)})(?:\s*の\s*(?=\d{1,2}\s*月))?`, 'g');
const RELATIVE_MONTH_WORD = new RegExp(String.raw`(${alternatives(RELATIVE_MONTH)})(?:(?:\s*の)?\s*(\d{1,2})\s*日)?`, 'g');
// 「来週の金曜日」, and a weekday said short (「来週の月〜金」: 月 for 月曜) where no kanji follows to make it another word.
const RELATIVE_WEEKDAY = new RegExp(
  String.raw`(${alternatives(RELATIVE_WEEK)})(?:\s*の)?\s*([${WEEKDAY_JA}])(?:曜日?|(?![\p{Script=Han}]))`,
  'gu',
);
const COUNTED_FROM_TODAY = new RegExp(String.raw`(?<![\d月])(\d+)\s*(${UNIT_JA})(?:\s*(?:ほど|くらい|ぐらい))?\s*(前|後)(?![半期後])`, 'g');

/** 「去年」「先月」「来週の金曜日」「一昨日」「3日前」 as the calendar dates they name. */
function relativeJapanese(src: Rewritten, today: Day): Rewritten {
  let rewritten = rewrite(src, RELATIVE_YEAR_WORD, (match) => `${today.y + (RELATIVE_YEAR[match[1] ?? ''] ?? 0)}年`);
  rewritten = rewrite(rewritten, RELATIVE_MONTH_WORD, (match) => {
    const month = shiftMonths(today, RELATIVE_MONTH[match[1] ?? ''] ?? 0);
    return match[2] ? `${month.y}年${month.m}月${Number(match[2])}日` : `${month.y}年${month.m}月`;
  });
  // (A span's reader puts the weekday that closes 「来週の月〜金」 on the first such day after its start.)
  rewritten = rewrite(rewritten, RELATIVE_WEEKDAY, (match) =>
    jaDay(weekdayInWeek(today, RELATIVE_WEEK[match[1] ?? ''] ?? 0, WEEKDAY_JA.indexOf(match[2] ?? ''))),
  );
  rewritten = rewrite(rewritten, RELATIVE_DAY_WORD, (match) => jaDay(shiftDays(today, RELATIVE_DAY[match[0]] ?? 0)));
  return rewrite(rewritten, COUNTED_FROM_TODAY, (match) =>
    countedFromToday(today, Number(match[1]) * (match[3] === '前' ? -1 : 1), match[2] ?? ''),
  );
}

/** A weekday (0 = Sunday) in the week `weeks` from this one; Japanese weeks start on Monday. */
function weekdayInWeek(today: Day, weeks: number, weekday: number): Day {
  const monday = shiftDays(today, -((weekdayOf(today) + 6) % 7));
  return shiftDays(monday, 7 * weeks + ((weekday + 6) % 7));
}

/** 「3日前」「2週間後」「2ヶ月前」「5年前」 at the precision they are said in. */
function countedFromToday(today: Day, amount: number, unit: string): string {
  if (unit === '年') return `${today.y + amount}年`;
  if (unit.endsWith('月')) {
    const month = shiftMonths(today, amount);
    return `${month.y}年${month.m}月`;
  }
  return jaDay(shiftDays(today, unit.startsWith('週') ? 7 * amount : amount));
}

// ---------------------------------------------------------------- what a reply mentions

/** One date a reply mentions, at the offsets where the respondent wrote it. */
export type DateMention = {
  start: number;
  end: number;
  text: string;
  year: number;
  month: number;
  day: number;
  known: { year: boolean; month: boolean; day: boolean; weekday: boolean };
  /** "last March", "next March": the respondent's own direction for a date without a year. */
  lean: 'past' | 'future' | null;
};

// Countries that write numeric dates month first (3/4/2025 is March 4th); elsewhere day first.
const MONTH_FIRST = new Set(['US', 'PH', 'FM', 'MH', 'PW', 'BZ', 'CA']);

function englishParser(country: string | null | undefined): chrono.Chrono {
  return !country || MONTH_FIRST.has(country) ? chrono.en.casual : chrono.en.GB;
}

/** chrono parsers in the order to trust them: the session language's first. */
export function chronoParsers(language: SessionLanguage, country?: string | null): chrono.Chrono[] {
  const en = englishParser(country);
  return language === 'ja' ? [chrono.ja.casual, en] : [en, chrono.ja.casual];
}

// "a few days ago", "several weeks", "some time", "the last couple of months": no day is named.
const VAGUE = /\b(?:few|several|couple|some|many|while|ages)\b/i;
const QUANTITY_AND_UNIT =
  /(?:(?<!\d)\d+(?:\.\d+)?|\b(?:an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|half an?))\s+(?:seconds?|minutes?|hours?|days?|weeks?|fortnights?|months?|years?|decades?)\b/i;

/**
 * Whether a chrono match names a point in time: "four weeks" and "the last 3
 * weeks" are lengths and "last week" has no day, while "two weeks ago", "in
 * 3 days", "the day after tomorrow" and "next month" are points.
 */
function namesAPoint(phrase: string): boolean {
  if (VAGUE.test(phrase) || /^(?:last|next|this|coming|past|previous)\s+week$/i.test(phrase)) return false;
  if (!QUANTITY_AND_UNIT.test(phrase)) return true;
  return /\b(?:ago|later|from now|hence)\b|^in\s/i.test(phrase);
}

// In "January 25" a day-first parser takes 25 for a year; a number that short after a month name is a day.
const MONTH_AND_SHORT_NUMBER = /^[A-Za-z]+\.?\s+(\d{1,2})$/;

// A year written next to a date in the same sentence: "May 3rd, um, 1990", 「平成2年生まれ、5月5日」.
const YEAR_AFTER = /^[^\d.!?。！？\n]{0,8}?((?:19|20)\d{2})(?!\d)/;
const YEAR_BEFORE = /(?<!\d)((?:19|20)\d{2})\s*年?[^\d.!?。！？\n]{0,8}$/;

/** Every date the reply mentions, in text order (overlapping readings resolved to the most complete). */
export function dateMentions(text: string, options: Reference & { language: SessionLanguage; country?: string | null }): DateMention[] {
  const rewritten = forChrono(text, options);
  const today = localToday(options);
  const found: DateMention[] = [];
  for (const parser of chronoParsers(options.language, options.country)) {
    for (const res of parser.parse(rewritten.text, chronoReference(options))) {
      const mention = fromChrono(res, rewritten, today);
      if (mention) found.push(mention);
    }
  }
  found.push(...monthMentions(rewritten));
  return mostComplete(withoutVerbs(text, found));
}

const WEEKDAY_NAME = /\b(?:mon|tue|wed|thu|fri|sat|sun)|曜|[月火水木金土日](?:曜)?$/i;
const WEEK_ONLY = /^(?!.*(?:\d|\bago\b|\bin\b|\bfrom\b))(?=.*\bweeks?\b)/i;

/** "I sat the exam", "I may have": a single lowercase word chrono took for a day or month, which compromise tags as a verb. */
function withoutVerbs(text: string, found: DateMention[]): DateMention[] {
  const suspect = found.filter((mention) => /^[a-z]+$/.test(mention.text));
  if (suspect.length === 0) return found;
  const verbs = (nlp(text).json({ offset: true }) as Array<{ terms: Array<{ offset?: { start: number }; tags?: string[] }> }>)
    .flatMap((sentence) => sentence.terms)
    .filter((term) => term.tags?.includes('Verb'))
    .map((term) => term.offset?.start);
  return found.filter((mention) => !suspect.includes(mention) || !verbs.includes(mention.start));
}

function fromChrono(res: chrono.ParsedResult, rewritten: Rewritten, today: Day): DateMention | null {
  const components = res.start;
  const known = {
    year: components.isCertain('year'),
    month: components.isCertain('month'),
    day: components.isCertain('day'),
    weekday: components.isCertain('weekday'),
  };
  if (!known.month && !known.day && !known.weekday) return null;
  const written = writtenDate(res);
  if (!written || insideNumber(rewritten.text, written.at, written.to)) return null;
  // "The week before last", "this week": a week names no day, whatever day chrono fills in.
  if (!known.weekday && WEEK_ONLY.test(rewritten.text.slice(written.at, written.to))) return null;
  // "A weekday", "weekends": a kind of day, not a day.
  if (known.weekday && !known.day && !WEEKDAY_NAME.test(rewritten.text.slice(written.at, written.to))) return null;
  let day = components.get('day') ?? 1;
  const short = MONTH_AND_SHORT_NUMBER.exec(rewritten.text.slice(written.at, written.to));
  if (short?.[1] && Number(short[1]) <= 31 && known.year && !known.day) {
    day = Number(short[1]);
    Object.assign(known, { year: false, day: true });
  }
  const year = statedYear(res, rewritten.text, [written.at, written.to], known, today);
  known.year = year !== null;
  const start = rewritten.start(written.at);
  const end = rewritten.end(written.to);
  return {
    start,
    end,
    text: rewritten.source.slice(start, end).trim(),
    year: year ?? components.get('year') ?? today.y,
    month: components.get('month') ?? 1,
    day,
    known,
    lean: leanBefore(rewritten.text.slice(0, written.at)),
  };
}

/** Where the date chrono found is written, without a leading "on"/"in" (except in "in 3 days"); null for a length. */
function writtenDate(res: chrono.ParsedResult): { at: number; to: number } | null {
  if (!namesAPoint(res.text.trim())) return null;
  const stripped = /^(?:(?:on|in|at)\s+)*/i.exec(res.text)?.[0].length ?? 0;
  const lead = namesAPoint(res.text.slice(stripped).trim()) ? stripped : 0;
  const written = res.text.slice(lead).trim();
  const at = res.index + lead + res.text.slice(lead).indexOf(written);
  return { at, to: at + written.length };
}

/**
 * The year the respondent gave for a date: a two-digit one in its century
 * (「90年5月3日」), the year closing its range ("12 May - 19 May 2025"), or
 * one written beside it ("May 3rd, um, 1990"); null when there is none.
 */
function statedYear(res: chrono.ParsedResult, text: string, [at, to]: Span, known: DateMention['known'], today: Day): number | null {
  const year = res.start.get('year') ?? 0;
  if (known.year) return year >= 100 ? year : year <= (today.y % 100) + 1 ? 2000 + year : 1900 + year;
  if (!known.month) return null;
  const endComponents = res.end;
  if (endComponents?.isCertain('year')) {
    const endYear = endComponents.get('year') ?? today.y;
    return (res.start.get('month') ?? 1) > (endComponents.get('month') ?? 1) ? endYear - 1 : endYear;
  }
  const near = YEAR_AFTER.exec(text.slice(to)) ?? YEAR_BEFORE.exec(text.slice(0, at));
  return near?.[1] ? Number(near[1]) : null;
}

function leanBefore(before: string): 'past' | 'future' | null {
  if (/\b(?:last|previous|past)\s+$/i.test(before)) return 'past';
  if (/\b(?:next|coming)\s+$/i.test(before)) return 'future';
  return null;
}

/** A match that starts or ends inside a longer number ("1/02" in "31/02/2025") is a fragment. */
function insideNumber(text: string, start: number, end: number): boolean {
  const before = text.slice(Math.max(0, start - 2), start);
  const after = text.slice(end, end + 2);
  return /\d$|\d[/.:-]$/.test(before) || /^\d|^[/.:-]\d/.test(after);
}

// chrono.ja reads 「2025年4月1日」 but not a month alone: 「2025年4月」「4月から」「1月末」.
// Also a year and month in digits: 「2023.3」「2023/03」.
const YEAR_MONTH_JA =
  /(?<!\d)(?:(\d{4})\s*年\s*)?(\d{1,2})\s*月(?!\s*\d{1,2}\s*日)(?!曜)|(?<![\d./-])((?:19|20)\d{2})[./](0?[1-9]|1[0-2])(?![\d./-])/g;

function monthMentions(rewritten: Rewritten): DateMention[] {
  const out: DateMention[] = [];
  for (const monthMatch of rewritten.text.matchAll(YEAR_MONTH_JA)) {
    const month = Number(monthMatch[2] ?? monthMatch[4]);
    if (month < 1 || month > 12) continue;
    const start = rewritten.start(monthMatch.index);
    const end = rewritten.end(monthMatch.index + monthMatch[0].length);
    const yearText = monthMatch[1] ?? monthMatch[3];
    const year = yearText ? Number(yearText) : 0;
    out.push({
      start,
      end,
      text: rewritten.source.slice(start, end).trim(),
      year,
      month,
      day: 1,
      known: { year: Boolean(yearText), month: true, day: false, weekday: false },
      lean: null,
    });
  }
  return out;
}

/** How much of a date a mention pins down: year, month, day (a weekday names a day). */
export function completeness(mention: DateMention): number {
  return Number(mention.known.year) + Number(mention.known.month) + Number(mention.known.day || mention.known.weekday);
}

/** Overlapping readings of the same words keep the most complete; the survivors in text order. */
function mostComplete(found: DateMention[]): DateMention[] {
  const kept: DateMention[] = [];
  const ranked = found
    .map((mention, order) => ({ mention, order }))
    .sort((a, b) => completeness(b.mention) - completeness(a.mention) || a.order - b.order);
  for (const { mention } of ranked) {
    if (!kept.some((other) => mention.start < other.end && other.start < mention.end)) kept.push(mention);
  }
  return kept.sort((a, b) => a.start - b.start);
}

/**
 * The candidates the respondent means, in text order: retracted ones
 * dropped, and those in background clauses only when nothing else is left.
 */
export function assertedGroup<T>(text: string, items: readonly T[], span: (candidate: T) => Span): T[] {
  const ordered = preferAsserted(text, items, span);
  const background = containment(backgroundSpans(text));
  const inBackground = (candidate: T) => background(...span(candidate));
  const first = ordered[0];
  return first === undefined ? [] : ordered.filter((candidate) => inBackground(candidate) === inBackground(first));
}

/** The asserted candidate with the highest score (the first on a tie). */
export function pickAsserted<T>(
  text: string,
  items: readonly T[],
  span: (candidate: T) => Span,
  score: (candidate: T) => number,
): T | undefined {
  const pool = assertedGroup(text, items, span);
  return pool.reduce<T | undefined>(
    (best, candidate) => (best === undefined || score(candidate) > score(best) ? candidate : best),
    undefined,
  );
}

// ---------------------------------------------------------------- direction

// Past-time grammar ("did", "ago", 始まった) fixes when a thing happened whatever it is, so it is read
// before the future keywords: "When did you start?" asks about the past although "start" usually looks ahead.
const PAST = new RegExp(
  [
    String.raw`\b(?:born|births?|birthdays?|dob|started|began|begun|noticed|happened|occurred|took place|did|ago|(?<!first and )last(?!\s+(?:day|date|night|week)s?\b)|previous(?:ly)?|since|accident|incident|injur(?:y|ed)|onset|diagnosed|first (?:noticed|felt|saw|experienced|appeared))\b`,
    '生年月日|誕生日|生まれ|発生|事故|発症|受傷|始まった|始まり|気づ|気付|起き|起こ[っり]|最後に|前回|以前|ました|でした|った日|した日',
  ].join('|'),
  'i',
);
const FUTURE = new RegExp(
  [
    String.raw`\b(?:start(?:s|ing)?|begin(?:s|ning)?|move[- ]?in|moving|pick[- ]?up|collect(?:ion|ing)?|arriv(?:e|al|ing)|appointments?|available|availability|visit|check[- ]?in|deliver(?:y|ed)?|return(?:ing)?|book(?:ing)?|reserv(?:e|ation)|preferred|desired|want|wish|would like|'d like|will|going to|plan(?:ned|ning)?|expected|due|deadline|next|upcoming|earliest|join(?:ing)?)\b`,
    '希望|予定|入居|開始|利用開始|入社|着任|来院|来店|予約|到着|受け?取り|引き?取り|引渡|納品|配達|お届け|締め?切り?|期限|可能|できる|したい|来週|来月|来年|今後|これから',
  ].join('|'),
  'i',
);

/**
 * Which way a date without a year lies from today, read from the words of a
 * fact (or of the reply itself): a past event (birth, accident, "when did it
 * start", 始まった) is the most recent such day; a plan (start, move-in,
 * pickup, appointment, 希望日, 予定) the next one; anything else is left to
 * chrono's nearest reading.
 */
export function dateDirection(texts: readonly string[]): DateDirection {
  const all = texts.join('\n');
  if (PAST.test(all)) return 'past';
  if (FUTURE.test(all)) return 'future';
  return 'any';
}

// ---------------------------------------------------------------- the date

// Numeric dates chrono drops when the day does not exist, so they can be named back to the respondent.
const NUMERIC_DATE = /(?<!\d)(\d{4})(?:[-/.](\d{1,2})[-/.](\d{1,2})|\s*年\s*(\d{1,2})\s*月\s*(\d{1,2})\s*日)(?!\d)/g;
const NUMERIC_DATE_YEAR_LAST = /(?<![\d/.-])(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})(?!\d)/g;

/**
 * A date as YYYY-MM-DD (YYYY-MM when only the month is known): the most
 * complete date the respondent asserts (not one they take back, a background
 * one only if nothing else), its year completed by `direction` when missing.
 * A birth date (`requireYear`) without a year is rejected as 'no_year'; a
 * numeric date that does not exist (2025-02-30) as 'invalid'.
 */
export function extractDate(text: string, options: DateOptions): Extraction {
  const mentions = dateMentions(text, options);
  // The most complete date wins (a day counts most: "2027年1月の…、1月9日" is the 9th), then one with its year, then one written in digits or a month's name over a
  // relative one ("the day after Halloween … So Sunday, November 1, 2026").
  const written = (mention: DateMention) => (/\d/.test(text.slice(mention.start, mention.end)) ? 1 : 0);
  const best = pickAsserted(
    text,
    mentions,
    (mention) => [mention.start, mention.end],
    (mention) =>
      4 * (completeness(mention) + Number(mention.known.day || mention.known.weekday)) + 2 * Number(mention.known.year) + written(mention),
  );
  if (!best) return impossibleDate(text, options) ?? NONE;
  if (options.requireYear && !best.known.year) return { value: null, rejected: best.text, problem: 'no_year' };
  // 'nearest' is for a date corrected near the one it replaces; 'any' lets the reply's own words decide.
  const direction =
    options.direction === 'nearest' ? 'any' : options.direction && options.direction !== 'any' ? options.direction : dateDirection([text]);
  return { value: dateValue(best, direction, options), rejected: null };
}

function impossibleDate(text: string, reference: Reference & { country?: string | null }): Extraction | null {
  const rewritten = forChrono(text, reference);
  const invalid = (match: RegExpMatchArray) => ({
    value: null,
    rejected: original(rewritten, match.index ?? 0, (match.index ?? 0) + match[0].length),
    problem: 'invalid' as const,
  });
  for (const match of rewritten.text.matchAll(NUMERIC_DATE)) {
    if (!isoDate(Number(match[1]), Number(match[2] ?? match[4]), Number(match[3] ?? match[5]))) return invalid(match);
  }
  const monthFirst = !reference.country || MONTH_FIRST.has(reference.country);
  for (const match of rewritten.text.matchAll(NUMERIC_DATE_YEAR_LAST)) {
    const [first, second] = [Number(match[1]), Number(match[2])];
    if (!isoDate(Number(match[3]), monthFirst ? first : second, monthFirst ? second : first)) return invalid(match);
  }
  return null;
}

/** The mention as YYYY-MM-DD or YYYY-MM, a missing year or a bare weekday placed by the direction. */
export function dateValue(mention: DateMention, direction: DateDirection, reference: Reference): string {
  const today = localToday(reference);
  const lean = mention.lean ?? direction;
  if (mention.known.day) {
    const year = mention.known.year ? mention.year : dayYear(mention.month, mention.day, lean, today);
    return isoDate(year, mention.month, mention.day) ?? `${year}-${pad(mention.month)}-${pad(mention.day)}`;
  }
  if (mention.known.weekday) return weekdayValue(mention, direction, today);
  const year = mention.known.year ? mention.year : monthYear(mention.month, lean, today);
  return `${year}-${pad(mention.month)}`;
}

/** The year of a month and day: the latest not after today, the soonest not before it, or the nearest. */
function dayYear(month: number, day: number, direction: DateDirection, today: Day): number {
  const exists = (year: number) => isoDate(year, month, day) !== null;
  const distance = (year: number) => dayNumber({ y: year, m: month, d: day }) - dayNumber(today);
  const years = [-4, -3, -2, -1, 0, 1, 2, 3, 4].map((offset) => today.y + offset).filter(exists);
  const fits = years.filter((year) => (direction === 'past' ? distance(year) <= 0 : direction === 'future' ? distance(year) >= 0 : true));
  return fits.reduce((a, b) => (Math.abs(distance(b)) < Math.abs(distance(a)) ? b : a), fits[0] ?? today.y);
}

function monthYear(month: number, direction: DateDirection, today: Day): number {
  if (direction === 'past') return month <= today.m ? today.y : today.y - 1;
  if (direction === 'future') return month >= today.m ? today.y : today.y + 1;
  const gap = month - today.m;
  return gap > 6 ? today.y - 1 : gap < -6 ? today.y + 1 : today.y;
}

// A weekday with its own modifier ("last Friday", 来週の金曜日 rewritten to a date) was placed by chrono.
const WEEKDAY_MODIFIER = /\b(?:last|next|this|coming|past|previous)\b/i;

function weekdayValue(mention: DateMention, direction: DateDirection, today: Day): string {
  const chronoDay = `${mention.year}-${pad(mention.month)}-${pad(mention.day)}`;
  if (direction === 'any' || WEEKDAY_MODIFIER.test(mention.text)) return chronoDay;
  const target = weekdayOf({ y: mention.year, m: mention.month, d: mention.day });
  const gap = (target - weekdayOf(today) + 7) % 7;
  const day = shiftDays(today, direction === 'future' ? gap : gap === 0 ? 0 : gap - 7);
  return `${day.y}-${pad(day.m)}-${pad(day.d)}`;
}

// "the 13th", 「16日」: a day of the month said without its month.
const LONE_DAY = /\b(?:the\s+)?([0-3]?\d)(?:st|nd|rd|th)\b|(?<![\d月/])([0-3]?\d)\s*日(?![間目])/gi;
// A weekday said with it ("Friday the 13th", 「16日の月曜」), as Intl names the English ones and 曜 marks the Japanese.
// (Sunday first, as Date.getUTCDay counts; "fri", "friday", "fridays".)
const WEEKDAY_NAMES_EN = Array.from({ length: 7 }, (_, i) =>
  new Intl.DateTimeFormat('en', { weekday: 'long', timeZone: 'UTC' }).format(new Date(Date.UTC(2024, 0, 7 + i))).toLowerCase(),
);
const WEEKDAYS_EN = WEEKDAY_NAMES_EN.map((name) => new RegExp(`\\b${name.slice(0, 3)}(?:${name.slice(3)})?s?\\b`));

function weekdaysSaid(text: string): number[] {
  const found = new Set<number>();
  const lower = text.toLowerCase();
  WEEKDAYS_EN.forEach((weekday, i) => {
    if (weekday.test(lower)) found.add(i);
  });
  for (const match of text.matchAll(/([日月火水木金土])曜/g)) found.add(WEEKDAY_JA.indexOf(match[1]!));
  return [...found];
}

// One word naming a weekday: "fri", "Friday", and the usual short forms with a letter or two more ("tues", "weds",
// "thurs"); 「金」「金曜」「金曜日」.
const WEEKDAY_WORD_EN = WEEKDAY_NAMES_EN.map((name) => new RegExp(`^${name.slice(0, 3)}(?:${name.slice(3)}|s|r|rs)?$`));
const WEEKDAY_WORD_JA = /^([日月火水木金土])(?:曜日?)?$/u;

/** The weekday (0 = Sunday) a single word names, or null. */
export function weekdayNamed(word: string): number | null {
  const ja = WEEKDAY_WORD_JA.exec(word);
  if (ja) return WEEKDAY_JA.indexOf(ja[1]!);
  const at = WEEKDAY_WORD_EN.findIndex((weekday) => weekday.test(word.toLowerCase()));
  return at >= 0 ? at : null;
}

// The weekday a span's end opens with: "Friday", "to fri", 「金曜まで」 (a kanji of a longer word is no weekday).
const OPENING_WEEKDAY = /^\s*(?:(?:the|on)\s+)?([a-z]+|[日月火水木金土](?:曜日?)?(?![\p{Script=Han}]))/iu;

/** The first day on or after `first` (YYYY-MM-DD) that is the weekday `rest` opens with ("… to Friday"), or null. */
export function weekdayOnOrAfter(first: string, rest: string): string | null {
  const word = OPENING_WEEKDAY.exec(rest)?.[1];
  const weekday = word === undefined ? null : weekdayNamed(word);
  if (weekday === null) return null;
  const [y, m, d] = first.split('-').map(Number) as [number, number, number];
  const start: Day = { y, m, d };
  const day = shiftDays(start, (weekday - weekdayOf(start) + 7) % 7);
  return isoDate(day.y, day.m, day.d);
}

/**
 * A day of the month said alone ("Friday the 13th", "the 16th", 「20日」): the first such day from today in the
 * direction the question points (the next one for a booking, the last one for something that happened), and, when a
 * weekday is said with it, the first such day that falls on that weekday within a year. The month was not said, so
 * the reading is one to confirm (certainty.ts). Null when no lone day, or several, are said.
 */
export function loneDayOfMonth(text: string, reference: Reference, direction: DateDirection): string | null {
  const days = [...text.matchAll(LONE_DAY)].map((match) => Number(match[1] ?? match[2]));
  if (new Set(days).size !== 1 || !(days[0]! >= 1 && days[0]! <= 31)) return null;
  const day = days[0]!;
  const weekdays = weekdaysSaid(text);
  if (weekdays.length > 1) return null;
  const today = localToday(reference);
  const step = direction === 'past' ? -1 : 1;
  for (let months = 0; months < 13; months++) {
    const month = shiftMonths(today, step * months);
    const iso = isoDate(month.y, month.m, day);
    if (iso === null) continue;
    const candidate = { y: month.y, m: month.m, d: day };
    const ahead = dayNumber(candidate) - dayNumber(today);
    if ((step > 0 && ahead < 0) || (step < 0 && ahead > 0)) continue;
    if (weekdays.length === 1 && weekdayOf(candidate) !== weekdays[0]) continue;
    return iso;
  }
  return null;
}
