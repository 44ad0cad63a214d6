import type { Expected, ExpectedStatus, Kind } from './data.js';

/**
 * How a recorded value is judged against the clerk's canonical value, per
 * answer kind (eval/forms/FORMAT.md). Each comparator is lenient only about
 * presentation (case, width, separators), never about the value itself.
 */

/** NFKC folds full-width digits and letters, which Japanese respondents type. */
export const nfkc = (s: string): string => s.normalize('NFKC');
const fold = (s: string): string => nfkc(s).toLowerCase().replace(/\s+/g, ' ').trim();

const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function sameEmail(expected: string, stored: string): boolean {
  return nfkc(stored).trim().toLowerCase() === expected.trim().toLowerCase();
}

/** Both sides as '+' and digits: the stored value must already be international (E.164). */
export function samePhone(expected: string, stored: string): boolean {
  const canon = (s: string) => `+${nfkc(s).replace(/\D/g, '')}`;
  return canon(stored) === canon(expected);
}

/** The stored value contains the date, not as part of a longer date (2023-04 is not 2023-04-15). */
export function sameDate(expected: string, stored: string): boolean {
  return new RegExp(`(?<!\\d)${escapeRe(expected.trim())}(?!-?\\d)`).test(nfkc(stored));
}

/** The first H:MM / HH:MM in the stored value, zero-padded. */
export function sameTime(expected: string, stored: string): boolean {
  const pad = (text: string) => {
    const match = /(\d{1,2}):(\d{2})/.exec(nfkc(text));
    return match ? `${match[1]!.padStart(2, '0')}:${match[2]}` : null;
  };
  const expectedTime = pad(expected);
  return expectedTime !== null && pad(stored) === expectedTime;
}

/** Every H:MM / HH:MM of a text, zero-padded, in order. */
function timesIn(text: string): string[] {
  return [...nfkc(text).matchAll(/(?<!\d)(\d{1,2}):(\d{2})(?!\d)/g)].map((m) => `${m[1]!.padStart(2, '0')}:${m[2]}`);
}

/** Every YYYY-MM-DD of a text, in order. */
function datesIn(text: string): string[] {
  return [...nfkc(text).matchAll(/(?<!\d)\d{4}-\d{2}-\d{2}(?!\d)/g)].map((m) => m[0]);
}

/** Both values hold exactly `count` pieces (times, dates), the same in the same order: one end of a range is wrong. */
function samePieces(pieces: (text: string) => string[], count: number, expected: string, stored: string): boolean {
  const want = pieces(expected);
  const got = pieces(stored);
  return want.length === count && got.length === count && want.every((piece, i) => got[i] === piece);
}

/** `HH:MM/HH:MM`: those two times, start first. */
export const sameTimeRange = (expected: string, stored: string): boolean => samePieces(timesIn, 2, expected, stored);

/** `YYYY-MM-DD/YYYY-MM-DD`: those two dates, start first. */
export const sameDateRange = (expected: string, stored: string): boolean => samePieces(datesIn, 2, expected, stored);

/** `YYYY-MM-DDTHH:MM`: that one day and that one time (a day or a time alone is wrong). */
export function sameDateTime(expected: string, stored: string): boolean {
  return samePieces(datesIn, 1, expected, stored) && samePieces(timesIn, 1, expected, stored);
}

export function sameYear(expected: string, stored: string): boolean {
  return new RegExp(`(?<!\\d)${escapeRe(expected.trim())}(?!\\d)`).test(nfkc(stored));
}

const MAGNITUDES: Readonly<Record<string, number>> = { 千: 1e3, 万: 1e4, 億: 1e8, k: 1e3 };

/** The numbers of a text, thousands separators removed and a written magnitude applied (「5万」 is 50000, "12k" 12000). */
function numbersIn(text: string): number[] {
  return [
    ...nfkc(text)
      .replace(/(?<=\d),(?=\d)/g, '')
      .matchAll(/-?\d+(?:\.\d+)?(?:\s*([千万億]|k(?![a-z])))?/gi),
  ].map((m) => Number(m[0].replace(/[^\d.-]/g, '')) * (m[1] ? (MAGNITUDES[m[1].toLowerCase()] ?? 1) : 1));
}

/**
 * The expected number is the stored value's first number; a span the writer wrote as two numbers ("5万 + 8万") is
 * the stored span (`50000/80000`), both ends.
 */
export function sameNumber(expected: string, stored: string): boolean {
  const want = numbersIn(expected);
  const got = numbersIn(stored);
  if (want.length === 0 || got.length === 0) return false;
  if (want.length >= 2) return want.length === got.length && want.every((n, i) => got[i] === n);
  return got[0] === want[0];
}

export function sameChoice(expected: string, stored: string): boolean {
  return fold(stored) === fold(expected);
}

/** Words that mean yes or no as a clerk would record them; the canonical form is English in both languages. */
const YES = new Set(['yes', 'y', 'true', 'はい']);
const NO = new Set(['no', 'n', 'false', 'いいえ']);

// A form's own option for a yes/no pair, by its polarity: 「利用しない」「不要」「なし」 are no, 「利用する」「要」「あり」 yes.
const NO_OPTION = /^(?:不要|不可|無し?|なし|.{1,10}(?:しない|ない|不要))$|^not\s/u;
const YES_OPTION = /^(?:要|必要|可|有り?|あり|.{1,10}(?:する|ある|いる|希望))$/u;

export function yesNo(text: string): 'yes' | 'no' | null {
  const word = fold(text).replace(/(?<![.!。！、,])[.!。！、,]+$/u, '');
  if (YES.has(word)) return 'yes';
  if (NO.has(word)) return 'no';
  if (NO_OPTION.test(word)) return 'no';
  if (YES_OPTION.test(word)) return 'yes';
  return null;
}

export function sameYesNo(expected: string, stored: string): boolean {
  const expectedAnswer = yesNo(expected);
  return expectedAnswer !== null && yesNo(stored) === expectedAnswer;
}

export function samePostalCode(expected: string, stored: string): boolean {
  const canon = (s: string) =>
    nfkc(s)
      .replace(/[^A-Za-z0-9]/g, '')
      .toUpperCase();
  return canon(stored) === canon(expected);
}

/** Protocol, `www.` and a trailing slash do not matter; the host is case-insensitive, the path is not. */
export function canonUrl(url: string): string {
  const bare = nfkc(url)
    .trim()
    .replace(/^[a-z][a-z0-9+.-]*:\/\//i, '')
    .replace(/^www\./i, '')
    .replace(/(?<!\/)\/+$/, '');
  const slash = bare.search(/[/?#]/);
  return slash < 0 ? bare.toLowerCase() : bare.slice(0, slash).toLowerCase() + bare.slice(slash);
}

export function sameUrl(expected: string, stored: string): boolean {
  return canonUrl(stored) === canonUrl(expected);
}

export function sameName(expected: string, stored: string): boolean {
  const canon = (s: string) => nfkc(s).toLowerCase().replace(/\s+/g, '');
  return canon(stored) === canon(expected);
}

/** Every piece occurs in the stored text (NFKC, case-insensitive, whitespace collapsed). */
export function containsAll(pieces: readonly string[], stored: string): boolean {
  const hay = fold(stored);
  if (pieces.every((p) => hay.includes(fold(p)))) return true;
  return datesContained(pieces, stored) || amountsContained(pieces, stored);
}

/**
 * Amounts kept as written ("5万 + 8万", "15万") match the same amounts stored in digits (`50000/80000`, `150000`):
 * each piece is one number, with its magnitude, and the stored value holds exactly those numbers, in that order.
 */
function amountsContained(pieces: readonly string[], stored: string): boolean {
  const amount = /^-?\d+(?:[.,]\d+)*(?:[千万億]|k)?(?:円|ドル|\$)?$/i;
  if (!pieces.every((piece) => amount.test(nfkc(piece).replace(/\s+/g, '')))) return false;
  const want = pieces.flatMap(numbersIn);
  const got = numbersIn(stored);
  return want.length === got.length && want.every((n, i) => got[i] === n);
}

const MONTHS = Array.from({ length: 12 }, (_, m) =>
  new Intl.DateTimeFormat('en', { month: 'long', timeZone: 'UTC' }).format(new Date(Date.UTC(2000, m, 1))).toLowerCase(),
);

/**
 * A span kept as written ("May 14 + May 20", 「2027年1月 + 2027年3月」) matches the same days stored in the documented
 * range shape (`2024-05-14/2024-05-20`): each piece names a day (a month name or 月, a day, a year if said; a bare day
 * takes the month of the piece before it) and the stored value holds those days, in that order.
 */
function datesContained(pieces: readonly string[], stored: string): boolean {
  const isoDays = [...nfkc(stored).matchAll(/(\d{4})-(\d{2})-(\d{2})/g)].map((m) => ({
    y: Number(m[1]),
    m: Number(m[2]),
    d: Number(m[3]),
  }));
  if (isoDays.length === 0 || isoDays.length !== pieces.length) return false;
  let month: number | null = null;
  return pieces.every((piece, i) => {
    const text = nfkc(piece).toLowerCase();
    const named = MONTHS.findIndex((name) => new RegExp(`\\b${name.slice(0, 3)}`).test(text));
    const ja = /(\d{1,2})\s*月/.exec(text);
    month = named >= 0 ? named + 1 : ja ? Number(ja[1]) : month;
    const day = /(?<![\d年])(\d{1,2})(?:st|nd|rd|th|日)?(?!\s*月|\d)/.exec(text.replace(/(?:19|20)\d{2}/g, ''));
    const year = /((?:19|20)\d{2})/.exec(text);
    const want = isoDays[i]!;
    return month === want.m && day !== null && Number(day[1]) === want.d && (year === null || Number(year[1]) === want.y);
  });
}

const BY_KIND: Record<Exclude<Kind, 'period' | 'duration' | 'text'>, (expected: string, stored: string) => boolean> = {
  email: sameEmail,
  phone: samePhone,
  date: sameDate,
  time: sameTime,
  year: sameYear,
  number: sameNumber,
  choice: sameChoice,
  yes_no: sameYesNo,
  postal_code: samePostalCode,
  url: sameUrl,
  name: sameName,
  time_range: sameTimeRange,
  date_range: sameDateRange,
  datetime: sameDateTime,
};

/** Whether a recorded value satisfies the expectation's value (status aside). */
export function valueMatches(expected: Expected, stored: string | null | undefined): boolean {
  if (stored === null || stored === undefined) return false;
  if (expected.kind === 'period' || expected.kind === 'duration' || expected.kind === 'text') {
    return expected.contains !== undefined && containsAll(expected.contains, stored);
  }
  return expected.value !== undefined && BY_KIND[expected.kind](expected.value, stored);
}

export type FinalStatus = ExpectedStatus | 'unresolved';

/** A field of the snapshot as the evaluation reads it; unknown extras are ignored. */
export interface SnapshotField {
  fieldId: string;
  status: string;
  value?: string | null;
  followUps?: number;
  needsReview?: unknown;
  /** A reading the interview asked the respondent to confirm (docs/api.md#certainty). */
  toConfirm?: string | null;
}

/** The snapshot's field status mapped onto the expectation's vocabulary. */
export function finalStatus(field: SnapshotField | undefined): FinalStatus {
  if (field === undefined) return 'unresolved';
  if (field.status === 'skipped') return 'skipped';
  if (field.status === 'needs_review') return 'needs_review';
  if (field.status === 'done') return field.needsReview ? 'needs_review' : 'done';
  return 'unresolved';
}

export interface FieldScore {
  fieldId: string;
  kind: Kind;
  expectedStatus: ExpectedStatus;
  /** The expected value, or the `contains` pieces, for reports. */
  want: string;
  finalStatus: FinalStatus;
  value: string | null;
  correct: boolean;
  followUps: number;
  /**
   * A value was stored that is not the expected one and the respondent was never shown it when it
   * was taken: no reply of the interview to their answer echoed or confirmed it (the summary at the
   * end does not count: a list of every answer is skimmed, not checked). Set from the transcript
   * ({@link markSilentWrong}); the worst outcome an interview can have (issue 33).
   */
  silentWrong?: boolean;
}

/** One message of the final snapshot's conversation. */
export interface TranscriptLine {
  role: string;
  fieldId: string | null;
  text: string;
}

/**
 * The ways a stored value may be written when it is shown (docs/api.md#certainty): as stored; the
 * documented shapes with their separators made readable (13:00–15:00, 13:00〜15:00, 2026-05-03 19:30);
 * yes and no in Japanese.
 */
export function shownForms(value: string): string[] {
  const forms = new Set([fold(value)]);
  const lines = value.split('\n').map((line) => line.trim());
  const readable = lines
    .map((line) => {
      if (/^(?:\d{2}:\d{2}|\d{4}-\d{2}-\d{2})\/(?:\d{2}:\d{2}|\d{4}-\d{2}-\d{2})$/.test(line)) return line.split('/');
      if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(line)) return [line.replace('T', ' ')];
      return [line];
    })
    .map((parts) => parts.map(fold));
  for (const dash of ['–', '〜', '~', '-', ' to ']) forms.add(readable.map((parts) => parts.join(dash)).join(' / '));
  const ja: Record<string, string> = { yes: 'はい', no: 'いいえ' };
  if (ja[fold(value)]) forms.add(ja[fold(value)]!);
  return [...forms];
}

/**
 * Whether `value` was shown when it was taken: after a reply of the respondent to `fieldId`, one of
 * the interview's messages up to the respondent's next message (an acknowledgement, a confirmation
 * question, the next question, the closing message that follows the last answer) contains it (NFKC,
 * case and spaces folded). The greeting and a summary that follows a reply to another field do not count.
 */
export function shownToRespondent(value: string, fieldId: string, transcript: readonly TranscriptLine[]): boolean {
  const needles = shownForms(value).map((form) => form.replace(/\s+/g, ''));
  let afterReply = false;
  for (const line of transcript) {
    if (line.role === 'user') afterReply = line.fieldId === fieldId;
    else if (afterReply && line.role === 'assistant') {
      const text = fold(line.text).replace(/\s+/g, '');
      if (needles.some((needle) => text.includes(needle))) return true;
    }
  }
  return false;
}

/** Marks each wrong field that holds a value the respondent was never shown. */
export function markSilentWrong(fields: FieldScore[], transcript: readonly TranscriptLine[]): void {
  for (const field of fields) {
    // A value kept as given for a member of staff (needs_review) is flagged, and the respondent was told so: not silent.
    const stored = field.value !== null && field.value.trim() !== '' && field.finalStatus === 'done';
    field.silentWrong = stored && !field.correct && !shownToRespondent(field.value!, field.fieldId, transcript);
  }
}

/** Correct: the final status is the expected one and, for `done`, the value matches. */
export function scoreField(fieldId: string, expected: Expected, field: SnapshotField | undefined): FieldScore {
  const status = finalStatus(field);
  const value = field?.value ?? null;
  const correct = status === expected.status && (status !== 'done' || valueMatches(expected, value));
  const want = expected.value ?? expected.contains?.join(' + ') ?? '';
  return {
    fieldId,
    kind: expected.kind,
    expectedStatus: expected.status,
    want,
    finalStatus: status,
    value,
    correct,
    followUps: field?.followUps ?? 0,
  };
}
