import { beforeAll, describe, expect, it } from 'vitest';
import { routeUserMessage } from '@convo/forms/internal/domain/answer-routing';
import { newFormSession, preloadContentAnalyzer } from '@convo/forms';
import { type FormSessionState, SessionForm } from '@convo/contract';

beforeAll(async () => {
  await preloadContentAnalyzer();
});

const NOW = new Date('2026-11-24T10:00:00.000Z');

const form = SessionForm.parse({
  title: 'Course sign-up',
  fields: [
    { id: 'f1', fieldId: 'email', label: 'Email address', intent: null, required: true, sortOrder: 1 },
    { id: 'f2', fieldId: 'size', label: 'T-shirt size (S/M/L/XL)', intent: null, required: true, sortOrder: 2 },
    { id: 'f3', fieldId: 'start', label: 'When did you first notice the problem?', intent: null, required: true, sortOrder: 3 },
    { id: 'f4', fieldId: 'devices', label: 'Number of devices affected', intent: null, required: true, sortOrder: 4 },
    { id: 'f5', fieldId: 'room', label: 'Room preference', intent: null, required: true, sortOrder: 5 },
    { id: 'f6', fieldId: 'requests', label: 'Anything else we should know?', intent: null, required: false, sortOrder: 6 },
  ],
  facts: [],
});

/** A session where `done` fields are resolved with these values and `asked` was the last question shown. */
function session(done: Record<string, string>, asked: string, language: 'en' | 'ja' = 'en'): FormSessionState {
  const state = newFormSession({ sessionId: 's', kind: 'form', form, language, firstAgent: 'interviewer', now: NOW.toISOString() });
  state.plan = { fields: form.fields.map((f) => ({ field_id: f.fieldId, label: f.label, intent: f.intent ?? '', required: f.required })) };
  state.bootstrap.country = language === 'ja' ? 'JP' : 'US';
  for (const field of state.fields) {
    if (field.fieldId in done) Object.assign(field, { status: 'done', value: done[field.fieldId] });
  }
  state.messages.push({
    messageId: 'm1',
    role: 'assistant',
    agent: 'interviewer',
    text: 'Next question',
    fieldId: asked,
    turnId: 't1',
    createdAt: NOW.toISOString(),
  } as FormSessionState['messages'][number]);
  return state;
}

describe('which field a message is about', () => {
  it('a correction with a new value of an earlier field goes to that field', () => {
    const state = session({ email: 'jane@example.com', size: 'M' }, 'start');
    expect(routeUserMessage(state, 'Sorry, typo - my email is jane.doe@example.com', NOW)).toEqual({ fieldId: 'email', correction: true });
  });

  it('a short option is read when the message names its field or says it changes something', () => {
    const state = session({ email: 'jane@example.com', size: 'XL' }, 'start', 'ja');
    expect(routeUserMessage(state, 'すみません、TシャツのサイズはXLじゃなくてLでお願いします。', NOW)).toEqual({
      fieldId: 'size',
      correction: true,
    });
    const en = session({ email: 'jane@example.com', size: 'M' }, 'start');
    expect(routeUserMessage(en, 'Oh wait, can I get a Small T-shirt instead of the Medium?', NOW)).toEqual({
      fieldId: 'size',
      correction: true,
    });
  });

  it('a date outranks the number inside it', () => {
    const state = session({ email: 'a@b.com', size: 'M', start: '2026-01-28', devices: '2' }, 'room');
    expect(routeUserMessage(state, 'Actually, I checked and it started on January 25, 2026, not the 28th.', NOW)).toEqual({
      fieldId: 'start',
      correction: true,
    });
  });

  it('the field whose value the message takes back is the one it corrects', () => {
    const state = session({ email: 'a@b.com', size: 'M', start: 'since March 2025', devices: '24' }, 'room');
    expect(routeUserMessage(state, "Sorry, I said 24 - it's actually 25 now, we bought more in March.", NOW)).toEqual({
      fieldId: 'devices',
      correction: true,
    });
  });

  it('referring to an earlier answer without a new value answers the question asked', () => {
    const state = session({ email: 'a@b.com', size: 'M', start: '2026-01-28', devices: '2', room: 'quiet room' }, 'requests');
    expect(routeUserMessage(state, 'As I said earlier, a room near the lift would help, my mother has bad knees.', NOW)).toEqual({
      fieldId: 'requests',
      correction: false,
    });
    const ja = session({ email: 'a@b.com', size: 'M', start: '2026-01-28', devices: '2', room: '和室' }, 'requests', 'ja');
    expect(routeUserMessage(ja, '先ほども申しましたが母の膝が悪いので、できればエレベーターに近いお部屋だとありがたいです。', NOW)).toEqual(
      { fieldId: 'requests', correction: false },
    );
  });

  it("a value of the open question's own kind answers it", () => {
    const state = session({ email: 'jane@example.com' }, 'size');
    expect(routeUserMessage(state, 'Sorry, L please', NOW)).toEqual({ fieldId: 'size', correction: false });
  });

  it('a field whose last correction could not be used is not corrected again by the same message', () => {
    const state = session({ email: 'a@b.com', size: 'M', start: '2026-01-28', devices: '2', room: 'quiet room' }, 'requests');
    const said = "Sorry, I said 2 earlier - it's 3 devices now";
    expect(routeUserMessage(state, said, NOW)).toEqual({ fieldId: 'devices', correction: true });
    const devices = state.fields.find((f) => f.fieldId === 'devices')!;
    devices.lastReview = { passed: false, feedback: 'not used', missing_facts: [], extracted_facts: [] };
    expect(routeUserMessage(state, "Sorry, it's 3 not 2", NOW)).toEqual({ fieldId: 'requests', correction: false });
  });
});

describe('what is not a correction', () => {
  it('"actually" inside a sentence only stresses, and one shared word does not name a field', () => {
    const state = session({ email: 'a@b.com', size: 'M', start: '2026-01-28', devices: '2', room: 'quiet room' }, 'requests');
    const text = 'The money would let me cut back my hours so I can actually focus on the devices I have to fix.';
    expect(routeUserMessage(state, text, NOW)).toEqual({ fieldId: 'requests', correction: false });
  });

  it('a "no" inside a change of mind does not take back a stored "no"', () => {
    const state = session({ email: 'a@b.com', room: 'no' }, 'requests');
    expect(routeUserMessage(state, 'The 14th. Actually no, make that the 15th.', NOW)).toEqual({ fieldId: 'requests', correction: false });
  });

  it('the same words already taken as a correction, sent again, answer the question on screen', () => {
    const state = session({ email: 'jane@example.com', size: 'M' }, 'start');
    const text = 'Sorry, typo - my email is jane.doe@example.com';
    expect(routeUserMessage(state, text, NOW)).toEqual({ fieldId: 'email', correction: true });
    state.messages.push({
      messageId: 'm2',
      role: 'user',
      agent: null,
      text,
      fieldId: 'email',
      correction: true,
      turnId: 't2',
      createdAt: NOW.toISOString(),
    } as FormSessionState['messages'][number]);
    expect(routeUserMessage(state, text, NOW)).toEqual({ fieldId: 'start', correction: false });
  });
});

/** A session of any form with `done` resolved and `asked` the last question shown. */
function stateFor(sessionForm: SessionForm, done: Record<string, string>, asked: string, language: 'en' | 'ja' = 'en'): FormSessionState {
  const state = newFormSession({
    sessionId: 's',
    kind: 'form',
    form: sessionForm,
    language,
    firstAgent: 'interviewer',
    now: NOW.toISOString(),
  });
  state.plan = {
    fields: sessionForm.fields.map((x) => ({ field_id: x.fieldId, label: x.label, intent: x.intent ?? '', required: x.required })),
  };
  state.bootstrap.country = language === 'ja' ? 'JP' : 'US';
  for (const x of state.fields) if (x.fieldId in done) Object.assign(x, { status: 'done', value: done[x.fieldId] });
  state.messages.push({
    messageId: 'm1',
    role: 'assistant',
    agent: 'interviewer',
    text: 'Next question',
    fieldId: asked,
    turnId: 't1',
    createdAt: NOW.toISOString(),
  } as FormSessionState['messages'][number]);
  return state;
}

describe('a day corrected by its weekday and day of the month', () => {
  const choir = SessionForm.parse({
    title: 'Choir audition',
    fields: [
      { id: 'f1', fieldId: 'years', label: 'Years of choral experience', intent: null, required: true, sortOrder: 1 },
      {
        id: 'f2',
        fieldId: 'day',
        label: 'Which day?',
        intent: 'Auditions are held on Saturday, September 13 and Sunday, September 14, 2025',
        required: true,
        sortOrder: 2,
      },
      { id: 'f3', fieldId: 'piece', label: 'What will you sing?', intent: null, required: true, sortOrder: 3 },
    ],
    facts: [],
  });

  it('goes to the date, not to a count that "the 14th" is not', () => {
    const state = stateFor(choir, { years: '6', day: '2025-09-13' }, 'piece');
    const text = "Oh wait, I said Saturday but I'm working that day — can you put me down for Sunday the 14th instead?";
    expect(routeUserMessage(state, text, NOW)).toEqual({ fieldId: 'day', correction: true });
  });
});

describe('a count corrected by naming its question', () => {
  const daycare = SessionForm.parse({
    title: 'Dog daycare',
    fields: [
      { id: 'f1', fieldId: 'days', label: 'How many days per week will your dog attend?', intent: null, required: true, sortOrder: 1 },
      { id: 'f2', fieldId: 'vet', label: "Vet's phone number", intent: null, required: false, sortOrder: 2 },
    ],
    facts: [],
  });

  it('"going back to the days question — 4 days a week, not 2" corrects the days', () => {
    const state = stateFor(daycare, { days: '2' }, 'vet');
    const text = 'Sorry, going back to the days question — my partner just reminded me we agreed on 4 days a week, not 2.';
    expect(routeUserMessage(state, text, NOW)).toEqual({ fieldId: 'days', correction: true });
  });
});

describe('two earlier fields with the same value', () => {
  const twoCounts = SessionForm.parse({
    title: '学童クラブ',
    fields: [
      { id: 'f1', fieldId: 'grade', label: '現在の学年は何年生ですか？', intent: null, required: true, sortOrder: 1 },
      { id: 'f2', fieldId: 'days', label: '1週間に何日ご利用になりますか？', intent: null, required: true, sortOrder: 2 },
      { id: 'f3', fieldId: 'reason', label: '入所を希望される理由', intent: null, required: true, sortOrder: 3 },
    ],
    facts: [
      {
        id: 'k1',
        formFieldId: 'f1',
        factKey: 'grade',
        fact: '児童の現在の学年。1〜6のいずれか',
        doneCriteria: '学年の数字が分かること',
        questioningHints: null,
      },
      {
        id: 'k2',
        formFieldId: 'f2',
        factKey: 'days',
        fact: '1週間あたりの利用日数（1〜6日）',
        doneCriteria: '日数が1つに決まっていること',
        questioningHints: null,
      },
    ],
  });

  it('the correction goes to the field whose words it shares', () => {
    const state = newFormSession({
      sessionId: 's',
      kind: 'form',
      form: twoCounts,
      language: 'ja',
      firstAgent: 'interviewer',
      now: NOW.toISOString(),
    });
    state.plan = {
      fields: twoCounts.fields.map((f) => ({ field_id: f.fieldId, label: f.label, intent: f.intent ?? '', required: f.required })),
    };
    state.bootstrap.country = 'JP';
    for (const f of state.fields) if (f.fieldId !== 'reason') Object.assign(f, { status: 'done', value: '4' });
    state.messages.push({
      messageId: 'm1',
      role: 'assistant',
      agent: 'interviewer',
      text: '理由は？',
      fieldId: 'reason',
      turnId: 't1',
      createdAt: NOW.toISOString(),
    } as FormSessionState['messages'][number]);
    const text = 'すみません、さっき週4日と言いましたが、妻と相談して週5日にすることにしました。';
    expect(routeUserMessage(state, text, NOW)).toEqual({ fieldId: 'days', correction: true });
  });
});
