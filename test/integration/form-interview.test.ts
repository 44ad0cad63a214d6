import { beforeAll, describe, expect, it } from 'vitest';
import { Api, loadForm, type Json } from '../support/api.js';
import { sharedStack } from '../support/shared-stack.js';
import { SseRecorder } from '../support/sse.js';
import { assertStreamInvariants, lastAssistant, say, turnTypes } from '../support/interview-turns.js';

let api: Api;

beforeAll(async () => {
  const stack = await sharedStack();
  api = new Api(stack.url);
});

describe('form interview end to end (HTTP + SSE, services as processes)', () => {
  it('a Japanese respondent completes the same form in Japanese', async () => {
    const session = await api.createSession(loadForm('event-registration-ja.json'));
    const sse = await SseRecorder.open(api.eventsUrl(session.sessionId, session.token));
    await sse.waitTurns(1);
    expect(lastAssistant(sse.events)).toMatch(/日本語/);

    const lang = await say(api, session, sse, '日本語でお願いします');
    expect(turnTypes(sse.events, lang.turnId)).toEqual([
      'turn.started',
      'message',
      'state.changed:SET_LANGUAGE',
      'message',
      'turn.completed',
    ]);
    expect(lang.reply).toMatch(/国/);

    // Tokyo names a city of a single-zone country: country and time zone in one answer, then the first question.
    const place = await say(api, session, sse, '東京に住んでいます');
    expect(turnTypes(sse.events, place.turnId)).toEqual([
      'turn.started',
      'message',
      'state.changed:SET_COUNTRY',
      'state.changed:SET_TIMEZONE',
      'agent.changed',
      'state.changed:PLAN_CREATED',
      'agent.changed',
      'state.changed:FIELD_STATUS',
      'message',
      'turn.completed',
    ]);
    expect(place.reply).toMatch(/氏名/);

    await say(api, session, sse, '山田太郎');
    await say(api, session, sse, 'taro.yamada@example.jp');
    const unknown = await say(api, session, sse, 'わかりません');
    expect(sse.events.filter((e) => e.type === 'review').at(-1)!.data).toMatchObject({ fieldId: 'attendees', passed: false });
    expect(unknown.reply).toMatch(/人数/);
    await say(api, session, sse, '3人です');
    const goal = await say(api, session, sse, 'Rustの非同期処理を学びたいです');
    const followUp = sse.events.filter((e) => e.type === 'review').at(-1)!.data;
    expect(followUp).toMatchObject({ fieldId: 'motivation', passed: false, missingFacts: ['現在の職業や経歴'] });
    expect(goal.reply).toMatch(/職業|経歴/);
    await say(api, session, sse, 'バックエンドエンジニアとして働いています');
    const done = await say(api, session, sse, 'スキップ');
    await sse.waitFor((evs) => evs.some((e) => e.type === 'session.completed'), 5_000, 'session.completed');
    expect(done.reply).toMatch(/山田太郎/);
    assertStreamInvariants(sse.events);
    // every assistant message after the language choice is in Japanese
    const assistant = sse.events.filter((e) => e.type === 'message' && e.data.role === 'assistant').slice(1);
    for (const m of assistant) expect(String(m.data.text)).toMatch(/[ぁ-んァ-ヶ一-龠]/);

    const completed = sse.events.find((e) => e.type === 'session.completed')!;
    expect(completed.data.collectedFields).toEqual({
      full_name: '山田太郎',
      email: 'taro.yamada@example.jp',
      attendees: '3',
      motivation: 'Rustの非同期処理を学びたいです\nバックエンドエンジニアとして働いています',
    });
    const snap = await api.call('GET', `/v1/sessions/${session.sessionId}`, { token: session.token });
    expect(snap.json).toMatchObject({
      status: 'awaiting_confirmation',
      bootstrap: { language: 'ja', country: 'JP', timezone: 'Asia/Tokyo' },
      collectedFields: completed.data.collectedFields,
    });
    expect((snap.json.fields as Json[]).map((f) => [f.fieldId, f.status, f.followUps])).toEqual([
      ['full_name', 'done', 0],
      ['email', 'done', 0],
      ['attendees', 'done', 1],
      ['motivation', 'done', 1],
      ['dietary_notes', 'skipped', 0],
    ]);
    expect((await api.call('POST', `/v1/sessions/${session.sessionId}/submit`, { token: session.token })).status).toBe(200);
    sse.close();
  });

  it('a required field the respondent cannot answer ends after the last try: kept as given, flagged needsReview, and the interview completes', async () => {
    const form = loadForm('event-registration-en.json');
    form.compliance = { maxFollowUpsPerField: 1 };
    const session = await api.createSession(form, 'form', { language: 'en' });
    const sse = await SseRecorder.open(api.eventsUrl(session.sessionId, session.token));
    await sse.waitTurns(1);
    await say(api, session, sse, 'I live in Tokyo');
    await say(api, session, sse, 'Jane Doe');
    await say(api, session, sse, 'no idea');
    // The last try says what is needed, gives an example and the way out.
    const lastTry = await say(api, session, sse, "I don't know");
    expect(lastTry.reply).toBeTruthy();
    const statuses = sse.events
      .filter((e) => e.type === 'state.changed' && e.data.type === 'FIELD_STATUS')
      .map((e) => e.data.payload as Json);
    expect(statuses).toContainEqual({ fieldId: 'email', status: 'done', needsReview: true, reason: 'max_follow_ups' });
    // The email is never asked again.
    const asked = sse.events.filter((e) => e.type === 'message' && e.data.role === 'assistant').map((e) => String(e.data.text));
    expect(asked.filter((t) => /email/i.test(t))).toHaveLength(2);
    await say(api, session, sse, '2');
    await say(api, session, sse, 'I want to learn about queues and stream processing');
    await say(api, session, sse, 'I am a student of computer science');
    await say(api, session, sse, 'skip');
    const completed = await sse.waitFor((evs) => evs.some((e) => e.type === 'session.completed'), 5_000, 'session.completed');
    expect(completed.find((e) => e.type === 'session.completed')!.data).toMatchObject({ needsReview: ['email'] });
    const snap = await api.call('GET', `/v1/sessions/${session.sessionId}`, { token: session.token });
    expect(snap.json.needsReview).toEqual(['email']);
    expect((snap.json.fields as Json[]).find((f) => f.fieldId === 'email')).toMatchObject({
      status: 'done',
      needsReview: true,
      value: "I don't know",
    });
    const submitted = await api.call('POST', `/v1/sessions/${session.sessionId}/submit`, { token: session.token });
    expect(submitted.status).toBe(200);
    expect(submitted.json.needsReview).toEqual(['email']);
    sse.close();
  });

  it('a correction of an earlier answer and a value given ahead of its question, through the running services', async () => {
    const session = await api.createSession(loadForm('event-registration-en.json'), 'form', { language: 'en' });
    const sse = await SseRecorder.open(api.eventsUrl(session.sessionId, session.token));
    await sse.waitTurns(1);
    await say(api, session, sse, 'I live in Tokyo');
    // The name answer also carries the email: the next question confirms it instead of asking.
    const confirm = await say(api, session, sse, 'Jane Doe, and my email is jane@example.com');
    expect(confirm.reply).toContain('jane@example.com');
    await say(api, session, sse, 'yes');
    const attendees = await say(api, session, sse, 'Actually, my email is jane.doe@example.org');
    const values = sse.events.filter((e) => e.type === 'state.changed' && e.data.type === 'FIELD_VALUE').map((e) => e.data.payload as Json);
    expect(values.at(-1)).toEqual({ fieldId: 'email', value: 'jane.doe@example.org' });
    expect(attendees.reply).toContain('jane.doe@example.org');
    expect(attendees.reply).toMatch(/number of attendees/i);
    await say(api, session, sse, '2');
    const snap = await api.call('GET', `/v1/sessions/${session.sessionId}`, { token: session.token });
    expect(snap.json.collectedFields).toMatchObject({ full_name: 'Jane Doe', email: 'jane.doe@example.org', attendees: '2' });
    const messages = snap.json.messages as Json[];
    expect(messages.find((m) => m.text === 'Actually, my email is jane.doe@example.org')).toMatchObject({ fieldId: 'email' });
    sse.close();
  });
});
