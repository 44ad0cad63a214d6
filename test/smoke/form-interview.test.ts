import { beforeAll, describe, expect, it } from 'vitest';
import { Api, loadForm, type Json } from '../support/api.js';
import { assertStreamInvariants, say, turnTypes } from '../support/interview-turns.js';
import { sharedStack } from '../support/shared-stack.js';
import { SseRecorder } from '../support/sse.js';

/**
 * The fast layer's one end-to-end check (`npm run test:fast`): the gateway and
 * the four form agents as separate processes on a real Redis, one whole
 * interview over HTTP and SSE — greeting, language, country and time zone,
 * the plan, every field reviewed (one refused and asked again), skip,
 * completion, the snapshot, submit and the run steps. The other interview
 * cases run in the full layer (test/integration/form-interview.test.ts).
 */
let api: Api;

beforeAll(async () => {
  const stack = await sharedStack();
  api = new Api(stack.url);
});

describe('form interview end to end (HTTP + SSE, services as processes)', () => {
  it('an English respondent completes a 5-field form', async () => {
    const session = await api.createSession(loadForm('event-registration-en.json'));
    const sse = await SseRecorder.open(api.eventsUrl(session.sessionId, session.token));
    await sse.waitTurns(1);
    const greeting = sse.events;
    expect(greeting.map((e) => e.type)).toEqual(['turn.started', 'message', 'turn.completed']);
    expect(greeting[1]!.data).toMatchObject({ role: 'assistant', agent: 'greeter' });

    const t1 = await say(api, session, sse, 'English please');
    expect(turnTypes(sse.events, t1.turnId)).toEqual([
      'turn.started',
      'message',
      'state.changed:SET_LANGUAGE',
      'message',
      'turn.completed',
    ]);
    expect(t1.reply).toMatch(/country/i);

    const t2 = await say(api, session, sse, 'I live in Canada');
    expect(turnTypes(sse.events, t2.turnId)).toEqual(['turn.started', 'message', 'state.changed:SET_COUNTRY', 'message', 'turn.completed']);
    expect(t2.reply).toMatch(/city|time zone/i);

    const t3 = await say(api, session, sse, 'Toronto');
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

    const name = await say(api, session, sse, 'Jane Doe');
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
    const badEmail = await say(api, session, sse, 'jane@');
    const review1 = sse.events.filter((e) => e.type === 'review').at(-1)!;
    expect(review1.data).toMatchObject({ fieldId: 'email', passed: false });
    expect(badEmail.reply.length).toBeGreaterThan(0);
    await say(api, session, sse, 'Sorry, it is jane.doe@example.com');
    await say(api, session, sse, 'Two of us');
    const motivation = await say(api, session, sse, 'I want to learn how to build reliable event-driven systems with queues');
    expect(sse.events.filter((e) => e.type === 'review').at(-1)!.data).toMatchObject({ fieldId: 'motivation', passed: false });
    expect(motivation.reply.length).toBeGreaterThan(0);
    await say(api, session, sse, 'I work as a backend engineer at a logistics company');
    const last = await say(api, session, sse, 'skip');
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
});
