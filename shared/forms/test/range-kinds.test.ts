import { beforeAll, describe, expect, it } from 'vitest';
import { assessReading, preloadContentAnalyzer, reviewAnswer } from '@convo/forms';
import type { AnswerType, FactDefinition, FormField } from '@convo/contract';

/**
 * The compound kinds of the optional form extension (issue 33): a window of two times, a first
 * and last day, a day with a time. A value is the whole of what was asked, normalised; half of it
 * (one end, a day without its time) is refused with what was heard, never stored as the answer.
 */

const field: FormField = { id: 'f1', fieldId: 'when', label: 'When?', intent: null, required: true, sortOrder: 0 };
const facts = (answerType: AnswerType): FactDefinition[] => [
  { id: 'k1', formFieldId: 'f1', factKey: 'when', fact: 'When', doneCriteria: '', questioningHints: null, answerType },
];
// A Wednesday, from local components so relative dates do not depend on the machine's zone.
const NOW = new Date(2025, 2, 12, 12, 0, 0);

function valueOf(answerType: AnswerType, answer: string, language: 'en' | 'ja' = 'en') {
  const outcome = reviewAnswer({
    field,
    facts: facts(answerType),
    answers: [answer],
    language,
    country: language === 'ja' ? 'JP' : 'GB',
    now: NOW,
  });
  return { passed: outcome.passed, value: outcome.field_value ?? null };
}

beforeAll(() => preloadContentAnalyzer());

describe('time_range', () => {
  it.each([
    ['Any time from 2 to 4 in the afternoon works for me', '14:00/16:00'],
    ['13:00-15:00', '13:00/15:00'],
    ['between 1 and 3pm', '13:00/15:00'],
    ['after 5pm, till like 7', '17:00/19:00'],
    ['from 11 to 2', '11:00/14:00'],
    ['from 10 till 6', '10:00/18:00'],
    ['after 5, before 7', '17:00/19:00'],
    ["We'd like to close it from about nine in the morning so we can set up, until eight at night", '09:00/20:00'],
  ])('en: %s → %s', (answer, want) => {
    expect(valueOf('time_range', answer)).toEqual({ passed: true, value: want });
  });

  it.each([
    ['午前9時から午後5時まで', '09:00/17:00'],
    ['13-17時', '13:00/17:00'],
    ['午後２時～４時', '14:00/16:00'],
    ['10時〜12時の間でお願いします', '10:00/12:00'],
    // Two bare hours and nothing else: the window (am or pm, when not settled by the hours, is then confirmed).
    ['18-21', '18:00/21:00'],
    ['9〜12です', '09:00/12:00'],
  ])('ja: %s → %s', (answer, want) => {
    expect(valueOf('time_range', answer, 'ja')).toEqual({ passed: true, value: want });
  });

  it('refuses one time alone instead of storing it as the window', () => {
    expect(valueOf('time_range', '3pm is good')).toMatchObject({ passed: false });
    expect(valueOf('time_range', '午後3時', 'ja')).toMatchObject({ passed: false });
    // Bare numbers inside a sentence may count anything: not a window.
    expect(valueOf('time_range', 'room 18-21 please')).toMatchObject({ passed: false });
  });
});

describe('date_range', () => {
  it.each([
    ['from 2025-07-02 to 2025-07-09', '2025-07-02/2025-07-09'],
    ['jul 21-24', '2025-07-21/2025-07-24'],
    ['30 June to 10 July', '2025-06-30/2025-07-10'],
    // An end said as a weekday alone is the first such day after the start.
    ['17 March to Friday', '2025-03-17/2025-03-21'],
    // Both ends joined by "and", the month said once at the end.
    ['the 19th and the 25th of March', '2025-03-19/2025-03-25'],
    ['from the 19th to the 25th of April', '2025-04-19/2025-04-25'],
  ])('en: %s → %s', (answer, want) => {
    expect(valueOf('date_range', answer)).toEqual({ passed: true, value: want });
  });

  it('ja: 5月1日から5日まで', () => {
    expect(valueOf('date_range', '5月1日から5日まで', 'ja')).toEqual({ passed: true, value: '2025-05-01/2025-05-05' });
  });

  it('ja: two weekdays of one relative week (「来週の月〜金」)', () => {
    const nextWeek = (answer: string) => valueOf('date_range', answer, 'ja');
    const monday = new Date(NOW);
    monday.setDate(NOW.getDate() - ((NOW.getDay() + 6) % 7) + 7);
    const friday = new Date(monday);
    friday.setDate(monday.getDate() + 4);
    const iso = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
    expect(nextWeek('来週の月〜金')).toEqual({ passed: true, value: `${iso(monday)}/${iso(friday)}` });
    expect(nextWeek('来週の月曜から金曜まで')).toEqual({ passed: true, value: `${iso(monday)}/${iso(friday)}` });
  });

  it('reads one day alone as a span of that day, which is then confirmed unless they said it is the only one', () => {
    expect(valueOf('date_range', 'on 2 July')).toEqual({ passed: true, value: '2025-07-02/2025-07-02' });
    const reading = (answer: string) =>
      assessReading({ kind: 'date_range', options: [], value: '2025-07-02/2025-07-02', answers: [answer], language: 'en', now: NOW });
    expect(reading('on 2 July')).toEqual({ derivation: 'inferred', certain: false });
    expect(reading('just 2 July')).toEqual({ derivation: 'normalised', certain: true });
  });
});

describe('datetime', () => {
  it.each([
    ['en', 'tomorrow at 3pm', '2025-03-13T15:00'],
    ['en', 'Saturday 15 March, 7:30 in the evening', '2025-03-15T19:30'],
    ['ja', '明日の午後2時', '2025-03-13T14:00'],
  ] as const)('%s: %s → %s', (language, answer, want) => {
    expect(valueOf('datetime', answer, language)).toEqual({ passed: true, value: want });
  });

  it('refuses a time without its day, and a day without its time', () => {
    expect(valueOf('datetime', 'around 3pm')).toMatchObject({ passed: false });
    expect(valueOf('datetime', 'next Friday')).toMatchObject({ passed: false });
  });
});

describe('a day of the month said alone (the month is then confirmed: certainty.ts)', () => {
  // NOW is Wednesday 12 March 2025.
  it.each([
    ['date', 'Could I bring it in Friday the 14th?', '2025-03-14'],
    ['date', 'the 13th', '2025-03-13'],
    ['date', 'Monday the 7th', '2025-04-07'],
    ['date', '20日でお願いします', '2025-03-20'],
    ['date', 'the 3rd', '2025-04-03'],
    ['date_range', 'Monday the 17th through Friday the 21st', '2025-03-17/2025-03-21'],
    ['datetime', 'Saturday the 15th, first thing - 8 o’clock', '2025-03-15T08:00'],
  ] as const)('%s: %s → %s', (answerType, answer, want) => {
    expect(valueOf(answerType, answer, /[日]/.test(answer) ? 'ja' : 'en')).toEqual({ passed: true, value: want });
  });

  it('is not read when two different days are said, or the weekday does not fit any month soon', () => {
    expect(valueOf('date', 'the 13th or the 14th').passed).toBe(false);
  });
});
