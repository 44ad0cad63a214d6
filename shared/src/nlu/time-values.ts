import * as chrono from 'chrono-node';
import { findNumbers, parseKanji } from './numbers.js';
import type { SessionLanguage } from './text.js';
import type { Extraction } from './typed-values.js';

/**
 * Times, years, periods and durations as respondents write them, read with
 * chrono-node (English and Japanese) plus the forms chrono leaves out
 * (「2023年」, 「令和5年」, "from 2019 to 2021", 「3年間」, "half a year").
 */

const NONE: Extraction = { value: null, rejected: null };

export type TimeOptions = { language: SessionLanguage; now: Date; timezone?: string | null };

/** chrono's reference: the instant plus the session's UTC offset, so "next Friday" is the respondent's next Friday. */
export function chronoReference(o: TimeOptions): chrono.ParsingReference {
  const offset = o.timezone ? utcOffsetMinutes(o.timezone, o.now) : null;
  return offset === null ? { instant: o.now } : { instant: o.now, timezone: offset };
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
    const get = (t: string) => Number(parts.find((p) => p.type === t)?.value ?? 0);
    const local = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'));
    return Math.round((local - Math.floor(at.getTime() / 60000) * 60000) / 60000);
  } catch {
    return null;
  }
}

function parsers(language: SessionLanguage) {
  return language === 'ja' ? [chrono.ja, chrono.en] : [chrono.en, chrono.ja];
}

const PM_WORDS = /\b(?:pm|p\.m\.|in the (?:afternoon|evening)|at night|tonight)\b|午後|夜|夕方/i;
const AM_WORDS = /\b(?:am|a\.m\.|in the morning)\b|午前|朝/i;

/** A time of day as HH:MM (24-hour): "3pm", "15:30", 「午後3時」, 「10時半」, "around 7 in the evening". */
export function extractTime(text: string, o: TimeOptions): Extraction {
  for (const parser of parsers(o.language)) {
    for (const r of parser.parse(text, chronoReference(o))) {
      if (r.start.isCertain('hour')) return { value: hhmm(r.start.get('hour') ?? 0, r.start.get('minute') ?? 0), rejected: null };
    }
  }
  const clock = /(?<![\d.:/-])(\d{1,2})(?::(\d{2})|\s*時\s*(?:(\d{1,2})\s*分|(半))?)(?![\d/-])/.exec(text) ?? /\b(\d{1,2})\s*(?:o'?clock)\b/i.exec(text);
  if (clock) {
    let hour = Number(clock[1]);
    const minute = clock[2] ? Number(clock[2]) : clock[3] ? Number(clock[3]) : clock[4] ? 30 : 0;
    if (hour < 12 && PM_WORDS.test(text)) hour += 12;
    if (hour === 12 && AM_WORDS.test(text)) hour = 0;
    if (hour <= 24 && minute < 60) return { value: hhmm(hour % 24, minute), rejected: null };
    return { value: null, rejected: clock[0], problem: 'invalid' };
  }
  const bare = /\b(?:at|around|about|by)\s+(\d{1,2})\b(?![\d/.:-])/i.exec(text);
  if (bare) {
    let hour = Number(bare[1]);
    if (hour < 12 && PM_WORDS.test(text)) hour += 12;
    if (hour <= 23) return { value: hhmm(hour, 0), rejected: null };
  }
  return NONE;
}

function hhmm(h: number, m: number): string {
  return `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`;
}

// Japanese eras still in living memory, by the Gregorian year of their first year.
const ERAS: Readonly<Record<string, number>> = { 令和: 2019, 平成: 1989, 昭和: 1926, 大正: 1912 };
const ERA_YEAR = /(令和|平成|昭和|大正)\s*(元|\d{1,2}|[一二三四五六七八九十]+)\s*年/;
const FOUR_DIGIT_YEAR = /(?<![\d.,])(1[89]\d{2}|20\d{2}|2100)(?![\d])/;

/** A year as YYYY: "2023", 「2023年」, 「令和5年」, "last year". */
export function extractYear(text: string, o: TimeOptions): Extraction {
  const era = ERA_YEAR.exec(text);
  if (era?.[1] && era[2]) {
    const n = era[2] === '元' ? 1 : /\d/.test(era[2]) ? Number(era[2]) : parseKanji(era[2]);
    return { value: String((ERAS[era[1]] ?? 0) + n - 1), rejected: null };
  }
  const y = FOUR_DIGIT_YEAR.exec(text);
  if (y?.[1]) return { value: y[1], rejected: null };
  const relative = relativeYear(text, o.now);
  if (relative) return { value: relative, rejected: null };
  for (const parser of parsers(o.language)) {
    for (const r of parser.parse(text, chronoReference(o))) {
      if (r.start.isCertain('year')) return { value: String(r.start.get('year')), rejected: null };
    }
  }
  return NONE;
}

function relativeYear(text: string, now: Date): string | null {
  const year = now.getUTCFullYear();
  if (/\bthis year\b|今年|本年/i.test(text)) return String(year);
  if (/\blast year\b|去年|昨年/i.test(text)) return String(year - 1);
  if (/\bthe year before last\b|一昨年|おととし/i.test(text)) return String(year - 2);
  if (/\bnext year\b|来年/i.test(text)) return String(year + 1);
  return null;
}

const NUMBER_WORD = String.raw`\d+(?:\.\d+)?|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|several|a few|a couple of|half an?|one and a half`;
const DURATION_EN = new RegExp(
  String.raw`(?:(?:about|around|roughly|approximately|almost|nearly|over|more than|less than|under)\s+)?(?:${NUMBER_WORD})(?:\s*(?:-|to)\s*\d+)?\+?\s*(?:years?|yrs?|months?|mos?|weeks?|wks?|days?|hours?|hrs?|decades?)(?:\s+and\s+(?:${NUMBER_WORD})\s*(?:months?|weeks?|days?))?\b`,
  'i',
);
const DURATION_JA = /(?:約|およそ|だいたい|大体|ほぼ)?(?:\d+(?:\.\d+)?|[一二三四五六七八九十百]+|半|数)\s*(?:年半|年間|年|か月|ヶ月|ヵ月|カ月|ケ月|箇月|週間|日間|時間)(?:ほど|くらい|ぐらい|程度|以上|未満)?|半年|数年/;
const SINCE = /\bsince\s+(?:\d{4}|[a-z]+\s+\d{4}|last\s+\w+|\w+)\b|(?:\d{4}\s*年|令和\S{1,3}年|平成\S{1,3}年|\d{4})\s*(?:\d{1,2}\s*月)?\s*(?:から|以来)/i;
const RANGE =
  /(?:from\s+)?(?:[a-z]+\s+)?\d{4}\s*(?:-|–|—|~|〜|to|until|till|through)\s*(?:[a-z]+\s+)?(?:\d{4}|now|present|today)\b|\d{4}\s*年(?:\s*\d{1,2}\s*月)?\s*(?:から|〜|~|-)\s*(?:\d{4}\s*年)?(?:\s*\d{1,2}\s*月)?(?:まで)?|\d{4}\s*年(?:\s*\d{1,2}\s*月)?\s*(?:から|〜|~)\s*(?:現在|今)(?:まで)?/i;

/** A length of time as written: "3 years", "about six months", 「3年間」, 「半年」; a start ("since 2019") also tells how long. */
export function extractDuration(text: string, o: TimeOptions): Extraction {
  const m = DURATION_EN.exec(text) ?? DURATION_JA.exec(text) ?? SINCE.exec(text) ?? RANGE.exec(text);
  if (m) return { value: m[0].trim(), rejected: null };
  // A bare number to "how long" ("3", "twenty-five") is kept as said: the question gave the unit.
  const numbers = findNumbers(text);
  const only = numbers.length === 1 ? numbers[0] : undefined;
  if (only && !/\p{L}/u.test(text.replace(only.text, '').replace(/です|くらい|ぐらい|ほど|about|around|roughly/gi, ''))) return { value: only.value, rejected: null };
  void o;
  return NONE;
}

/**
 * When something happened or will happen, at any precision: a range
 * ("2019 to 2021", 「2019年から2021年まで」), a date or month, a year, a
 * duration, a relative year ("last year", 「昨年」). The value is the phrase as
 * written (a year alone as YYYY), so nothing the respondent said is made more
 * precise than it was.
 */
export function extractPeriod(text: string, o: TimeOptions): Extraction {
  const range = RANGE.exec(text) ?? SINCE.exec(text);
  if (range) return { value: range[0].trim(), rejected: null };
  for (const parser of parsers(o.language)) {
    for (const r of parser.parse(text, chronoReference(o))) {
      const s = r.start;
      if (s.isCertain('month') || s.isCertain('day') || (s.isCertain('year') && /\d/.test(r.text))) return { value: r.text.trim(), rejected: null };
    }
  }
  // chrono reads 「2025年4月1日」 but not a bare 「2025年4月」.
  const ym = /\d{4}\s*年\s*\d{1,2}\s*月/.exec(text);
  if (ym) return { value: ym[0], rejected: null };
  const year = extractYear(text, o);
  if (year.value) return year;
  return extractDuration(text, o);
}
