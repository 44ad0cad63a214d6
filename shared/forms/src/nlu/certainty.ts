import type { Derivation } from '@convo/contract';
import { dateMentions } from './date-values.js';
import { SAID_DAY_PART } from './time-values.js';
import type { FactType } from './fact-type.js';
import { hasJapanese, normalizeText, type SessionLanguage } from './text.js';

/**
 * How sure a stored value is (docs/api.md#certainty). The reviewer reads an
 * answer; this module asks, of the value it read, how much of it the
 * respondent actually said. It is the same question for every provider: the
 * review tool asks it of the offline rules' value and of a model's value alike,
 * so a model that guesses is caught by the same rule as the rules.
 *
 * The rule is by class of reading, not by example:
 * - a value the respondent wrote (verbatim, or picked out of a longer reply) is certain;
 * - a value rewritten in a canonical form is certain when every part of it was said (a time's half of the day, a
 *   date's day and month, an option's own words);
 * - a value that filled in a part nobody said (a relative day, am or pm, the month of "the 9th", a polarity read
 *   through a negation, an option named loosely), one reading among several (two dates, a day-month order that
 *   could go both ways), or one that left out a bracketed part of a name, is not certain: it is confirmed.
 * A certain value is acknowledged in the next message; an uncertain one is asked about before it is stored.
 */

export type Reading = { derivation: Derivation; certain: boolean };

export type ReadingInput = {
  /** The field's typed kinds; a field of several facts, or only free text, is read as text. */
  kind: FactType;
  options: readonly string[];
  /** The stored value, as the reviewer produced it. */
  value: string;
  /** The respondent's answers the value was read from. */
  answers: readonly string[];
  language: SessionLanguage;
  now?: Date;
  timezone?: string | null;
  country?: string | null;
};

const ONLY = /\b(?:only|just|one day|a single day)\b|だけ|のみ|一日|1日間|１日間/i;

const CERTAIN = (derivation: Derivation): Reading => ({ derivation, certain: true });
const UNSURE = (derivation: Derivation): Reading => ({ derivation, certain: false });

/** Folded for comparison: NFKC, lower case, one space, the wave dashes and tildes as one. */
export function foldValue(text: string): string {
  return normalizeText(text)
    .toLowerCase()
    .replace(/[〜～~]/g, '~');
}

export function assessReading(input: ReadingInput): Reading {
  const value = input.value.trim();
  const said = foldValue(input.answers.join('\n'));
  const folded = foldValue(value);
  switch (input.kind) {
    case 'text':
      return CERTAIN(said === folded ? 'verbatim' : said.includes(folded) ? 'extracted' : 'normalised');
    case 'choice':
      return optionReading(input.options, value, said);
    case 'yes_no':
      return polarReading(input.options, said);
    case 'time':
      return timeReading([value], said);
    case 'time_range':
      return timeReading(value.split('/'), said);
    case 'date':
      return dateReading(value, said, input);
    case 'date_range': {
      const ends = value.split('/');
      // One day said where a span is asked is a span of one day only when they say so ("only", 「だけ」).
      if (ends.length === 2 && ends[0] === ends[1] && !ONLY.test(said)) return UNSURE('inferred');
      const readings = ends.map((end) => dateReading(end, said, input, false));
      return readings.find((reading) => !reading.certain) ?? CERTAIN('normalised');
    }
    case 'datetime': {
      const [day = '', clock = ''] = value.split('T');
      const date = dateReading(day, said, input);
      return date.certain ? timeReading([clock], said) : date;
    }
    case 'year':
      return yearReading(value, said);
    case 'name':
      return nameReading(value, said);
    case 'number':
    case 'duration':
    case 'period':
    case 'email':
    case 'phone':
    case 'url':
    case 'postal_code':
      return CERTAIN(said.includes(folded) ? (said === folded ? 'verbatim' : 'extracted') : 'normalised');
  }
}

/** An option named as the form writes it (or the whole reply is one option's own words) is exact; else loose. */
function optionReading(options: readonly string[], value: string, said: string): Reading {
  const option = foldValue(value);
  if (said.includes(option)) return CERTAIN('option_exact');
  // A reply that is the option's text with its decoration left off ("Vegetarian" for "Vegetarian (no meat)").
  const reply = said.replace(/[\s\p{P}]+/gu, ' ').trim();
  const named = option.replace(/[\s\p{P}]+/gu, ' ').trim();
  const others = options.map(foldValue).filter((candidate) => candidate !== option);
  if (reply.length >= 2 && named.startsWith(reply) && !others.some((other) => other.startsWith(reply))) return CERTAIN('option_exact');
  return UNSURE('option_loose');
}

// The words that open a plain yes or no, in either language: the answer said outright.
const POLAR_OPENING =
  /^\W*(?:yes|yeah|yep|yup|sure|of course|certainly|absolutely|definitely|no|nope|nah|はい|ええ|うん|いいえ|いえ|ううん)(?![\p{L}])/iu;
// Negation, as each language marks it: a reply that holds one and does not open with its answer is read through it.
const NEGATION_EN = /\b(?:not|no|never|nothing|none|nobody|neither|nor|without)\b|n't\b/i;
const NEGATION_JA = /な(?:い|く|かっ|し)|ません|ず(?:に)?(?![\p{Script=Han}])|無(?:い|し)?/u;

/** A yes/no read from a reply that neither opens with its answer nor names an option, through a negation, is inferred. */
function polarReading(options: readonly string[], said: string): Reading {
  if (POLAR_OPENING.test(said)) return CERTAIN('normalised');
  if (options.some((option) => option.trim().length >= 2 && said.includes(foldValue(option)))) return CERTAIN('option_exact');
  const negated = hasJapanese(said) ? NEGATION_JA.test(said) : NEGATION_EN.test(said);
  return negated ? UNSURE('inferred') : CERTAIN('normalised');
}

/**
 * Each clock of the value said unmistakably: an hour past 12 (which also puts a range's other end on the 24-hour
 * clock), a leading zero (09:00), noon, or a half of the day named anywhere in the reply ("2 to 4 in the afternoon"
 * names it once for both). Otherwise am or pm was chosen for the respondent.
 */
function timeReading(clocks: readonly string[], said: string): Reading {
  if (SAID_DAY_PART.test(said)) return CERTAIN('normalised');
  const hours = clocks.map((clock) => Number(clock.slice(0, 2)));
  if (hours.some((hour) => !Number.isInteger(hour))) return UNSURE('inferred');
  const twentyFour = hours.some((hour) => hour > 12 && saysNumber(said, hour));
  for (const hour of hours) {
    if (twentyFour || hour === 12 || new RegExp(`(?<!\\d)0${hour}\\s*[:時h]`, 'i').test(said)) continue;
    if (hour > 12 && saysNumber(said, hour)) continue;
    return UNSURE('inferred');
  }
  return CERTAIN('normalised');
}

const MONTH_NAMES = monthNames();

/** The month names of English as Intl writes them (long and short), for telling "3 May" from "the 3rd". */
function monthNames(): string[][] {
  const long = new Intl.DateTimeFormat('en', { month: 'long', timeZone: 'UTC' });
  const short = new Intl.DateTimeFormat('en', { month: 'short', timeZone: 'UTC' });
  return Array.from({ length: 12 }, (_, m) => {
    const at = new Date(Date.UTC(2000, m, 1));
    return [long.format(at).toLowerCase(), short.format(at).toLowerCase()];
  });
}

function saysNumber(said: string, n: number): boolean {
  return new RegExp(`(?<!\\d)0?${n}(?!\\d)`).test(said);
}

// A date written in numbers: 2026/5/3, 3.5.2026, 5-3.
const NUMERIC_DATE = /(\d{1,4})\s*[/.-]\s*(\d{1,2})(?:\s*[/.-]\s*(\d{1,4}))?/g;

function saysMonth(said: string, month: number): boolean {
  const names = MONTH_NAMES[month - 1] ?? [];
  if (names.some((name) => new RegExp(`\\b${name}(?![a-z])`, 'i').test(said))) return true;
  if (new RegExp(`(?<!\\d)0?${month}\\s*月`).test(said)) return true;
  return [...said.matchAll(NUMERIC_DATE)].some((match) => match.slice(1).some((part) => part !== undefined && Number(part) === month));
}

// 3/4 or 03.04: a day and a month either of which could be the other.
const NUMERIC_DAY_MONTH = /(?<![\d/.-])(0?[1-9]|1[0-2])\s*[/.]\s*(0?[1-9]|1[0-2])(?![\d])/g;

/**
 * A date is certain when its day and month were said (the year may be the nearest one, which the acknowledgement
 * shows). A day with no month ("the 9th"), a day with no number ("tomorrow", "next Friday"), two different dates in
 * one reply, or a numeric day/month that reads both ways is not.
 */
function dateReading(value: string, said: string, input: ReadingInput, single = true): Reading {
  const [y, m, d] = value.split('-').map(Number);
  if (!y) return UNSURE('inferred');
  if (m === undefined || Number.isNaN(m)) return saysNumber(said, y) ? CERTAIN('normalised') : UNSURE('inferred');
  if (single) {
    const mentions = dateMentions(said, {
      now: input.now ?? new Date(),
      timezone: input.timezone ?? null,
      language: input.language,
      country: input.country ?? null,
    }).filter((mention) => mention.known.day);
    const days = new Set(mentions.map((mention) => `${mention.month}-${mention.day}`));
    if (days.size >= 2) return UNSURE('conflicting');
    for (const [, a, b] of said.matchAll(NUMERIC_DAY_MONTH)) if (a !== b && !/\d{3,4}\s*[/.]/.test(said)) return UNSURE('conflicting');
  }
  if (d === undefined || Number.isNaN(d)) return saysMonth(said, m) ? CERTAIN('normalised') : UNSURE('inferred');
  if (!saysNumber(said, d) || !saysMonth(said, m)) return UNSURE('inferred');
  return CERTAIN('normalised');
}

// The eras of Japanese dates: a year said as 令和5年, or abbreviated as R5 or H30, is said (not the "s 12" of "grades 12").
const ERA_YEAR = /(?:令和|平成|昭和|大正|明治)\s*(?:\d{1,2}|元)\s*年?|(?<![\p{L}\p{N}])[rhs]\.?\s?\d{1,2}(?![\p{L}\p{N}])/iu;

function yearReading(value: string, said: string): Reading {
  if (said.includes(value) || /'\d{2}\b/.test(said) || ERA_YEAR.test(said)) return CERTAIN('normalised');
  return UNSURE('inferred');
}

// A bracketed part of a reply: a reading, a nickname, a former name.
const BRACKETED = /[(（]([^()（）]{1,40})[)）]/gu;

/** A name whose reply holds a bracketed part the name left out (「佐藤 美咲（みさき）」) is partial. */
function nameReading(value: string, said: string): Reading {
  const name = foldValue(value);
  for (const [, inner = ''] of said.matchAll(BRACKETED))
    if (/\p{L}/u.test(inner) && !name.includes(foldValue(inner))) return UNSURE('partial');
  return CERTAIN(said.includes(name) ? 'extracted' : 'normalised');
}
