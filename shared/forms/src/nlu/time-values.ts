import nlp from 'compromise';
import {
  applyEdits,
  assertedGroup,
  chronoParsers,
  chronoReference,
  dateMentions,
  forChrono,
  kanjiDigits,
  localToday,
  original,
  pickAsserted,
  unchanged,
  type Edit,
  type Rewritten,
} from './date-values.js';
import { blankRetracted, containment, mergeSpans, retractedSpans, type Span } from './discourse.js';
import { findNumbers, numbersWithOffsets, type CompromiseMatch } from './numbers.js';
import { normalizeText, type SessionLanguage } from './text.js';
import type { Extraction } from './typed-values.js';

export { chronoReference, utcOffsetMinutes } from './date-values.js';

/**
 * Times of day, years, periods and durations as respondents write them.
 * chrono-node reads clock times and dates in English and Japanese; what it
 * leaves out is read here: day-part words away from the number (「夜8時」,
 * "Afternoons are best, say around 4"), spoken times ("quarter to 7"), 和暦
 * years, lengths of time in words ("sixteen years", 「1時間52分」) and the
 * many ways of saying when something happened.
 */

const NONE: Extraction = { value: null, rejected: null };

export type TimeOptions = { language: SessionLanguage; now: Date; timezone?: string | null };

/** Options for {@link extractDuration}: `record` when the fact asks for a time achieved (a race, a lap), so "1:52" is a length. */
export type DurationOptions = TimeOptions & { record?: boolean };

type Located = { start: number; end: number };
const spanOf = (mention: Located): Span => [mention.start, mention.end];

// ---------------------------------------------------------------- English number words

type CompromiseNumber = { text: string; offset?: { start: number; length: number }; number?: { num: number } };

/**
 * English number words as digits ("sixteen" → 16, "two and a half" → 2.5,
 * "five thirty" → "5 30"), offsets kept, so one digit pattern reads both and
 * the value can still be quoted as written.
 */
function englishDigits(input: Rewritten): Rewritten {
  if (!/[a-z]/i.test(input.text)) return input;
  // "eleven-thirty" is "eleven thirty": a hyphen between two words is read as a space (one reading of the text, not a
  // tagging per hyphenated word), so number words joined by one are an hour and its minutes.
  const src = applyEdits(
    input,
    [...input.text.matchAll(/(?<=[a-z])-(?=[a-z])/gi)].map((hyphen) => ({ start: hyphen.index, end: hyphen.index + 1, by: ' ' })),
  );
  const doc = nlp(src.text);
  const found: CompromiseNumber[] = numbersWithOffsets<CompromiseNumber & CompromiseMatch>(doc, doc.numbers().isCardinal());
  const edits: Edit[] = [];
  for (const wordNumber of found) {
    const num = wordNumber.number?.num;
    if (!wordNumber.offset || num === undefined || !isNumberWords(wordNumber.text, num)) continue;
    const start = wordNumber.offset.start;
    const end = start + wordNumber.offset.length;
    if (edits.some((edit) => start < edit.end)) continue;
    edits.push({ start, end, by: spokenDigits(src.text.slice(start, end), num) });
  }
  return applyEdits(src, edits);
}

// Only numbers said in words: "7ish" already has its digit, and compromise reads "half a" as 0.
function isNumberWords(text: string, num: number): boolean {
  return Number.isFinite(num) && !/\d/.test(text) && /[a-z]/i.test(text) && (num !== 0 || /zero/i.test(text));
}

// compromise reads "five thirty" as 530: small numbers said in a row without "hundred" are an hour and minutes.
function spokenDigits(words: string, num: number): string {
  // ("eleven-thirty" is said the same way, with a hyphen.)
  if (num < 100 || num >= 2400 || !/[\s-]/.test(words.trim()) || /hundred|thousand|million|\band\b/i.test(words)) return String(num);
  return `${Math.floor(num / 100)} ${String(num % 100).padStart(2, '0')}`;
}

// ---------------------------------------------------------------- times of day

type Clock = Located & {
  hour: number;
  minute: number;
  settled: boolean;
  bound: boolean;
  /** The other end, when the clock was read as the start of a range ("2 to 4 pm", 「9時〜17時」). */
  until?: { hour: number; minute: number; settled: boolean };
};

// Day parts, longest first so 深夜 is not read as 夜. Applied to an hour that has no am/pm of its own.
const DAY_PART =
  /(?<late>late at night|深夜|夜中|真夜中|未明)|(?<am>\bmornings?\b|午前|早朝|明け方|朝)|(?<pm>\bafternoons?\b|\bevenings?\b|午後|夕方|夕刻|夕)|(?<night>\bnights?\b|\btonight\b|今夜|今晩|夜|晩)|(?<day>\blunch(?:time)?\b|昼)/gi;
type DayPart = 'late' | 'am' | 'pm' | 'night' | 'day';

/** Which day part a DAY_PART match named: the name of its group. */
function dayPartOf(match: RegExpMatchArray): DayPart | undefined {
  return Object.entries(match.groups ?? {}).find(([, groupText]) => groupText !== undefined)?.[0] as DayPart | undefined;
}

function withDayPart(hour: number, part: DayPart): number {
  switch (part) {
    case 'am':
      return hour === 12 ? 0 : hour;
    case 'pm':
      return hour < 12 ? hour + 12 : hour;
    case 'night': // 夜8時 is 20:00, 夜12時 midnight, 夜2時 the small hours.
      return hour === 12 ? 0 : hour <= 4 ? hour : hour + 12;
    case 'late':
      return hour === 12 ? 0 : hour >= 9 ? hour + 12 : hour;
    case 'day': // 昼1時 is 13:00, 昼11時 still morning.
      return hour <= 6 ? hour + 12 : hour;
  }
}

// Times given as a limit ("after 6pm", 「5時以降」) are less of an answer than a point in time.
const BOUND_BEFORE =
  /\b(?:after|from|since|past|not before|no earlier than|later than|before|until|till|by|no later than)\s+(?:about\s+|around\s+)?$/i;
const BOUND_AFTER = /^\s*(?:以降|以後|過ぎ|すぎ|から|まで|以前|より|or (?:later|after)\b|onwards?\b)/i;
// A bare number followed by a unit is a quantity, not an hour: "at 5 years old", "about 3 people".
const QUANTITY_AFTER =
  /^\s*(?:%|years?|months?|weeks?|days?|hours?|minutes?|mins?|people|persons?|times|percent|km|kg|miles?|pounds?|dollars?|yen|歳|才|人|年|ヶ月|か月|日|回|分間|時間)/i;
const SPOKEN = /\b(half|quarter|(\d{1,2})(\s*min(?:ute)?s?)?)\s+(past|after|to|before|til)\s+(\d{1,2})\b/gi;
// British "half seven" is 7:30.
const HALF_HOUR = /\bhalf\s+(\d{1,2})\b(?!\s*(?:past|to|an?\b))/gi;
// An hour with no clock mark of its own: "after 7 in the evening", "around 8", "7ish".
// (The lookbehinds are tried at digits only, the `(?=\d)`: tried everywhere, they scanned a long run of spaces back
// from each of its positions.)
const BARE_HOUR =
  /(?=\d)(?<=\b(?:at|around|about|by|after|before|from|until|till|say|maybe|approximately|roughly)\s+)(\d{1,2})(?![\d:.]\d)\b|\b(\d{1,2})\s*-?ish\b/gi;
// "five thirty", "at 7.30", "7.30 in the evening": hour and minutes without a colon.
const SAID_TOGETHER =
  /(?=\d)(?<=\b(?:at|around|about|by|say|maybe|approximately|from|after|before|until)\s+)(\d{1,2})[\s.]([0-5]\d)\b(?![.,]\d)|\b(\d{1,2})[\s.]([0-5]\d)(?=\s*(?:in the|at night|tonight))/gi;
const NAMED = /\b(noon|midday|midnight)\b|(正午)|(真夜中)/gi;
const CLOCK_LIKE = /(?<![\d.:/-])(\d{1,2})(?::(\d{2})|\s*時\s*(?:(\d{1,2})\s*分)?)(?![\d/-])/;

/**
 * A time of day as HH:MM (24-hour): "3pm", "15:30", 「午後3時」, 「夜8時くらい」,
 * "quarter to 7", "around 5:30 in the evening". Retracted times are dropped,
 * background ones used only when nothing else is given, and a later, more
 * precise time refines an earlier one ("after 6pm, say 6:30" → 18:30).
 */
export function extractTime(text: string, options: TimeOptions): Extraction {
  const clocks = clockMentions(text, options);
  const pool = assertedGroup(text, clocks, spanOf);
  const best = pool.reduce<Clock | undefined>(
    (chosen, clock) => (chosen === undefined || refines(clock, chosen) ? clock : chosen),
    undefined,
  );
  if (best) return { value: hhmm(best.hour % 24, best.minute), rejected: null };
  const bad = CLOCK_LIKE.exec(text);
  if (bad && (Number(bad[1]) > 24 || Number(bad[2] ?? bad[3] ?? 0) >= 60))
    return { value: null, rejected: bad[0].trim(), problem: 'invalid' };
  return NONE;
}

// What joins the two ends of a window: "2 to 4", "from 9 until 5", "between 1 and 3", "13-15", "5pm, till like 7",
// 「9時から17時まで」, 「6時〜9時」.
// ("after 5, before 7", "from 9 but no later than 11": the latest time said after the earliest closes the window too.)
const JOIN = String.raw`(?:\s*,)?\s*(?:to|till|until|til|through|thru|and|(?:but\s+)?(?:before|by|no later than)|-|–|—|~|〜|～|から)\s*(?:like\s+|about\s+|around\s+|maybe\s+)?`;
const RANGE_JOIN = new RegExp(String.raw`^${JOIN}$`, 'i');
// An end said as a bare number beside the other end's time: "from 2 to 4 pm", "between 1 and 3pm", 「13-17時」.
const BARE_END_AFTER = new RegExp(
  String.raw`^${JOIN}(\d{1,2})(?::([0-5]\d))?(?!\d|\s*(?:%|years?|months?|days?|people|persons?|人|歳|才|日|分間|時間))`,
  'i',
);
const BARE_START_BEFORE = new RegExp(String.raw`(?<![\d:])(\d{1,2})(?::([0-5]\d))?(?:\s*時)?${JOIN}$`, 'i');
const FROM_BEFORE = /\b(?:from|starting(?: at)?|between)\s+(?:about\s+|around\s+|roughly\s+)?$/i;
const UNTIL_BEFORE = /\b(?:until|till|til|to|and)\s+(?:about\s+|around\s+|roughly\s+)?$|まで$/i;
const FRAMED_GAP = 60;
/** How far from a clock its bare other end is looked for ("between 1 and " is 14 characters). */
const BARE_END_REACH = 32;
// A half of the day said: "2pm", "in the afternoon", 「午後」, "noon" (am and pm only after a number: not "I am").
export const SAID_DAY_PART =
  /\d\s*(?:am|pm|a\.m\.?|p\.m\.?)(?![\p{L}])|(?<![\p{L}])(?:morning|afternoon|evening|night|tonight|noon|midday|midnight|lunch(?:time)?)(?![\p{L}])|午前|午後|朝|昼|夕方|夕|夜|晩|正午|深夜/iu;
/** DAY_PART for one test at a time (DAY_PART itself is global, for matchAll). */
const ONE_DAY_PART = new RegExp(DAY_PART.source, 'i');

type End = Pick<Clock, 'hour' | 'minute' | 'settled'>;

/**
 * A window of two times as `HH:MM/HH:MM` (24-hour): "any time from 2 to 4 in the afternoon",
 * "13:00-15:00", 「午前9時から午後5時まで」, 「6時〜9時」. The ends are the first two times the reply
 * joins as a range; an end said without am/pm that would fall before the start is read in the
 * afternoon ("from 11 to 2" is 11:00–14:00). One time alone is not a window: it is refused with
 * what was heard, so the interviewer asks for both ends instead of storing half of the answer.
 * `text` is normalised as reviewAnswer normalises every answer (normalizeText: NFKC, one dash).
 */
export function extractTimeRange(text: string, options: TimeOptions): Extraction {
  const clocks = clockMentions(text, options);
  const ranges: Array<[End, End, number]> = [];
  for (const [i, clock] of clocks.entries()) {
    if (clock.until) ranges.push([clock, clock.until, clock.end]);
    // 「午後2時~4時」 read as one time: its other end is inside it.
    const written = text.slice(clock.start, clock.end);
    const inner = /(?:から|〜|~|-)/.exec(written);
    const innerEnd = inner ? BARE_END_AFTER.exec(written.slice(inner.index)) : null;
    if (innerEnd) ranges.push([clock, bareEnd(innerEnd), clock.end]);
    const next = clocks[i + 1];
    if (next && RANGE_JOIN.test(text.slice(clock.end, next.start))) ranges.push([clock, next, next.end]);
    // "from about nine in the morning so we can set up, until eight at night": "from" and "until" frame a window
    // around words about it.
    if (
      next &&
      next.start - clock.end <= FRAMED_GAP &&
      FROM_BEFORE.test(text.slice(Math.max(0, clock.start - 14), clock.start)) &&
      UNTIL_BEFORE.test(text.slice(Math.max(clock.end, next.start - 14), next.start))
    )
      ranges.push([clock, next, next.end]);
    // A bare end lies within a few characters of its clock: each is looked for there, not in the whole reply.
    const after = BARE_END_AFTER.exec(text.slice(clock.end, clock.end + BARE_END_REACH));
    if (after) ranges.push([clock, bareEnd(after), clock.end + after[0].length]);
    const before = BARE_START_BEFORE.exec(text.slice(Math.max(0, clock.start - BARE_END_REACH), clock.start));
    if (before) ranges.push([bareEnd(before), clock, clock.end]);
  }
  // 「18-21」, "9 to 5": a reply that is nothing but two bare hours joined, to a question that asks for a window.
  const bare = BARE_HOURS.exec(normalizeText(text).trim());
  if (ranges.length === 0 && bare && Number(bare[1]) <= 24 && Number(bare[2]) <= 24)
    ranges.push([endAt(Number(bare[1]), 0), endAt(Number(bare[2]), 0), text.length]);
  for (const [from, to, endsAt] of ranges) {
    const window = inDayPart(from, to, dayPartAfter(text, endsAt));
    if (window)
      return {
        value: `${hhmm(Math.floor(window[0] / 60) % 24, window[0] % 60)}/${hhmm(Math.floor(window[1] / 60) % 24, window[1] % 60)}`,
        rejected: null,
      };
  }
  const one = clocks[0];
  return one ? { value: null, rejected: text.slice(one.start, one.end).trim(), problem: 'invalid' } : NONE;
}

const BARE_HOURS = /^(\d{1,2})\s*(?:-|–|〜|~|to|から)\s*(\d{1,2})(?:\s*(?:です|で|まで(?:です)?))?[。.!！]?$/i;

function bareEnd(match: RegExpExecArray): End {
  return endAt(Number(match[1]), Number(match[2] ?? 0));
}

/** An end said as a bare number: on the 24-hour clock only past 12 (or at 0). */
function endAt(hour: number, minute: number): End {
  return { hour, minute, settled: hour > 12 || hour === 0 };
}

/** The day part said right after a window ("from 2 to 4 in the afternoon"), if any. */
function dayPartAfter(text: string, at: number): DayPart | undefined {
  const match = /^\s*(?:in the\s+)?(\S+(?:\s+\S+)?)/.exec(text.slice(at, at + 24));
  if (!match) return undefined;
  const part = ONE_DAY_PART.exec(match[1]!);
  return part ? dayPartOf(part) : undefined;
}

/**
 * Start and end in minutes, am/pm settled: a day part said after the window applies to both ends;
 * an unsettled start takes the end's afternoon ("from 2 to 4 pm"); an end before the start is
 * after noon ("from 11 to 2"); a window wholly of small hours with no am/pm is read in the
 * afternoon ("half past one until four"). Null when the ends do not make a window.
 */
function inDayPart(from: End, to: End, part: DayPart | undefined): [number, number] | null {
  let start = (part && !from.settled ? withDayPart(from.hour, part) : from.hour) * 60 + from.minute;
  let end = (part && !to.settled ? withDayPart(to.hour, part) : to.hour) * 60 + to.minute;
  const settledStart = from.settled || part !== undefined;
  const settledEnd = to.settled || part !== undefined;
  if (!settledStart && end >= 12 * 60 && start < 12 * 60 && start + 12 * 60 < end) start += 12 * 60;
  if (end <= start && !settledEnd && end < 12 * 60 && end + 12 * 60 > start) end += 12 * 60;
  if (!settledStart && !settledEnd && end < 7 * 60 + 1) {
    start += 12 * 60;
    end += 12 * 60;
  }
  return end > start ? [start, end] : null;
}

function refines(later: Clock, current: Clock): boolean {
  if (current.bound && !later.bound) return true;
  const minutes = (clock: Clock) => clock.hour * 60 + clock.minute;
  return later.bound === current.bound && current.minute === 0 && later.minute !== 0 && Math.abs(minutes(later) - minutes(current)) <= 60;
}

function hhmm(hour: number, minute: number): string {
  return `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`;
}

/** Every clock time in the reply, in text order, with day parts and inherited am/pm applied. */
function clockMentions(text: string, options: TimeOptions): Clock[] {
  const rewritten = englishDigits(kanjiDigits(unchanged(text)));
  const found: Clock[] = [];
  const chronoRead = chronoClocks(rewritten, options);
  // A spoken reading inside a longer one that settles am/pm gives way to it ("after 1 pm" is 13:00, not "1").
  const spoken = spokenClocks(rewritten).filter(
    (clock) =>
      !chronoRead.some(
        (chronoClock) =>
          chronoClock.settled &&
          chronoClock.start <= clock.start &&
          chronoClock.end >= clock.end &&
          chronoClock.end - chronoClock.start > clock.end - clock.start,
      ),
  );
  for (const clock of [...spoken, ...chronoRead]) {
    if (!found.some((taken) => clock.start < taken.end && taken.start < clock.end)) found.push(clock);
  }
  const clocks = found.sort((a, b) => a.start - b.start).map((clock) => (clock.settled ? clock : withNearestDayPart(text, clock)));
  return inheritMeridiem(clocks);
}

function located(rewritten: Rewritten, at: number, length: number): Located {
  return { start: rewritten.start(at), end: rewritten.end(at + length) };
}

function isBound(rewritten: Rewritten, at: number, length: number): boolean {
  return BOUND_BEFORE.test(rewritten.text.slice(0, at)) || BOUND_AFTER.test(rewritten.text.slice(at + length));
}

function chronoClocks(rewritten: Rewritten, options: TimeOptions): Clock[] {
  const out: Clock[] = [];
  for (const parser of chronoParsers(options.language)) {
    for (const res of parser.parse(rewritten.text, chronoReference(options))) {
      const components = res.start;
      const written = res.text.trim();
      if (!components.isCertain('hour') || /\b(?:minutes?|hours?|mins?|hrs?)\b|時間|分間/i.test(written)) continue;
      const at = res.index + res.text.indexOf(written);
      const bare = /^(?:\D*\s)?\d{1,2}$/.test(written);
      if (bare && QUANTITY_AFTER.test(rewritten.text.slice(at + written.length))) continue;
      const hour = components.get('hour') ?? 0;
      // A 24-hour reading ("19:30", "09:00", 「0時」) or a named hour settles am/pm as firmly as "pm" does.
      const settled = components.isCertain('meridiem') || hour > 12 || hour === 0 || /\b0\d:\d{2}|noon|midday/i.test(written);
      const end = res.end?.isCertain('hour') ? res.end : undefined;
      const endHour = end?.get('hour') ?? 0;
      out.push({
        ...located(rewritten, at, written.length),
        hour,
        minute: components.get('minute') ?? 0,
        settled,
        bound: isBound(rewritten, at, written.length),
        ...(end && {
          until: { hour: endHour, minute: end.get('minute') ?? 0, settled: end.isCertain('meridiem') || endHour > 12 || endHour === 0 },
        }),
      });
    }
  }
  return out;
}

/** Spoken times chrono leaves out: "half past 5", "quarter to 7", "ten past four", "five thirty", 正午. */
function spokenClocks(rewritten: Rewritten): Clock[] {
  const out: Clock[] = [];
  const push = (match: RegExpMatchArray, hour: number, minute: number, settled: boolean) => {
    if (hour > 24 || minute >= 60) return;
    const at = match.index ?? 0;
    out.push({ ...located(rewritten, at, match[0].length), hour, minute, settled, bound: isBound(rewritten, at, match[0].length) });
  };
  for (const match of rewritten.text.matchAll(SPOKEN)) {
    const word = match[1]?.toLowerCase();
    // "9 to 5" is a range; minutes before "to"/"past" are said in words ("ten to six") or named ("20 minutes past").
    if (match[2] && !match[3] && !/[a-z]/i.test(original(rewritten, match.index ?? 0, (match.index ?? 0) + match[2].length))) continue;
    const minutes = word === 'half' ? 30 : word === 'quarter' ? 15 : Number(match[2]);
    const hour = Number(match[5]);
    const before = /^(?:to|before|til)$/i.test(match[4] ?? '');
    push(match, before ? (hour + 23) % 24 : hour, before ? 60 - minutes : minutes, false);
  }
  for (const match of rewritten.text.matchAll(HALF_HOUR)) push(match, Number(match[1]), 30, false);
  for (const match of rewritten.text.matchAll(SAID_TOGETHER))
    push(match, Number(match[1] ?? match[3]), Number(match[2] ?? match[4]), false);
  for (const match of rewritten.text.matchAll(BARE_HOUR)) {
    if (!QUANTITY_AFTER.test(rewritten.text.slice((match.index ?? 0) + match[0].length)))
      push(match, Number(match[1] ?? match[2]), 0, false);
  }
  for (const match of rewritten.text.matchAll(NAMED)) push(match, /midnight/i.test(match[0]) || match[3] ? 0 : 12, 0, true);
  return out;
}

/** The clock with the day part nearest to it in its sentence applied ("Afternoons are best, say around 4" → 16:00). */
function withNearestDayPart(text: string, clock: Clock): Clock {
  if (clock.hour > 12) return clock;
  const [from, to] = sentenceAround(text, clock.start);
  let nearest: { part: DayPart; gap: number } | null = null;
  for (const partMatch of text.slice(from, to).matchAll(DAY_PART)) {
    const start = from + partMatch.index;
    const end = start + partMatch[0].length;
    const gap = end <= clock.start ? clock.start - end : start >= clock.end ? start - clock.end : 0;
    const part = dayPartOf(partMatch);
    if (part && (!nearest || gap < nearest.gap)) nearest = { part, gap };
  }
  return nearest ? { ...clock, hour: withDayPart(clock.hour, nearest.part), settled: true } : clock;
}

// A full stop ends a sentence unless it sits in a number ("7.30").
const SENTENCE_END = /[!?。！？\n]|\.(?!\d)/g;

function sentenceAround(text: string, at: number): [number, number] {
  const last = [...text.slice(0, at).matchAll(SENTENCE_END)].at(-1);
  const next = [...text.slice(at).matchAll(SENTENCE_END)][0];
  return [last ? last.index + 1 : 0, next ? at + next.index : text.length];
}

/** "after 6pm, say 6:30": an hour without am/pm after a pm time, and not before it, is pm too. */
function inheritMeridiem(clocks: Clock[]): Clock[] {
  const out: Clock[] = [];
  for (const clock of clocks) {
    const pm = [...out].reverse().find((earlier) => earlier.settled && earlier.hour >= 12);
    out.push(
      !clock.settled && pm && clock.hour < 12 && clock.hour + 12 >= pm.hour ? { ...clock, hour: clock.hour + 12, settled: true } : clock,
    );
  }
  return out;
}

// ---------------------------------------------------------------- years

type YearMention = Located & { year: number };

// A four-digit number is a year unless it counts something: "2000 yen", "$1999", 「2000円」.
const YEAR_DIGITS = /(?<![\d.,$£€¥#])((?:1[89]|20)\d{2})(?!\d|,\d|'?s\b|\s*年代)(?:\s*年度?)?/g;
const COUNTED_AFTER =
  /^\s*(?:[%円万]|ドル|人|件|個|回|名|社|km|kg|yen|dollars?|pounds?|euros?|people|persons?|words?|steps?|calories|kcal|items?|units?|points?|pieces?|m\b|g\b)/i;
const RELATIVE_YEAR_EN: ReadonlyArray<[RegExp, number]> = [
  [/\bthe year before last\b/gi, -2],
  [/\b(?:this|the current) year\b/gi, 0],
  [/\blast year\b/gi, -1],
  [/\bnext year\b/gi, 1],
];
const YEARS_AGO_EN = /\b(\d+|an?)\s+years?\s+ago\b/gi;
const SHORT_YEAR = /(?<![\w'])'(\d{2})\b/g;

/** Every year the reply names, in text order: 2023, 「令和5年」, 「平成30年度」, "last year", 「昨年」, "'98", "3 years ago". */
function yearMentions(text: string, options: TimeOptions): YearMention[] {
  const today = localToday(options);
  const found: YearMention[] = [];
  // forChrono has turned 和暦 and relative Japanese years into Gregorian ones.
  const gregorian = forChrono(text, options);
  for (const yearMatch of gregorian.text.matchAll(YEAR_DIGITS)) {
    if (COUNTED_AFTER.test(gregorian.text.slice(yearMatch.index + yearMatch[0].length))) continue;
    found.push({ ...located(gregorian, yearMatch.index, yearMatch[0].length), year: Number(yearMatch[1]) });
  }
  for (const [re, shift] of RELATIVE_YEAR_EN) {
    for (const relativeMatch of text.matchAll(re))
      found.push({ start: relativeMatch.index, end: relativeMatch.index + relativeMatch[0].length, year: today.y + shift });
  }
  const inDigits = englishDigits(unchanged(text));
  for (const agoMatch of inDigits.text.matchAll(YEARS_AGO_EN)) {
    const yearsAgo = /^an?$/i.test(agoMatch[1] ?? '') ? 1 : Number(agoMatch[1]);
    found.push({ ...located(inDigits, agoMatch.index, agoMatch[0].length), year: today.y - yearsAgo });
  }
  for (const shortMatch of text.matchAll(SHORT_YEAR)) {
    const yy = Number(shortMatch[1]);
    found.push({
      start: shortMatch.index,
      end: shortMatch.index + shortMatch[0].length,
      year: yy <= (today.y % 100) + 1 ? 2000 + yy : 1900 + yy,
    });
  }
  return withoutOverlaps(found);
}

function withoutOverlaps<T extends Located>(found: T[]): T[] {
  const kept: T[] = [];
  for (const mention of found) if (!kept.some((other) => mention.start < other.end && other.start < mention.end)) kept.push(mention);
  return kept.sort((a, b) => a.start - b.start);
}

/** A year as YYYY: "2023", 「2023年」, 「令和5年」, 「平成30年度」, "last year", 「昨年」; the one the respondent asserts. */
export function extractYear(text: string, options: TimeOptions): Extraction {
  // A year written out ("Last year, 2024") outranks one worked out from a relative word.
  const written = (mention: Located) => (/\d/.test(text.slice(mention.start, mention.end)) ? 1 : 0);
  const best = pickAsserted(text, yearMentions(text, options), spanOf, written);
  return best ? { value: String(best.year), rejected: null } : NONE;
}

// ---------------------------------------------------------------- durations

type Length = Located & { rank: number };
// Lengths said with a unit are the answer; a clock-style record next; a range or start only implies one.
const RANK = { unit: 3, clock: 2, range: 1, since: 0 } as const;

const NUM_EN = String.raw`(?:\d+(?:\.\d+)?(?:\s*(?:-|to|or)\s*\d+(?:\.\d+)?)?\+?|an?|half an?|a couple(?: of)?|couple of|a few|few|several|a dozen|dozens of|many)`;
const UNIT_EN = String.raw`(?:years?|yrs?|months?|mos?|weeks?|wks?|days?|hours?|hrs?|minutes?|mins?|seconds?|secs?|decades?|fortnights?)`;
const PART_EN = String.raw`${NUM_EN}[\s-]*${UNIT_EN}\b(?:\s+and\s+a\s+half)?`;
const QUALIFIER_EN = String.raw`(?:(?:about|around|roughly|approximately|approx\.?|almost|nearly|just over|just under|over|more than|less than|under|at least|at most|up to|close to)\s+)?`;
const DURATION_EN = new RegExp(
  String.raw`\b${QUALIFIER_EN}${PART_EN}(?:(?:\s*,\s*|\s+and\s+|\s+)${PART_EN})*(?:\s+ago\b)?(?![\s-]+old\b)`,
  'gi',
);
const COMPACT_EN = /\b\d+\s?h(?:\s?\d+\s?m(?:in)?)?(?:\s?\d+\s?s)?\b|\b\d+\s?m(?:in)?\s?\d+\s?s\b/gi;

// Japanese lengths: 「3年間」「半年」「1時間52分」「55分30秒」. A number after 月 or 時 is a date or a clock
// (「1月15日」「10時30分」), one before 前/後/目/生 is a point or an ordinal, and a 和暦 year is a year.
const NUM_JA = String.raw`(?<![\d月時]|\d\.|令和|平成|昭和|大正)(?:\d{1,3}(?:\.\d+)?|数|十数|半(?=[年日]|[かヶカヵケ箇]月))`;
const UNIT_JA = String.raw`(?:年半|年間|年|[かヶカヵケ箇]月半|[かヶカヵケ箇]月間?|週間|日間|日|時間半|時間|分間?|秒)(?![前後目生度])`;
const DURATION_JA = new RegExp(
  String.raw`(?:約|およそ|だいたい|大体|ほぼ)?${NUM_JA}\s*${UNIT_JA}(?:(?:\s*と)?\s*${NUM_JA}\s*${UNIT_JA})*(?:ほど|くらい|ぐらい|程度|以上|未満|弱|強|近く|ちょっと|ちょい|余り|あまり)?`,
  'g',
);
const CLOCK_LENGTH = /(?<![\d:])(\d{1,3}):(\d{2})(?::(\d{2}))?(?![\d:])/g;

const MONTH_EN = String.raw`(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?`;
const YEAR = String.raw`(?:(?:${MONTH_EN}\s+)?(?:19|20)\d{2})`;
const YEAR_RANGE = new RegExp(
  [
    String.raw`\bbetween\s+${YEAR}\s+and\s+${YEAR}\b`,
    String.raw`\b(?:from\s+)?${YEAR}\s*(?:-|~|〜|to|until|till|through)\s*(?:${YEAR}|\d{2}|now|present|today|the present)\b`,
    String.raw`\d{4}\s*年(?:\s*\d{1,2}\s*月)?\s*(?:から|〜|~|-)\s*(?:\d{4}\s*年(?:\s*\d{1,2}\s*月)?|\d{1,2}\s*月|現在|今)(?:\s*まで)?`,
  ].join('|'),
  'gi',
);
const SINCE = new RegExp(
  [
    String.raw`\bsince\s+(?:(?:early|late|mid)[\s-]+)?(?:${YEAR}|last\s+\w+|${MONTH_EN}(?=[\s,.]|$)|yesterday|childhood|birth)`,
    String.raw`(?:\d{4}\s*年\s*)?\d{1,2}\s*月(?:\s*\d{1,2}\s*日|末|初め|上旬|中旬|下旬)?(?:(?:\s*の)?\s*(?:朝|昼|夜|夕方|午前|午後))?(?:\s*(?:ごろ|頃|ころ))?\s*(?:から|以来)`,
    String.raw`\d{4}\s*年(?:\s*(?:ごろ|頃|ころ))?\s*(?:から|以来)`,
  ].join('|'),
  'gi',
);

/** Every length of time in the reply (as written), with how directly it answers "how long". */
function lengthMentions(text: string, options: DurationOptions): Length[] {
  const found: Length[] = [];
  const add = (rewritten: Rewritten, re: RegExp, rank: number, keep: (match: RegExpMatchArray) => boolean = () => true) => {
    for (const match of rewritten.text.matchAll(re))
      if (keep(match)) found.push({ ...located(rewritten, match.index ?? 0, match[0].length), rank });
  };
  const words = englishDigits(kanjiDigits(unchanged(text)));
  add(words, DURATION_EN, RANK.unit, (match) => !/\sago$/i.test(match[0]));
  add(words, COMPACT_EN, RANK.unit);
  add(words, DURATION_JA, RANK.unit);
  add(words, CLOCK_LENGTH, RANK.clock, (match) => match[3] !== undefined || Number(match[1]) >= 24 || Boolean(options.record));
  const dated = forChrono(text, options);
  add(dated, YEAR_RANGE, RANK.range);
  add(dated, SINCE, RANK.since);
  add(words, DURATION_EN, RANK.since, (match) => /\sago$/i.test(match[0]));
  return withoutOverlaps(found.sort((a, b) => b.end - b.start - (a.end - a.start)));
}

// Words that may surround a bare number given as a length ("about 3", 「3くらいです」).
const BARE_FILLER = /です|くらい|ぐらい|ほど|about|around|roughly/gi;

/**
 * A length of time as written: "Sixteen years", "about six months", 「3年間」,
 * 「半年」, 「1時間52分」, "1:52:30"; a range ("2015-2017") or a start ("since
 * 2019", 「3日前から」) also tells how long. A bare number is kept when it is
 * the whole reply: the question gave the unit.
 */
export function extractDuration(text: string, options: DurationOptions): Extraction {
  const best = pickAsserted(text, lengthMentions(text, options), spanOf, (mention) => mention.rank);
  if (best) return { value: text.slice(best.start, best.end).trim(), rejected: null };
  const numbers = findNumbers(text);
  const only = numbers.length === 1 ? numbers[0] : undefined;
  if (only && !/\p{L}/u.test(text.replace(only.text, '').replace(BARE_FILLER, ''))) return { value: only.value, rejected: null };
  return NONE;
}

// A fact about a result timed on a clock: a race, a lap, a personal best.
const RECORD =
  /\b(?:time|record|finish(?:ing)?|lap|race|marathon|personal best|pb|pace)\b|タイム|記録|自己ベスト|ベスト|完走|マラソン|ラップ/i;

/** Whether a fact asks for a time achieved, so "1:52" in the answer is a length rather than a time of day. */
export function asksForRecord(texts: readonly string[]): boolean {
  return texts.some((text) => RECORD.test(text));
}

// ---------------------------------------------------------------- periods

// English seasons need a modifier, a year or a preposition: "fall" and "spring" are also verbs and nouns.
const SEASON_EN = /\b(?:(?:last|this|next|early|late|mid)[\s-]+)?(?:spring|summer|autumn|fall|winter)(?:\s+(?:of\s+)?(?:19|20)\d{2})?\b/gi;
const SEASON_CONTEXT = /\b(?:in|during|that|over|by|since|until|from|through)\s+(?:the\s+)?$/i;
const SEASON_JA =
  /(?:(?:\d{4}\s*年|去年|昨年|今年|来年|一昨年|おととし)(?:\s*の)?\s*)?(?:春|夏|秋|冬)(?:休み)?(?=\s*(?:頃|ごろ|から|まで|に|先|の(?:終わり|初め|はじめ)|[、。,.]|$))/g;
// Decades: "the 90s", "the late 1990s", 「90年代」; "my 20s" is an age.
const DECADE =
  /\b(?:the\s+(?:(?:early|mid|late)[\s-]+)?(?:(?:19|20)?\d0'?s)|(?:19|20)\d0'?s|'\d0s)\b|(?:19|20)?\d0\s*年代(?:前半|後半|初め|半ば)?/gi;
// Also days counted from the one in question: "the same day", "the next day", 「当日」「翌日」「次の日」.
const RELATIVE_SPAN =
  /\b(?:last|this|next|past)\s+(?:week(?:end)?|month|year)\b|\b(?:the\s+)?(?:same|next|following|previous)\s+(?:day|morning|evening|week)\b|\bthe day (?:after|before)\b|\bovernight\b|先々週|先週|今週|来週|再来週|週末|当日|同日|即日|翌日|翌朝|翌週|翌月|前日|次の日|明くる日/gi;

// Qualifiers that belong to a time expression: "about", "early", "since", 「ごろ」「末」「から」.
const BEFORE_QUALIFIER =
  /(?:\b(?:about|around|approximately|roughly|circa|since|from|until|till|before|after|by|early|mid|late|the end of|the beginning of|the start of|the middle of|end of|beginning of|start of|the last|the past|over the last|over the past|for the last|for the past)[\s-]+)+$|(?:約|およそ|だいたい|大体)\s*$/i;
const AFTER_QUALIFIER =
  /^(?:\s*(?:ago|later|or so|-?ish|onwards?)\b)+|^(?:(?:\s*の)?\s*(?:朝|昼|夜|夕方|午前|午後|晩))?(?:\s*(?:ごろ|頃|ころ|末|初め|初旬|上旬|中旬|下旬|半ば|前半|後半|以降|以前|前後|くらい|ぐらい|ほど|から|まで|より))+/i;
// What joins two expressions into one: a range ("2008 to 2010", 「1月から3月」) or 「去年の春」.
const JOINER = /^\s*(?:-|~|〜|to|until|till|through|and|から|より|の)\s*$/i;

/**
 * When something happened or will happen, at any precision: every time
 * expression in the reply (dates, ranges, years, months, seasons, lengths,
 * relative expressions such as 「3日前から」 or "two weeks ago"), each as
 * written with its qualifiers, joined with ", " in text order. Nothing is
 * normalised: the respondent's words are the value.
 */
export function extractPeriod(text: string, options: TimeOptions): Extraction {
  const dates = dateMentions(text, options);
  const spans = [
    ...dates.map(spanOf),
    ...yearMentions(text, options).map(spanOf),
    ...lengthMentions(text, options).map(spanOf),
    ...otherMentions(
      text,
      dates.some((date) => date.known.month),
    ).map(spanOf),
  ];
  const retracted = containment(retractedSpans(text));
  const kept = spans.filter(([start, end]) => !retracted(start, end));
  // 「翌日返却」「当日返却」: a Japanese time word heading a compound keeps the compound.
  const compound = ([start, end]: Span): Span => [
    start,
    end + (/^[\p{Script=Han}\p{Script=Katakana}ー]+/u.exec(text.slice(end))?.[0].length ?? 0),
  ];
  const phrases = joined(
    text,
    kept.map((span) => compound(withQualifiers(text, span))),
  );
  if (phrases.length === 0) return NONE;
  return { value: phrases.map(([start, end]) => text.slice(start, end).trim()).join(', '), rejected: null };
}

// A day of the month on its own ("the 24th", "on the 3rd", 「24日」) once a date has set the month: "from the 20th of
// September to the 24th".
const DAY_ALONE = /\b(?:the\s+)?(?:[1-9]|[12]\d|3[01])(?:st|nd|rd|th)\b|(?<![\d月])(?:[1-9]|[12]\d|3[01])日(?!間)/gi;

function otherMentions(text: string, monthKnown: boolean): Located[] {
  const out: Located[] = [];
  if (monthKnown)
    for (const dayMatch of text.matchAll(DAY_ALONE)) out.push({ start: dayMatch.index, end: dayMatch.index + dayMatch[0].length });
  for (const seasonMatch of text.matchAll(SEASON_EN)) {
    const qualified = /\d|^(?:last|this|next|early|late|mid)/i.test(seasonMatch[0]);
    if (qualified || SEASON_CONTEXT.test(text.slice(0, seasonMatch.index)))
      out.push({ start: seasonMatch.index, end: seasonMatch.index + seasonMatch[0].length });
  }
  for (const re of [SEASON_JA, RELATIVE_SPAN, DECADE])
    for (const match of text.matchAll(re)) out.push({ start: match.index, end: match.index + match[0].length });
  return out;
}

function withQualifiers(text: string, [start, end]: Span): Span {
  const before = BEFORE_QUALIFIER.exec(text.slice(0, start));
  const after = AFTER_QUALIFIER.exec(text.slice(end));
  return [before ? start - before[0].length : start, after ? end + after[0].length : end];
}

/** Overlapping spans, and spans joined by a range word, become one phrase. */
function joined(text: string, spans: Span[]): Span[] {
  return mergeSpans(spans, (from, to) => JOINER.test(text.slice(from, to)));
}

type Slot = { option: string; from: number; to: number };

/**
 * The options a reply picks when every option is a span of the clock (「9時〜12時」, "1:00-3:00 pm"): the span it
 * names ("３時から５時" in the afternoon → 15時〜17時), the span a time it names falls in, or the spans a part of the
 * day covers (「午前の枠で」 → 9時〜12時; "afternoon" may leave two). Empty when the options are not clock spans.
 */
export function timeSlotPicks(reply: string, options: readonly string[], language: SessionLanguage): string[] {
  // Options without a digit are no clock spans: most choice replies leave here, before any clock parsing.
  if (options.length < 2 || !options.every((option) => /\d/.test(option))) return [];
  const timeOptions: TimeOptions = { language, now: new Date(0) };
  const slots: Slot[] = [];
  for (const option of options) {
    const [start, end, ...rest] = clockMentions(apart(option), timeOptions);
    if (!start || !end || rest.length > 0) return [];
    const [from, to] = [minutesOf(start), minutesOf(end)];
    if (from >= to) return [];
    slots.push({ option, from, to });
  }
  const told = assertedGroup(reply, clockMentions(apart(reply), timeOptions), spanOf).map(minutesOf);
  // An hour said without its half of the day (「３時から５時」) is read in the half where a slot holds it.
  const fits = (minute: number, slot: Slot) => minute >= slot.from && minute < slot.to;
  const read = (minute: number) =>
    minute < 720 && !slots.some((slot) => fits(minute, slot) || slot.from === minute) ? minute + 720 : minute;
  if (told.length >= 2) {
    const [from, to] = [read(told[0]!), read(told[1]!)];
    const exact = slots.filter((slot) => slot.from === from && slot.to === to);
    if (exact.length > 0) return exact.map((slot) => slot.option);
    return slots.filter((slot) => from >= slot.from && to <= slot.to).map((slot) => slot.option);
  }
  if (told.length === 1) {
    const toldMinute = read(told[0]!);
    const starting = slots.filter((slot) => slot.from === toldMinute);
    return (starting.length > 0 ? starting : slots.filter((slot) => fits(toldMinute, slot))).map((slot) => slot.option);
  }
  const part = [...blankRetracted(reply).matchAll(DAY_PART)].map(dayPartOf).at(-1);
  if (part === 'am') return slots.filter((slot) => slot.to <= 13 * 60).map((slot) => slot.option);
  if (part === 'pm' || part === 'day')
    return slots.filter((slot) => slot.from >= 12 * 60 && slot.from < 18 * 60).map((slot) => slot.option);
  if (part === 'night' || part === 'late') return slots.filter((slot) => slot.from >= 17 * 60).map((slot) => slot.option);
  return [];
}

const MERIDIEM = /(?<![\p{L}.])(?:(a)|(p))\.?\s?m\.?(?![\p{L}])/iu;

/**
 * Options named by parts of the day ("Morning", "Afternoon"; 「午前の部」「午後の部」), picked by the half of the day the
 * reply gives without naming the part: a bare "am" or "p.m.", or one clock time that settles it ("10am", 「14時」).
 * Empty unless exactly one option names the morning and one the afternoon or evening.
 */
export function meridiemPicks(reply: string, options: readonly string[], language: SessionLanguage): string[] {
  const parts = options.map((option) => {
    const match = ONE_DAY_PART.exec(option);
    return match ? dayPartOf(match) : undefined;
  });
  const morning = options.filter((_, i) => parts[i] === 'am');
  const later = options.filter((_, i) => parts[i] === 'pm');
  if (morning.length !== 1 || later.length !== 1 || ONE_DAY_PART.test(reply)) return [];
  const said = MERIDIEM.exec(reply);
  if (said) return said[1] ? morning : later;
  const clocks = clockMentions(reply, { language, now: new Date(0) }).filter((clock) => clock.settled);
  if (clocks.length !== 1) return [];
  return clocks[0]!.hour < 12 ? morning : later;
}

// The two ends of a span said as one ("9時〜12時", "1:00-3:00", "3 to 5"): chrono reads such a span as its start only.
// (Each stretch of spaces is read once: the lookbehind ends at the digit or mark, not in the spaces after it, and the
// lookahead starts after all of them; `\d\s*(?:…|\s*…)?` and `\s*(?=…\s*\d)` tried every split of a long run.)
const SPAN_BETWEEN =
  /(?<=\d(?:\s*(?:時|:\d\d|[ap]\.?m\.?))?)\s*(?:〜|～|~|–|—|-|から|\bto\b|\btill\b|\buntil\b)\s*(?=(?:午前|午後)\s*\d|\d)/gi;

/** The text with a span's ends set apart, same length so offsets still point into the original. */
function apart(text: string): string {
  return text.replace(SPAN_BETWEEN, (between) => (between.length >= 2 ? `, ${' '.repeat(between.length - 2)}` : ','));
}

function minutesOf(clock: Pick<Clock, 'hour' | 'minute'>): number {
  return (clock.hour % 24) * 60 + clock.minute;
}
