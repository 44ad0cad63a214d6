import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { Api, loadForm, type Json } from '../support/api.js';
import { startStack, type Stack } from '../support/processes.js';
import { SseRecorder, type ReceivedEvent } from '../support/sse.js';

let stack: Stack;
let api: Api;

beforeAll(async () => {
  const id = randomUUID().slice(0, 8);
  stack = await startStack({
    env: { REDIS_URL: inject('redisUrl'), KEY_PREFIX: `it-${id}`, QUEUE_PREFIX: `{it-${id}}`, LOG_LEVEL: 'info' },
  });
  api = new Api(stack.url);
});
afterAll(async () => {
  await stack?.stop();
});

/** Event types of one turn, from its turn.started to its turn.completed. */
function turnTypes(events: ReceivedEvent[], turnId: string): string[] {
  const start = events.findIndex((e) => e.type === 'turn.started' && e.data.turnId === turnId);
  const end = events.findIndex((e) => (e.type === 'turn.completed' || e.type === 'turn.failed') && e.data.turnId === turnId);
  return events.slice(start, end + 1).map((e) => (e.type === 'state.changed' ? `state.changed:${String(e.data.type)}` : e.type));
}

function lastAssistant(events: ReceivedEvent[]): string {
  const lastMessage = events.filter((e) => e.type === 'message' && e.data.role === 'assistant').at(-1);
  return String(lastMessage?.data.text ?? '');
}

/** Sends a message and waits for its turn to finish; returns the assistant's reply. */
async function say(session: { sessionId: string; token: string }, sse: SseRecorder, message: string): Promise<{ turnId: string; reply: string }> {
  const response = await api.turn(session.sessionId, session.token, message);
  expect(response.status).toBe(202);
  const turnId = String(response.json.turnId);
  await sse.waitFor((evs) => evs.some((e) => e.type === 'turn.completed' && e.data.turnId === turnId), 20_000, `turn ${message}`);
  return { turnId, reply: lastAssistant(sse.events) };
}

function assertStreamInvariants(events: ReceivedEvent[]): void {
  const ids = events.map((e) => e.id);
  expect(ids).toEqual(ids.map((_, i) => i + 1)); // 1..n, no gap, no duplicate
}

describe('form interview end to end (HTTP + SSE, services as processes)', () => {
  it('an English respondent completes a 5-field form', async () => {
    const session = await api.createSession(loadForm('event-registration-en.json'));
    const sse = await SseRecorder.open(api.eventsUrl(session.sessionId, session.token));
    await sse.waitTurns(1);
    const greeting = sse.events;
    expect(greeting.map((e) => e.type)).toEqual(['turn.started', 'message', 'turn.completed']);
    expect(greeting[1]!.data).toMatchObject({ role: 'assistant', agent: 'greeter' });

    const t1 = await say(session, sse, 'English please');
    expect(turnTypes(sse.events, t1.turnId)).toEqual(['turn.started', 'message', 'state.changed:SET_LANGUAGE', 'message', 'turn.completed']);
    expect(t1.reply).toMatch(/country/i);

    const t2 = await say(session, sse, 'I live in Canada');
    expect(turnTypes(sse.events, t2.turnId)).toEqual(['turn.started', 'message', 'state.changed:SET_COUNTRY', 'message', 'turn.completed']);
    expect(t2.reply).toMatch(/city|time zone/i);

    const t3 = await say(session, sse, 'Toronto');
    expect(turnTypes(sse.events, t3.turnId)).toEqual([
      'turn.started',
      'message',
      'state.changed:SET_TIMEZONE',
      'agent.changed',
      'state.changed:PLAN_CREATED',
      'agent.changed',
      'state.changed:FIELD_STATUS',
      'message',
      'turn.completed',
    ]);
    const tz = sse.events.find((e) => e.type === 'state.changed' && e.data.type === 'SET_TIMEZONE')!;
    expect((tz.data.payload as Json).timezone).toBe('America/Toronto');
    const plan = sse.events.find((e) => e.type === 'state.changed' && e.data.type === 'PLAN_CREATED')!;
    expect(((plan.data.payload as Json).fields as Json[]).map((f) => f.field_id)).toEqual([
      'full_name',
      'email',
      'attendees',
      'motivation',
      'dietary_notes',
    ]);

    const name = await say(session, sse, 'Jane Doe');
    expect(turnTypes(sse.events, name.turnId)).toEqual([
      'turn.started',
      'message',
      'state.changed:FIELD_STATUS', // reviewing
      'agent.changed', // → reviewer
      'review',
      'state.changed:FIELD_VALUE',
      'state.changed:FIELD_STATUS', // done
      'agent.changed', // → interviewer
      'state.changed:FIELD_STATUS', // next field interviewing
      'message',
      'turn.completed',
    ]);
    const badEmail = await say(session, sse, 'jane@');
    const review1 = sse.events.filter((e) => e.type === 'review').at(-1)!;
    expect(review1.data).toMatchObject({ fieldId: 'email', passed: false });
    expect(badEmail.reply.length).toBeGreaterThan(0);
    await say(session, sse, 'Sorry, it is jane.doe@example.com');
    await say(session, sse, 'Two of us');
    const motivation = await say(session, sse, 'I want to learn how to build reliable event-driven systems with queues');
    expect(sse.events.filter((e) => e.type === 'review').at(-1)!.data).toMatchObject({ fieldId: 'motivation', passed: false });
    expect(motivation.reply.length).toBeGreaterThan(0);
    await say(session, sse, 'I work as a backend engineer at a logistics company');
    const last = await say(session, sse, 'skip');
    await sse.waitFor((evs) => evs.some((e) => e.type === 'session.completed'), 5_000, 'session.completed');
    expect(last.reply.length).toBeGreaterThan(0);
    assertStreamInvariants(sse.events);

    const snap = await api.call('GET', `/v1/sessions/${session.sessionId}`, { token: session.token });
    expect(snap.status).toBe(200);
    expect(snap.json).toMatchObject({
      status: 'awaiting_confirmation',
      bootstrap: { language: 'en', country: 'CA', timezone: 'America/Toronto' },
      collectedFields: { full_name: 'Jane Doe', email: 'jane.doe@example.com', attendees: '2' },
      turn: { active: null, queued: 0 },
    });
    expect((snap.json.fields as Json[]).map((f) => [f.fieldId, f.status])).toEqual([
      ['full_name', 'done'],
      ['email', 'done'],
      ['attendees', 'done'],
      ['motivation', 'done'],
      ['dietary_notes', 'skipped'],
    ]);
    expect(snap.json.messages.length).toBe(sse.events.filter((e) => e.type === 'message').length);

    const submitted = await api.call('POST', `/v1/sessions/${session.sessionId}/submit`, { token: session.token });
    expect(submitted.status).toBe(200);
    expect(submitted.json.collectedFields.email).toBe('jane.doe@example.com');
    const after = await api.turn(session.sessionId, session.token, 'one more thing');
    expect(after.status).toBe(409);

    const runSteps = await api.call('GET', `/v1/sessions/${session.sessionId}/runsteps`, { token: session.token });
    const tools = (runSteps.json.runSteps as Json[]).map((r) => r.toolName);
    expect(tools.filter((t) => t === 'review')).toHaveLength(7);
    expect(tools).toContain('create_plan');
    sse.close();
  });

  it('a Japanese respondent completes the same form in Japanese', async () => {
    const session = await api.createSession(loadForm('event-registration-ja.json'));
    const sse = await SseRecorder.open(api.eventsUrl(session.sessionId, session.token));
    await sse.waitTurns(1);
    expect(lastAssistant(sse.events)).toMatch(/日本語/);

    const lang = await say(session, sse, '日本語でお願いします');
    expect(turnTypes(sse.events, lang.turnId)).toEqual(['turn.started', 'message', 'state.changed:SET_LANGUAGE', 'message', 'turn.completed']);
    expect(lang.reply).toMatch(/国/);

    // Tokyo names a city of a single-zone country: country and time zone in one answer, then the first question.
    const place = await say(session, sse, '東京に住んでいます');
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

    await say(session, sse, '山田太郎');
    await say(session, sse, 'taro.yamada@example.jp');
    const unknown = await say(session, sse, 'わかりません');
    expect(sse.events.filter((e) => e.type === 'review').at(-1)!.data).toMatchObject({ fieldId: 'attendees', passed: false });
    expect(unknown.reply).toMatch(/人数/);
    await say(session, sse, '3人です');
    const goal = await say(session, sse, 'Rustの非同期処理を学びたいです');
    const followUp = sse.events.filter((e) => e.type === 'review').at(-1)!.data;
    expect(followUp).toMatchObject({ fieldId: 'motivation', passed: false, missingFacts: ['現在の職業や経歴'] });
    expect(goal.reply).toMatch(/職業|経歴/);
    await say(session, sse, 'バックエンドエンジニアとして働いています');
    const done = await say(session, sse, 'スキップ');
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
    await say(session, sse, 'I live in Tokyo');
    await say(session, sse, 'Jane Doe');
    await say(session, sse, 'no idea');
    // The last try says what is needed, gives an example and the way out.
    const lastTry = await say(session, sse, "I don't know");
    expect(lastTry.reply).toBeTruthy();
    const statuses = sse.events.filter((e) => e.type === 'state.changed' && e.data.type === 'FIELD_STATUS').map((e) => e.data.payload as Json);
    expect(statuses).toContainEqual({ fieldId: 'email', status: 'done', needsReview: true, reason: 'max_follow_ups' });
    // The email is never asked again.
    const asked = sse.events.filter((e) => e.type === 'message' && e.data.role === 'assistant').map((e) => String(e.data.text));
    expect(asked.filter((t) => /email/i.test(t))).toHaveLength(2);
    await say(session, sse, '2');
    await say(session, sse, 'I want to learn about queues and stream processing');
    await say(session, sse, 'I am a student of computer science');
    await say(session, sse, 'skip');
    const completed = await sse.waitFor((evs) => evs.some((e) => e.type === 'session.completed'), 5_000, 'session.completed');
    expect(completed.find((e) => e.type === 'session.completed')!.data).toMatchObject({ needsReview: ['email'] });
    const snap = await api.call('GET', `/v1/sessions/${session.sessionId}`, { token: session.token });
    expect(snap.json.needsReview).toEqual(['email']);
    expect((snap.json.fields as Json[]).find((f) => f.fieldId === 'email')).toMatchObject({ status: 'done', needsReview: true, value: "I don't know" });
    const submitted = await api.call('POST', `/v1/sessions/${session.sessionId}/submit`, { token: session.token });
    expect(submitted.status).toBe(200);
    expect(submitted.json.needsReview).toEqual(['email']);
    sse.close();
  });

  it('a correction of an earlier answer and a value given ahead of its question, through the running services', async () => {
    const session = await api.createSession(loadForm('event-registration-en.json'), 'form', { language: 'en' });
    const sse = await SseRecorder.open(api.eventsUrl(session.sessionId, session.token));
    await sse.waitTurns(1);
    await say(session, sse, 'I live in Tokyo');
    // The name answer also carries the email: the next question confirms it instead of asking.
    const confirm = await say(session, sse, 'Jane Doe, and my email is jane@example.com');
    expect(confirm.reply).toContain('jane@example.com');
    await say(session, sse, 'yes');
    const attendees = await say(session, sse, 'Actually, my email is jane.doe@example.org');
    const values = sse.events.filter((e) => e.type === 'state.changed' && e.data.type === 'FIELD_VALUE').map((e) => e.data.payload as Json);
    expect(values.at(-1)).toEqual({ fieldId: 'email', value: 'jane.doe@example.org' });
    expect(attendees.reply).toContain('jane.doe@example.org');
    expect(attendees.reply).toMatch(/number of attendees/i);
    await say(session, sse, '2');
    const snap = await api.call('GET', `/v1/sessions/${session.sessionId}`, { token: session.token });
    expect(snap.json.collectedFields).toMatchObject({ full_name: 'Jane Doe', email: 'jane.doe@example.org', attendees: '2' });
    const messages = snap.json.messages as Json[];
    expect(messages.find((m) => m.text === 'Actually, my email is jane.doe@example.org')).toMatchObject({ fieldId: 'email' });
    sse.close();
  });
});
