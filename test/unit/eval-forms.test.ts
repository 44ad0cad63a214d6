import { phrasingDefects } from '../../scripts/eval-forms/purity.js';
import { describe, expect, it } from 'vitest';
import {
  canonUrl,
  containsAll,
  finalStatus,
  markSilentWrong,
  shownToRespondent,
  sameChoice,
  sameDate,
  sameDateRange,
  sameDateTime,
  sameEmail,
  sameName,
  sameNumber,
  samePhone,
  samePostalCode,
  sameTime,
  sameTimeRange,
  sameUrl,
  sameYear,
  sameYesNo,
  scoreField,
  valueMatches,
} from '../../scripts/eval-forms/compare.js';
import { Respondent } from '../../scripts/eval-forms/data.js';
import { parseOptions, UsageError } from '../../scripts/eval-forms/main.js';
import { isPure } from '../../scripts/eval-forms/purity.js';
import { decide, isConfirmationRequest, type FormView, type Sent, type Snapshot } from '../../scripts/eval-forms/respondent.js';
import { detailLines, setReport } from '../../scripts/eval-forms/report.js';
import type { SessionResult } from '../../scripts/eval-forms/run-session.js';

describe('comparators', () => {
  it('ranges and a day with a time: both ends, in order; one end or one part alone is wrong', () => {
    expect(sameTimeRange('13:00/15:00', '13:00/15:00')).toBe(true);
    expect(sameTimeRange('09:00/17:00', '9:00–17:00')).toBe(true);
    expect(sameTimeRange('13:00/15:00', '15:00')).toBe(false);
    expect(sameTimeRange('13:00/15:00', '13:00')).toBe(false);
    expect(sameTimeRange('13:00/15:00', '15:00/13:00')).toBe(false);
    expect(sameDateRange('2025-07-02/2025-07-09', '2025-07-02/2025-07-09')).toBe(true);
    expect(sameDateRange('2025-07-02/2025-07-09', '2025-07-02 to 2025-07-09')).toBe(true);
    expect(sameDateRange('2025-07-02/2025-07-09', '2025-07-02')).toBe(false);
    expect(sameDateTime('2025-05-03T19:30', '2025-05-03T19:30')).toBe(true);
    expect(sameDateTime('2025-05-03T19:30', '2025-05-03 19:30')).toBe(true);
    expect(sameDateTime('2025-05-03T19:30', '19:30')).toBe(false);
    expect(sameDateTime('2025-05-03T19:30', '2025-05-03')).toBe(false);
    expect(sameDateTime('2025-05-03T19:30', '2025-05-04T19:30')).toBe(false);
  });

  it('email: lower-case exact', () => {
    expect(sameEmail('jane.doe@example.org', 'Jane.Doe@Example.org')).toBe(true);
    expect(sameEmail('jane.doe@example.org', ' jane.doe@example.org ')).toBe(true);
    expect(sameEmail('jane.doe@example.org', 'jane.doe@example.com')).toBe(false);
    expect(sameEmail('jane.doe@example.org', 'my email is jane.doe@example.org')).toBe(false);
  });

  it('phone: + and digits', () => {
    expect(samePhone('+819012345678', '+81 90-1234-5678')).toBe(true);
    expect(samePhone('+14165550123', '+1 (416) 555-0123')).toBe(true);
    expect(samePhone('+819012345678', '090-1234-5678')).toBe(false);
    expect(samePhone('+819012345678', '+81 90 1234 5679')).toBe(false);
  });

  it('date: the exact date, possibly inside a longer value, never a prefix of a longer date', () => {
    expect(sameDate('2023-04-15', '2023-04-15')).toBe(true);
    expect(sameDate('2023-04-15', 'on 2023-04-15 (Sat)')).toBe(true);
    expect(sameDate('2023-04', '2023-04')).toBe(true);
    expect(sameDate('2023-04', '2023-04-15')).toBe(false);
    expect(sameDate('2023-04-15', '2023-04-16')).toBe(false);
    expect(sameDate('2023-04-15', '15 April 2023')).toBe(false);
  });

  it('time: HH:MM, zero-padded', () => {
    expect(sameTime('09:30', '9:30')).toBe(true);
    expect(sameTime('09:30', '09:30')).toBe(true);
    expect(sameTime('14:00', 'at 14:00')).toBe(true);
    expect(sameTime('14:00', '2:00')).toBe(false);
    expect(sameTime('09:30', 'half past nine')).toBe(false);
  });

  it('year: the four digits appear on their own', () => {
    expect(sameYear('2019', '2019')).toBe(true);
    expect(sameYear('2019', '2019年')).toBe(true);
    expect(sameYear('2019', '2018')).toBe(false);
    expect(sameYear('2019', '20190')).toBe(false);
  });

  it('number: the first number of the stored value', () => {
    expect(sameNumber('180', '180 cm')).toBe(true);
    expect(sameNumber('1200', '1,200円')).toBe(true);
    expect(sameNumber('3.5', '3.5 hours')).toBe(true);
    expect(sameNumber('2', '２人')).toBe(true);
    expect(sameNumber('2', '3 or 2')).toBe(false);
    expect(sameNumber('2', 'two')).toBe(false);
    // A magnitude written out is applied; a span written as two numbers is the stored span.
    expect(sameNumber('15万', '150000')).toBe(true);
    expect(sameNumber('15万', '15')).toBe(false);
    expect(sameNumber('5万 + 8万', '50000/80000')).toBe(true);
    expect(sameNumber('5万 + 8万', '50000')).toBe(false);
  });

  it('choice: trimmed, case-insensitive, NFKC', () => {
    expect(sameChoice('M', ' m ')).toBe(true);
    expect(sameChoice('午後', '午後')).toBe(true);
    expect(sameChoice('XL', 'ＸＬ')).toBe(true);
    expect(sameChoice('M', 'Medium')).toBe(false);
    expect(sameChoice('午後', '午前')).toBe(false);
  });

  it('yes_no: normalised to yes/no', () => {
    expect(sameYesNo('yes', 'Yes')).toBe(true);
    expect(sameYesNo('yes', 'はい')).toBe(true);
    expect(sameYesNo('no', 'No.')).toBe(true);
    expect(sameYesNo('no', 'yes')).toBe(false);
    expect(sameYesNo('yes', 'maybe')).toBe(false);
    // A form's own option for the pair, read by its polarity.
    expect(sameYesNo('no', '利用しない')).toBe(true);
    expect(sameYesNo('yes', '利用する')).toBe(true);
    expect(sameYesNo('no', '不要')).toBe(true);
    expect(sameYesNo('yes', '不要')).toBe(false);
    expect(sameYesNo('yes', 'わかりませんが、たぶん行きます')).toBe(false);
  });

  it('postal_code: alphanumerics, upper-case', () => {
    expect(samePostalCode('150-0001', '1500001')).toBe(true);
    expect(samePostalCode('M5V 2T6', 'm5v2t6')).toBe(true);
    expect(samePostalCode('150-0001', '〒１５０－０００１')).toBe(true);
    expect(samePostalCode('94105', '94107')).toBe(false);
  });

  it('url: protocol, www. and trailing slash do not matter; the host is case-insensitive', () => {
    expect(canonUrl('https://www.GitHub.com/jane/')).toBe('github.com/jane');
    expect(sameUrl('https://github.com/jane', 'github.com/jane')).toBe(true);
    expect(sameUrl('https://github.com/jane', 'http://WWW.GITHUB.COM/jane/')).toBe(true);
    expect(sameUrl('https://github.com/jane', 'https://github.com/Jane')).toBe(false);
    expect(sameUrl('https://github.com/jane', 'https://gitlab.com/jane')).toBe(false);
  });

  it('name: NFKC, case and whitespace do not matter', () => {
    expect(sameName('Jane Doe', 'jane  doe')).toBe(true);
    expect(sameName('山田太郎', '山田 太郎')).toBe(true);
    expect(sameName('山田太郎', '山田　太郎')).toBe(true);
    expect(sameName('Jane Doe', 'Jane')).toBe(false);
    expect(sameName('山田太郎', '山田花子')).toBe(false);
  });

  it('period / duration / text: every piece occurs', () => {
    expect(containsAll(['神戸マラソン', '2023'], '2023年の神戸マラソンに出ました')).toBe(true);
    expect(containsAll(['Kobe  Marathon'], 'ran the kobe marathon')).toBe(true);
    expect(containsAll(['神戸マラソン', '2022'], '2023年の神戸マラソン')).toBe(false);
    // Amounts kept as written match the same amounts in digits, all of them and only them.
    expect(containsAll(['5万', '8万'], '50000/80000')).toBe(true);
    expect(containsAll(['15万'], '150000')).toBe(true);
    expect(containsAll(['5万', '8万'], '5')).toBe(false);
    expect(containsAll(['15万'], '15')).toBe(false);
    expect(valueMatches({ kind: 'text', contains: ['park'], status: 'done' }, 'help the park')).toBe(true);
    expect(valueMatches({ kind: 'text', contains: ['park'], status: 'done' }, null)).toBe(false);
  });

  it('final status and field score', () => {
    expect(finalStatus({ fieldId: 'a', status: 'skipped' })).toBe('skipped');
    expect(finalStatus({ fieldId: 'a', status: 'done', needsReview: true })).toBe('needs_review');
    expect(finalStatus({ fieldId: 'a', status: 'needs_review' })).toBe('needs_review');
    expect(finalStatus({ fieldId: 'a', status: 'done', needsReview: false })).toBe('done');
    expect(finalStatus({ fieldId: 'a', status: 'interviewing' })).toBe('unresolved');
    expect(finalStatus(undefined)).toBe('unresolved');
    const exp = { kind: 'email' as const, value: 'a@b.co', status: 'done' as const };
    expect(scoreField('e', exp, { fieldId: 'e', status: 'done', value: 'A@b.co' }).correct).toBe(true);
    expect(scoreField('e', exp, { fieldId: 'e', status: 'done', value: 'x@b.co' }).correct).toBe(false);
    expect(scoreField('e', exp, { fieldId: 'e', status: 'done', value: 'a@b.co', needsReview: true }).correct).toBe(false);
    // needs_review and skipped are judged by status alone.
    expect(
      scoreField('e', { kind: 'email', status: 'needs_review' }, { fieldId: 'e', status: 'done', value: 'dunno', needsReview: true })
        .correct,
    ).toBe(true);
  });
});

describe('silent wrong values', () => {
  const transcript = [
    { role: 'assistant', fieldId: 'slot', text: 'When can we come by?' },
    { role: 'user', fieldId: 'slot', text: 'any time from 2 to 4 in the afternoon' },
    { role: 'assistant', fieldId: 'phone', text: 'Thanks. And your phone number?' },
    { role: 'user', fieldId: 'phone', text: '090 1234 5678' },
    { role: 'assistant', fieldId: 'phone', text: 'Just to check: +81 90-1234-5678?' },
    { role: 'user', fieldId: 'phone', text: 'yes' },
    { role: 'assistant', fieldId: null, text: 'Here is a summary of your answers: • When: 16:00 • Phone: +81 90-1234-5678' },
  ];
  const expectations = {
    slot: { kind: 'time_range', value: '14:00/16:00', status: 'done' },
    phone: { kind: 'phone', value: '+819012345679', status: 'done' },
    email: { kind: 'email', value: 'a@example.org', status: 'done' },
  } as const;

  it('marks a wrong value not shown when it was taken (the final summary does not count), not one that was confirmed, nor a right or missing one', () => {
    const fields = [
      scoreField('slot', expectations.slot, { fieldId: 'slot', status: 'done', value: '16:00' }),
      scoreField('phone', expectations.phone, { fieldId: 'phone', status: 'done', value: '+81 90-1234-5678' }),
      scoreField('email', expectations.email, { fieldId: 'email', status: 'pending', value: null }),
    ];
    markSilentWrong(fields, transcript);
    expect(fields.map((f) => [f.fieldId, f.correct, f.silentWrong])).toEqual([
      ['slot', false, true],
      ['phone', false, false],
      ['email', false, false],
    ]);
    // Kept as given for a member of staff: flagged, and the respondent was told, so not silent.
    const flagged = [scoreField('slot', expectations.slot, { fieldId: 'slot', status: 'done', value: '16:00', needsReview: true })];
    markSilentWrong(flagged, transcript);
    expect([flagged[0]!.finalStatus, flagged[0]!.correct, flagged[0]!.silentWrong]).toEqual(['needs_review', false, false]);
    const right = [scoreField('slot', expectations.slot, { fieldId: 'slot', status: 'done', value: '14:00/16:00' })];
    markSilentWrong(right, transcript);
    expect(right[0]!.silentWrong).toBe(false);
  });
});

describe('a span kept as written, against the range shape', () => {
  it('matches the same days in order, a bare day taking the month before it, the year when one is said', () => {
    expect(containsAll(['May 14', 'May 20'], '2024-05-14/2024-05-20')).toBe(true);
    expect(containsAll(['march 18', '23'], '2026-03-18/2026-03-23')).toBe(true);
    expect(containsAll(['September 23, 2024', 'September 27, 2024'], '2024-09-23/2024-09-27')).toBe(true);
    expect(containsAll(['May 14', 'May 21'], '2024-05-14/2024-05-20')).toBe(false);
    expect(containsAll(['May 14, 2023', 'May 20'], '2024-05-14/2024-05-20')).toBe(false);
  });
});

describe('a value shown in its readable form', () => {
  it('counts a range shown with a dash or a wave dash, a day with its time, and yes/no in Japanese', () => {
    const reply = (fieldId: string) => ({ role: 'user', fieldId, text: '…' });
    const said = (text: string, fieldId: string | null = 'next') => [reply('slot'), { role: 'assistant', fieldId, text }];
    expect(shownToRespondent('14:00/16:00', 'slot', said('Got it: “14:00–16:00”.'))).toBe(true);
    expect(shownToRespondent('14:00/16:00', 'slot', said('「14:00〜16:00」ですね。'))).toBe(true);
    expect(shownToRespondent('2026-05-03T19:30', 'slot', said('Just to check: “2026-05-03 19:30”?'))).toBe(true);
    expect(shownToRespondent('no', 'slot', said('「いいえ」ですね。承知しました。'))).toBe(true);
    expect(shownToRespondent('14:00/16:00', 'slot', said('Got it: “14:00”.'))).toBe(false);
    // The closing message right after the last answer shows it; the greeting before any reply does not.
    expect(shownToRespondent('14:00/16:00', 'slot', said('Summary: 14:00–16:00', null))).toBe(true);
    expect(shownToRespondent('14:00/16:00', 'slot', [{ role: 'assistant', fieldId: null, text: '14:00–16:00' }, reply('slot')])).toBe(
      false,
    );
  });
});

describe('language purity', () => {
  it('ja: English pasted into Japanese is impure', () => {
    expect(isPure('（Contact the volunteer）', 'ja', [])).toBe(false);
    expect(isPure('ご連絡ください（Contact the volunteer）', 'ja', [])).toBe(false);
    expect(isPure('ご連絡ください', 'ja', [])).toBe(true);
  });

  it('ja: single Latin words, e-mail addresses, URLs and the respondent’s own words are fine', () => {
    expect(isPure('メールアドレスは taro@example.jp でよろしいですか？', 'ja', [])).toBe(true);
    expect(isPure('https://github.com/jane-doe でよろしいですか？', 'ja', [])).toBe(true);
    expect(isPure('サイズは XL ですね。', 'ja', [])).toBe(true);
    expect(isPure('勤務先は「Acme Widget Works」ですね。', 'ja', ['Acme Widget Works です'])).toBe(true);
    // A respondent's "contact" excuses that word only, not the phrase around it.
    expect(isPure('（Contact the volunteer）までご連絡ください', 'ja', ['contact'])).toBe(false);
  });

  it('ja: a message without kana or kanji is impure', () => {
    expect(isPure('What is your email?', 'ja', [])).toBe(false);
  });

  it('en: no kana or kanji except what the respondent typed', () => {
    expect(isPure('Your email jane@example.com, is that right?', 'en', [])).toBe(true);
    expect(isPure('Thanks, 山田太郎. What is your email?', 'en', ['山田太郎です'])).toBe(true);
    expect(isPure('Thanks, 山田太郎. What is your email?', 'en', [])).toBe(false);
    expect(isPure('ありがとうございます. What is your email?', 'en', ['山田太郎です'])).toBe(false);
  });
});

/** A hand-written form: name (required), email (required), shirt size (choice), motivation (optional). */
const form: FormView = {
  fields: [
    { id: 'f1', fieldId: 'full_name', label: 'Full name', intent: 'Identify the volunteer' },
    { id: 'f2', fieldId: 'email', label: 'Email', intent: null },
    { id: 'f3', fieldId: 'shirt', label: 'T-shirt size', intent: null },
    { id: 'f4', fieldId: 'why', label: 'Why do you want to volunteer?', intent: null },
  ],
  facts: [
    { formFieldId: 'f1', fact: 'Full name', doneCriteria: 'Given and family name' },
    { formFieldId: 'f2', fact: 'Email address', doneCriteria: 'A valid email address' },
    { formFieldId: 'f3', fact: 'Shirt size', doneCriteria: 'One of the sizes', options: ['S', 'M', 'L', 'XL'] },
  ],
};

const respondent: Respondent = Respondent.parse({
  id: 'r1',
  style: 'correcting',
  sessionLanguage: 'en',
  residence: 'I live in Toronto, Canada',
  replies: {
    full_name: ['Jane Doe'],
    email: ['jane.doe@example.com', 'It is jane.doe@example.com'],
    shirt: ['Medium, so M'],
  },
  corrections: [{ afterField: 'email', field: 'email', message: 'Actually, my email is jane.doe@example.org.' }],
  expected: {
    full_name: { kind: 'name', value: 'Jane Doe', status: 'done' },
    email: { kind: 'email', value: 'jane.doe@example.org', status: 'done' },
    shirt: { kind: 'choice', value: 'M', status: 'done' },
    why: { kind: 'text', status: 'skipped' },
  },
});

type FieldStatus = 'pending' | 'interviewing' | 'reviewing' | 'done' | 'skipped';

function snap(statuses: Partial<Record<string, FieldStatus>>, lastAssistant: string, extra: Partial<Snapshot> = {}): Snapshot {
  return {
    status: 'active',
    currentAgent: 'interviewer',
    bootstrap: { language: 'en', country: 'CA', timezone: 'America/Toronto' },
    fields: form.fields.map((f) => ({ fieldId: f.fieldId, status: statuses[f.fieldId] ?? 'pending', value: null, followUps: 0 })),
    messages: [{ role: 'assistant', agent: 'interviewer', text: lastAssistant }],
    ...extra,
  };
}

const answered = (fieldId: string, text: string): Sent => ({ text, reason: 'answer', fieldId });

describe('respondent decisions', () => {
  it('sends the residence while the greeter talks, even after three tries', () => {
    const greeting = snap({}, 'Hello! Where do you live?', {
      currentAgent: 'greeter',
      bootstrap: { language: 'en', country: null, timezone: null },
    });
    const tries: Sent[] = [1, 2, 3].map(() => ({ text: respondent.residence, reason: 'residence', fieldId: null }));
    expect(decide(form, respondent, greeting, [])).toMatchObject({ type: 'send', reason: 'residence', text: 'I live in Toronto, Canada' });
    expect(decide(form, respondent, greeting, tries)).toMatchObject({ type: 'send', reason: 'residence' });
  });

  it('answers the field being asked even when the interview went on without a country', () => {
    const snapshot = snap({ full_name: 'interviewing' }, 'What is your full name?', {
      bootstrap: { language: 'en', country: null, timezone: null },
    });
    expect(decide(form, respondent, snapshot, [])).toMatchObject({
      type: 'send',
      reason: 'answer',
      fieldId: 'full_name',
      text: 'Jane Doe',
    });
  });

  it('says yes to a reading shown for confirmation when it is what they meant, and answers again when it is not', () => {
    const asked = (toConfirm: string) => {
      const snapshot = snap({ full_name: 'interviewing' }, `Just to check: “${toConfirm}” — is that right?`);
      snapshot.fields = snapshot.fields.map((f) => (f.fieldId === 'full_name' ? { ...f, toConfirm } : f));
      return snapshot;
    };
    const sent = [answered('full_name', 'Jane Doe')];
    expect(decide(form, respondent, asked('Jane Doe'), sent)).toMatchObject({
      type: 'send',
      reason: 'confirm',
      text: "Yes, that's right.",
    });
    expect(decide(form, respondent, asked('Jane'), sent)).toMatchObject({ type: 'send', reason: 'answer', fieldId: 'full_name' });
  });

  it('finishes at awaiting_confirmation', () => {
    expect(decide(form, respondent, snap({}, 'Please confirm.', { status: 'awaiting_confirmation' }), [])).toEqual({ type: 'finish' });
  });

  it('makes a correction still due at awaiting_confirmation before finishing, once', () => {
    const end = snap({ full_name: 'done', email: 'done', shirt: 'done', why: 'skipped' }, 'Here is a summary.', {
      status: 'awaiting_confirmation',
    });
    const correction = decide(form, respondent, end, []);
    expect(correction).toMatchObject({
      type: 'send',
      reason: 'correction',
      fieldId: 'email',
      text: 'Actually, my email is jane.doe@example.org.',
    });
    const sent: Sent[] = [{ text: 'Actually, my email is jane.doe@example.org.', reason: 'correction', fieldId: 'email' }];
    expect(decide(form, respondent, end, sent)).toEqual({ type: 'finish' });
  });

  it('takes the asked field from the message when no field is interviewing', () => {
    const snapshot = snap({ full_name: 'done' }, 'And your email?');
    snapshot.messages[0]!.fieldId = 'email';
    expect(decide(form, respondent, snapshot, [answered('full_name', 'Jane Doe')])).toMatchObject({
      fieldId: 'email',
      text: 'jane.doe@example.com',
    });
  });

  it('picks replies[field][k] by how often the field was answered; the last one repeats', () => {
    const snapshot = snap({ full_name: 'done', email: 'interviewing' }, 'Could you give me a valid address?');
    const once = [answered('full_name', 'Jane Doe'), answered('email', 'jane.doe@example.com')];
    expect(decide(form, respondent, snapshot, once)).toMatchObject({ text: 'It is jane.doe@example.com' });
    const twice = [...once, answered('email', 'It is jane.doe@example.com')];
    expect(decide(form, respondent, snapshot, twice)).toMatchObject({ text: 'It is jane.doe@example.com' });
  });

  it("says it doesn't know a field without replies", () => {
    const snapshot = snap({ full_name: 'done', email: 'done', shirt: 'done', why: 'interviewing' }, 'Why do you want to volunteer?');
    const sent = [answered('full_name', 'Jane Doe'), answered('email', 'x'), answered('shirt', 'M')];
    sent.push({ text: respondent.corrections[0]!.message, reason: 'correction', fieldId: 'email' });
    expect(decide(form, respondent, snapshot, sent)).toMatchObject({ text: "I'm not sure", fieldId: 'why' });
  });

  it('sends a correction once its afterField is resolved and the next question came, and only once', () => {
    const before = snap({ full_name: 'done', email: 'reviewing' }, 'Thanks. Anything else?');
    const sent = [answered('full_name', 'Jane Doe'), answered('email', 'jane.doe@example.com')];
    expect(decide(form, respondent, before, sent)).not.toMatchObject({ reason: 'correction' });
    const after = snap({ full_name: 'done', email: 'done', shirt: 'interviewing' }, 'What T-shirt size?');
    const action = decide(form, respondent, after, sent);
    expect(action).toMatchObject({
      type: 'send',
      reason: 'correction',
      text: 'Actually, my email is jane.doe@example.org.',
      fieldId: 'email',
    });
    const withCorrection = [
      ...sent,
      { text: 'Actually, my email is jane.doe@example.org.', reason: 'correction' as const, fieldId: 'email' },
    ];
    expect(decide(form, respondent, after, withCorrection)).toMatchObject({ reason: 'answer', fieldId: 'shirt', text: 'Medium, so M' });
  });

  it('confirms a value it gave (canonical value or a piece of its own reply), once', () => {
    const sent = [answered('full_name', 'Jane Doe')];
    const echo = snap({ full_name: 'reviewing' }, 'Just to check: your name is Jane Doe, correct?');
    expect(decide(form, respondent, echo, sent)).toMatchObject({ reason: 'confirm', text: "Yes, that's right." });
    const piece = snap({ full_name: 'done', email: 'reviewing' }, 'I have jane.doe@example.com — is that right?');
    expect(isConfirmationRequest(form, respondent, piece, [...sent, answered('email', 'jane.doe@example.com')], 'email')).toBe(true);
    // Asked again right after a confirmation: answer instead of confirming in a loop.
    const confirmed = [...sent, { text: "Yes, that's right.", reason: 'confirm' as const, fieldId: 'full_name' }];
    expect(decide(form, respondent, echo, confirmed)).toMatchObject({ reason: 'answer', text: 'Jane Doe' });
  });

  it('recognises a value it volunteered in a correction before the field was asked', () => {
    const early = [{ text: 'Actually, my email is jane.doe@example.org.', reason: 'correction' as const, fieldId: 'email' }];
    const candidate = snap(
      { full_name: 'done', email: 'interviewing' },
      'Earlier you mentioned “jane.doe@example.org”. Shall I use that for your email?',
    );
    expect(isConfirmationRequest(form, respondent, candidate, early, 'email')).toBe(true);
  });

  it('does not take a first question, a re-ask in the form’s words or a list of options for a confirmation', () => {
    const first = snap({ shirt: 'interviewing' }, 'Which size: S, M, L or XL?');
    expect(decide(form, respondent, first, [])).toMatchObject({ reason: 'answer', text: 'Medium, so M' });
    const reask = snap({ shirt: 'interviewing' }, 'Sorry, which one: S, M, L or XL?');
    expect(decide(form, respondent, reask, [answered('shirt', 'Medium, so M')])).toMatchObject({ reason: 'answer' });
    const vocab = snap({ email: 'interviewing' }, 'Could you give a valid email address?');
    expect(isConfirmationRequest(form, respondent, vocab, [answered('email', 'my email is jane.doe@example.com')], 'email')).toBe(false);
  });

  it('confirms in Japanese for a Japanese session', () => {
    const ja = Respondent.parse({ ...respondent, sessionLanguage: 'ja', replies: { full_name: ['山田太郎です'] }, corrections: [] });
    const snapshot = snap({ full_name: 'reviewing' }, 'お名前は山田太郎様でよろしいですか？');
    expect(decide(form, ja, snapshot, [answered('full_name', '山田太郎です')])).toMatchObject({
      reason: 'confirm',
      text: 'はい、そうです。',
    });
  });
});

describe('options and report', () => {
  it('refuses details or a single form on the held-out set', () => {
    expect(() => parseOptions(['--set', 'heldout', '--details'])).toThrow(UsageError);
    expect(() => parseOptions(['--set', 'heldout', '--only', 'x'])).toThrow(UsageError);
    expect(() => parseOptions(['--transcripts', '/tmp/t'])).toThrow(UsageError);
    expect(parseOptions(['--set', 'dev', '--transcripts', '/tmp/t']).transcripts).toBe('/tmp/t');
    expect(parseOptions([]).sets).toEqual(['dev', 'heldout']);
    expect(parseOptions(['--only', 'x']).sets).toEqual(['dev']);
  });

  it('reports held-out totals only', () => {
    const result: SessionResult = {
      set: 'heldout',
      formId: 'f',
      respondentId: 'r',
      style: 'cooperative',
      sessionLanguage: 'en',
      formLanguage: 'en',
      sessionId: 's',
      completed: true,
      submitStatus: 200,
      stuck: false,
      ended: 'finished',
      turns: 5,
      residenceMessages: 1,
      correctionsUnsent: 0,
      turnsFailed: 0,
      turnsTimedOut: 0,
      assistantMessages: 6,
      pureMessages: 6,
      impure: [],
      illFormed: [],
      transcript: [],
      error: null,
      fields: [
        {
          fieldId: 'a',
          kind: 'email',
          expectedStatus: 'done',
          want: 'a@b.co',
          finalStatus: 'done',
          value: 'x@b.co',
          correct: false,
          followUps: 1,
        },
      ],
    };
    const held = setReport('heldout', [result], 1, true);
    expect(held.sessions).toBeUndefined();
    expect(held.byKind).toBeUndefined();
    expect(held.totals.accuracy).toEqual({ n: 0, of: 1 });
    const dev = setReport('dev', [{ ...result, set: 'dev' }], 1, true);
    expect(dev.byKind).toEqual({ email: { n: 0, of: 1 } });
    expect(detailLines(dev.sessions!)[0]).toContain('a: want done "a@b.co", got done "x@b.co"');
  });
});

describe('phrasing defects', () => {
  it('finds the respondent named in the third person, a doubled pronoun and "you" where "your" belongs, not the respondent\'s own words', () => {
    expect(phrasingDefects("We'll use it to identify you on you list.", 'en', [])).toEqual(['orphaned pronoun']);
    expect(phrasingDefects("Could you tell me the attendee's full name?", 'en', [])).toEqual(['third person']);
    expect(phrasingDefects('Could you tell me your full name of the person who usually collects the child?', 'en', [])).toEqual([
      'double owner',
    ]);
    expect(phrasingDefects('Could you tell me the full name of the person who usually collects the child?', 'en', [])).toEqual([]);
    expect(phrasingDefects('Please confirm your your email.', 'en', [])).toEqual(['doubled pronoun']);
    expect(phrasingDefects('回答者の経験を教えてください。', 'ja', [])).toEqual(['third person']);
    expect(phrasingDefects("We'll use it to identify you on the guest list. We'll send you details.", 'en', [])).toEqual([]);
    expect(phrasingDefects('Got it: “the applicant is me”.', 'en', ['the applicant is me'])).toEqual([]);
  });
});
