import { describe, expect, it } from 'vitest';
import {
  affirmsProposal,
  answerSpec,
  assessReading,
  echoDue,
  readingOfVerdict,
  shownReading,
  showsReading,
  storedValue,
} from '@convo/forms';
import type { AnswerType, FactDefinition, FormField } from '@convo/contract';
import type { FactType } from '@convo/forms';

/**
 * The certainty rule (docs/api.md#certainty): a value the respondent said is certain and read
 * back; a value that filled in what was not said, chose among readings, matched an option loosely
 * or left part of the answer out is confirmed before it is stored. Both languages, by class.
 */

// A Wednesday, from local components so relative dates do not depend on the machine's zone.
const NOW = new Date(2025, 2, 12, 12, 0, 0);

function reading(kind: FactType, value: string, answer: string, options: string[] = [], language: 'en' | 'ja' = 'en') {
  return assessReading({ kind, options, value, answers: [answer], language, now: NOW, timezone: null, country: null });
}

describe('times and windows', () => {
  it('is sure of a clock whose half of the day was said, in words, by a 24-hour hour or a leading zero', () => {
    expect(reading('time', '14:00', '2pm please').certain).toBe(true);
    expect(reading('time', '14:00', 'two in the afternoon').certain).toBe(true);
    expect(reading('time', '18:30', '18:30でお願いします', [], 'ja').certain).toBe(true);
    expect(reading('time', '09:00', '午前9時', [], 'ja').certain).toBe(true);
    expect(reading('time', '09:00', '09:00').certain).toBe(true);
    expect(reading('time_range', '14:00/16:00', 'any time from 2 to 4 in the afternoon').certain).toBe(true);
    expect(reading('time_range', '09:00/17:00', '9時から17時まで', [], 'ja').certain).toBe(true);
  });

  it('asks when am or pm was chosen for the respondent', () => {
    expect(reading('time_range', '13:30/16:00', 'half past one until four')).toEqual({ derivation: 'inferred', certain: false });
    expect(reading('time_range', '06:00/09:00', '6時〜9時', [], 'ja')).toEqual({ derivation: 'inferred', certain: false });
    expect(reading('time', '15:00', 'at 3').certain).toBe(false);
    expect(reading('time_range', '14:00/16:00', 'I am free from 2 to 4').certain).toBe(false);
  });
});

describe('dates', () => {
  it('is sure of a day and month that were said, whatever the year', () => {
    expect(reading('date', '2025-05-03', 'on the evening of 3 May')).toEqual({ derivation: 'normalised', certain: true });
    expect(reading('date', '2025-05-03', '5月3日です', [], 'ja').certain).toBe(true);
    expect(reading('date', '2025-05-03', '2025/5/3').certain).toBe(true);
    expect(reading('date_range', '2025-05-01/2025-05-05', 'May 1 to May 5').certain).toBe(true);
  });

  it('asks about a relative day, a day without its month, two dates, and a day-month order that reads both ways', () => {
    expect(reading('date', '2025-03-14', 'this Friday')).toEqual({ derivation: 'inferred', certain: false });
    expect(reading('date', '2025-03-13', '明日', [], 'ja').certain).toBe(false);
    expect(reading('date', '2025-03-09', 'on the 9th')).toEqual({ derivation: 'inferred', certain: false });
    expect(reading('date', '2025-04-09', 'on April 9th, the day before the event, or maybe tomorrow')).toEqual({
      derivation: 'conflicting',
      certain: false,
    });
    expect(reading('date', '2025-04-03', '3/4').derivation).toBe('conflicting');
  });

  it('takes a day with a time only when both are sure', () => {
    expect(reading('datetime', '2025-05-03T19:30', 'May 3 at 7:30 pm').certain).toBe(true);
    expect(reading('datetime', '2025-03-13T15:00', 'tomorrow at 3').certain).toBe(false);
  });
});

describe('options, yes/no, names, years', () => {
  const meals = ['Vegetarian', 'Fish', 'Chicken'];
  it('is sure of an option named as the form writes it, or by its opening words', () => {
    expect(reading('choice', 'Vegetarian', 'Vegetarian please', meals)).toEqual({ derivation: 'option_exact', certain: true });
    expect(reading('choice', 'Standard room (2 nights)', 'standard room', ['Standard room (2 nights)', 'Suite']).certain).toBe(true);
  });

  it('asks about an option named by an abbreviation, a paraphrase or in other characters', () => {
    expect(reading('choice', 'Vegetarian', 'the veg one', meals)).toEqual({ derivation: 'option_loose', certain: false });
    expect(reading('choice', '特に希望なし', 'とくにないです', ['特に希望なし', '窓側'], 'ja').certain).toBe(false);
  });

  it('asks about a polarity read through a negation, not about a plain yes or no', () => {
    expect(reading('yes_no', 'yes', "I'd never say no to that")).toEqual({ derivation: 'inferred', certain: false });
    expect(reading('yes_no', 'no', '参加できません', [], 'ja').certain).toBe(false);
    expect(reading('yes_no', 'yes', 'Yes, count me in').certain).toBe(true);
    expect(reading('yes_no', 'no', 'いいえ、結構です', [], 'ja').certain).toBe(true);
    expect(reading('yes_no', 'yes', 'Happy to help out').certain).toBe(true);
  });

  it('asks about a name whose bracketed reading was left out, and a year that was not said', () => {
    expect(reading('name', '佐藤 美咲', '佐藤 美咲（みさき）です', [], 'ja')).toEqual({ derivation: 'partial', certain: false });
    expect(reading('name', 'Ann Lee', 'Ann Lee').certain).toBe(true);
    expect(reading('year', '2023', 'I started in 2023').certain).toBe(true);
    expect(reading('year', '2023', "I'm in my third year")).toEqual({ derivation: 'inferred', certain: false });
  });

  it('is sure of text in their words and of a contact value picked out of a sentence', () => {
    expect(reading('text', 'Leaky tap', 'Leaky tap')).toEqual({ derivation: 'verbatim', certain: true });
    expect(reading('email', 'ann@example.com', 'mail me at ann@example.com')).toEqual({ derivation: 'extracted', certain: true });
  });
});

const field: FormField = { id: 'f1', fieldId: 'slot', label: 'Preferred time', intent: null, required: true, sortOrder: 0 };
const fact = (answerType: AnswerType): FactDefinition[] => [
  { id: 'k1', formFieldId: 'f1', factKey: 'slot', fact: 'Preferred time', doneCriteria: '', questioningHints: null, answerType },
];
const ref = { language: 'en' as const, country: null, timezone: null, now: NOW };

describe('a verdict, whoever wrote it', () => {
  it('is confirmed when the rule finds a guess, and when the verdict itself says it is unsure; never made surer', () => {
    const base = { ...ref, field, facts: fact('time'), answers: ['at 3'], value: '15:00' };
    expect(readingOfVerdict({ ...base, verdict: { derivation: 'normalised', certain: true } })).toEqual({
      derivation: 'inferred',
      confirm: true,
    });
    const said = { ...base, answers: ['3pm'] };
    expect(readingOfVerdict({ ...said, verdict: { derivation: null, certain: null } })).toEqual({
      derivation: 'normalised',
      confirm: false,
    });
    expect(readingOfVerdict({ ...said, verdict: { derivation: 'conflicting', certain: null } })).toEqual({
      derivation: 'conflicting',
      confirm: true,
    });
    expect(readingOfVerdict({ ...said, verdict: { derivation: null, certain: false } }).confirm).toBe(true);
  });

  it('settles a reading on a plain yes, not on a yes with another value of the kind', () => {
    const base = { ...ref, field, facts: fact('time'), proposal: '15:00' };
    expect(affirmsProposal({ ...base, reply: "Yes, that's right." })).toBe(true);
    expect(affirmsProposal({ ...base, language: 'ja', reply: 'はい、そうです。' })).toBe(true);
    expect(affirmsProposal({ ...base, reply: 'yes, 3pm' })).toBe(true);
    expect(affirmsProposal({ ...base, reply: 'Yes but make it 4pm' })).toBe(false);
    expect(affirmsProposal({ ...base, reply: 'No, 3 in the morning' })).toBe(false);
    // The answer said again is not a yes: the reading it gave is what was in doubt.
    const choice = { ...ref, field, facts: fact('choice'), proposal: 'その他', language: 'ja' as const };
    expect(affirmsProposal({ ...choice, reply: '空き巣に入られました' })).toBe(false);
    expect(affirmsProposal({ ...choice, reply: 'はい、それで大丈夫です' })).toBe(true);
  });
});

describe('what is stored', () => {
  it("stores a yes or no to a fact with its own pair of options as that option, in the form's words", () => {
    const pair = (options: string[]): FactDefinition[] => [
      {
        id: 'k1',
        formFieldId: 'f1',
        factKey: 'parking',
        fact: '駐車場の利用',
        doneCriteria: '',
        questioningHints: null,
        answerType: 'yes_no',
        options,
      },
    ];
    expect(storedValue({ field, facts: pair(['利用する', '利用しない']), value: 'no' })).toBe('利用しない');
    expect(storedValue({ field, facts: pair(['利用する', '利用しない']), value: 'yes' })).toBe('利用する');
    expect(storedValue({ field, facts: pair(['Yes', 'No']), value: 'yes' })).toBe('Yes');
    // Without a pair of its own, yes and no are stored as such; other kinds as read.
    expect(storedValue({ field, facts: fact('yes_no'), value: 'no' })).toBe('no');
    expect(storedValue({ field, facts: fact('time'), value: '15:00' })).toBe('15:00');
  });
});

describe('what the respondent is shown', () => {
  it('writes the documented shapes readably, and yes/no in the session language', () => {
    expect(shownReading('13:00/15:00', 'en')).toBe('13:00–15:00');
    expect(shownReading('13:00/15:00', 'ja')).toBe('13:00〜15:00');
    expect(shownReading('2025-05-01/2025-05-05', 'en')).toBe('2025-05-01–2025-05-05');
    // Digits around a slash may be a span of amounts or a reference number ("4701234/25"): shown as stored.
    expect(shownReading('4701234/25', 'en')).toBe('4701234/25');
    expect(shownReading('2025-05-03T19:30', 'en')).toBe('2025-05-03 19:30');
    expect(shownReading('no', 'ja')).toBe('いいえ');
    expect(shownReading('M\nblue', 'en')).toBe('M / blue');
    expect(showsReading('Got it: “13:00 – 15:00”.', '13:00–15:00')).toBe(true);
    expect(showsReading('Thank you! Next question', '13:00–15:00')).toBe(false);
  });

  it('is due after the answer just reviewed: a reading to confirm, a value just stored, not a long text in their own words', () => {
    const state = (review: object, status: string, value: string | null) => ({
      messages: [{ role: 'user', messageId: 'm1', fieldId: 'slot' }],
      fields: [{ fieldId: 'slot', status, value, needsReview: false, reviewedMessageId: 'm1', lastReview: review as never }],
      bootstrap: { language: 'en' },
    });
    expect(echoDue(state({ passed: true, confirm: true, field_value: '15:00' }, 'interviewing', null))).toEqual({
      fieldId: 'slot',
      mode: 'confirm',
      shown: '15:00',
    });
    expect(echoDue(state({ passed: true, field_value: '15:00', derivation: 'normalised' }, 'done', '15:00'))?.mode).toBe('ack');
    expect(echoDue(state({ passed: true, field_value: '15:00', derivation: 'confirmed' }, 'done', '15:00'))).toBeNull();
    expect(echoDue(state({ passed: false }, 'interviewing', null))).toBeNull();
    const long = 'x'.repeat(120);
    expect(echoDue(state({ passed: true, field_value: long, derivation: 'verbatim' }, 'done', long))).toBeNull();
  });
});

describe('codes and compound kinds named by the fact', () => {
  const spec = (fact: string, label: string, doneCriteria = '') =>
    answerSpec({ factKey: 'x', fact, doneCriteria, questioningHints: null }, { label, intent: null }, { fieldContext: true }).type;
  it('reads a number of a fixed count of digits as a code, and a day with a time or both ends of a span as one value', () => {
    expect(spec('マイクロチップの15桁の番号', 'マイクロチップ番号', '15桁の数字')).toBe('text');
    expect(spec('The 10-digit member code', 'Member code')).toBe('text');
    expect(spec('事故の発生日時', '事故が起きた日時')).toBe('datetime');
    expect(spec('Date and time the issue first occurred', 'When did the problem start?')).toBe('datetime');
    expect(spec('Start and end times of the street closure', 'Closure hours')).toBe('time_range');
    expect(spec('First and last day the permit covers', 'From what date to what date?')).toBe('date_range');
    // Both ends named in the criteria make a span, whatever the fact calls it ("Period …").
    expect(spec('Period within the re-sit window when the student is available', 'Dates', 'A start date and an end date')).toBe(
      'date_range',
    );
    expect(spec('希望時間帯（午前・午後・夜間）', '希望時間帯')).toBe('choice');
  });
});
