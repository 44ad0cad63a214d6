import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { Api, loadForm, type Json } from '../support/api.js';
import { startFakeOpenAi } from '../support/fake-openai.js';
import { startStack, type Stack } from '../support/processes.js';
import { SseRecorder } from '../support/sse.js';

/**
 * LLM_PROVIDER=openai through the whole stack against a fake OpenAI-compatible
 * server: the greeter's real tools and loop, retries of upstream errors,
 * malformed arguments fed back to the model, and turn.failed when retries run out.
 */
let stack: Stack;
let fake: Awaited<ReturnType<typeof startFakeOpenAi>>;
let api: Api;

beforeAll(async () => {
  fake = await startFakeOpenAi();
  const id = randomUUID().slice(0, 8);
  stack = await startStack({
    env: {
      REDIS_URL: inject('redisUrl'),
      KEY_PREFIX: `oa-${id}`,
      QUEUE_PREFIX: `{oa-${id}}`,
      LLM_PROVIDER: 'openai',
      OPENAI_BASE_URL: fake.url,
      OPENAI_API_KEY: 'sk-test',
      GREETER_MODEL: 'greeter-model',
      LLM_MAX_RETRIES: '1',
      JOB_ATTEMPTS: '1',
    },
    services: ['greeter'],
  });
  api = new Api(stack.url);
});
afterAll(async () => {
  await stack?.stop();
  await fake?.close();
});

const call = (name: string, args: unknown) => ({
  toolCalls: [{ name, arguments: typeof args === 'string' ? args : JSON.stringify(args) }],
});

describe('openai provider end to end', () => {
  it('fails a turn the model refuses with model_refused at once (no reminder calls), and the session goes on', async () => {
    fake.enqueue(call('ask', { message: 'Hello! Japanese or English?' }));
    const session = await api.createSession(loadForm('event-registration-en.json'));
    const sse = await SseRecorder.open(api.eventsUrl(session.sessionId, session.token));
    await sse.waitTurns(1);
    const before = fake.requests.length;
    fake.enqueue({
      status: 200,
      body: {
        id: 'chatcmpl-r',
        object: 'chat.completion',
        created: 0,
        model: 'greeter-model',
        choices: [
          { index: 0, finish_reason: 'stop', message: { role: 'assistant', content: null, refusal: 'I can’t help with that request.' } },
        ],
        usage: { prompt_tokens: 9, completion_tokens: 4, total_tokens: 13 },
      },
    });
    const refused = await api.turn(session.sessionId, session.token, 'English please');
    await sse.waitTurns(2);
    expect(sse.events.at(-1)).toMatchObject({
      type: 'turn.failed',
      data: {
        turnId: refused.json.turnId,
        error: { code: 'model_refused', message: expect.stringMatching(/can’t help with that request/) },
      },
    });
    // One call for the refused turn: no "You still need to" reminders after it.
    expect(fake.requests.length - before).toBe(1);
    fake.enqueue(call('set_language', { language: 'en' }), call('ask', { message: 'Which country do you live in?' }));
    await api.turn(session.sessionId, session.token, 'English please');
    await sse.waitTurns(3);
    expect(sse.events.at(-2)!.data.text).toBe('Which country do you live in?');
    // A turn that fails after running a tool: the run is audited as discarded, and its effect is gone.
    const refusal = {
      status: 200,
      body: {
        id: 'chatcmpl-r2',
        object: 'chat.completion',
        created: 0,
        model: 'greeter-model',
        choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: null, refusal: 'No.' } }],
      },
    };
    fake.enqueue(call('set_country', { country: 'JP' }), refusal);
    const halfway = await api.turn(session.sessionId, session.token, 'Japan');
    await sse.waitTurns(4);
    expect(sse.events.at(-1)).toMatchObject({
      type: 'turn.failed',
      data: { turnId: halfway.json.turnId, error: { code: 'model_refused' } },
    });
    const audit = (await api.call('GET', `/v1/sessions/${session.sessionId}/runsteps`, { token: session.token })).json.runSteps as Json[];
    expect(audit.filter((run) => run.turnId === halfway.json.turnId).map((run) => [run.toolName, run.discarded])).toEqual([
      ['set_country', true],
      ['turn.failed', true],
    ]);
    expect((await api.call('GET', `/v1/sessions/${session.sessionId}`, { token: session.token })).json.bootstrap.country).toBeNull();
    sse.close();
    expect(fake.pending()).toBe(0);
    // The next test counts requests from its own first one.
    fake.requests.length = 0;
  });

  it('runs the greeter on a remote model, retrying 429 and feeding malformed arguments back', async () => {
    fake.enqueue(call('ask', { message: 'Hello! Japanese or English?' }));
    const session = await api.createSession(loadForm('event-registration-en.json'));
    const sse = await SseRecorder.open(api.eventsUrl(session.sessionId, session.token));
    await sse.waitTurns(1);
    expect(sse.events[1]!.data).toMatchObject({ role: 'assistant', agent: 'greeter', text: 'Hello! Japanese or English?' });
    expect(fake.requests[0]!.body.model).toBe('greeter-model');
    // The turn's model usage, as the server reported it (11 prompt / 7 completion tokens a call by default).
    expect(sse.events.find((e) => e.type === 'turn.completed')!.data.usage).toEqual({
      modelCalls: 1,
      promptTokens: 11,
      cachedTokens: 0,
      completionTokens: 7,
      reasoningTokens: 0,
    });
    expect(fake.requests[0]!.body.tools.map((t: Json) => t.function.name)).toEqual(['ask', 'set_language', 'set_country', 'set_timezone']);

    fake.enqueue(
      { status: 429, headers: { 'retry-after': '0' } },
      call('set_language', '{"language": '),
      call('set_language', { language: 'en' }),
      call('ask', { message: 'Which country do you live in?' }),
    );
    await api.turn(session.sessionId, session.token, 'English please');
    await sse.waitTurns(2);
    const types = sse.events.slice(3).map((e) => e.type);
    expect(types).toEqual(['turn.started', 'message', 'state.changed', 'message', 'turn.completed']);
    expect(sse.events.at(-2)!.data.text).toBe('Which country do you live in?');
    // request 3 (after the 429 retry) carried the error for the malformed call back to the model
    // The state follows the history: the tool result is the message before it.
    const feedback = fake.requests[3]!.body.messages.at(-2);
    expect(fake.requests[3]!.body.messages.at(-1)).toMatchObject({ role: 'system', content: expect.stringMatching(/^Current state:/) });
    expect(feedback.role).toBe('tool');
    expect(JSON.parse(feedback.content)).toMatchObject({
      status: 'error',
      result: { message: expect.stringMatching(/Invalid JSON for set_language/) },
    });
    const steps = (await api.call('GET', `/v1/sessions/${session.sessionId}/runsteps`, { token: session.token })).json.runSteps as Json[];
    expect(steps.map((r) => [r.toolName, r.output.status])).toEqual([
      ['ask', 'success'],
      ['set_language', 'error'],
      ['set_language', 'success'],
      ['ask', 'success'],
    ]);
    expect(steps[1]!.input).toBe('{"language": ');
    // Each model call's tokens sit on the first run step it caused: the 429 retry is one call, three calls made four steps.
    expect(steps.map((r) => r.usage?.promptTokens ?? null)).toEqual([11, 11, 11, 11]);
    const snapshot = await api.call('GET', `/v1/sessions/${session.sessionId}`, { token: session.token });
    expect(snapshot.json.usage).toMatchObject({ modelCalls: 4, promptTokens: 44, completionTokens: 28 });

    // upstream down beyond the retries: the turn fails, the session stays usable
    fake.enqueue({ status: 500, headers: { 'retry-after': '0' } }, { status: 500, headers: { 'retry-after': '0' } });
    const failed = await api.turn(session.sessionId, session.token, 'I live in Japan');
    await sse.waitTurns(3);
    expect(sse.events.at(-1)).toMatchObject({
      type: 'turn.failed',
      data: { turnId: failed.json.turnId, error: { code: 'provider_unavailable' } },
    });
    // The failed turn is in the audit too: its failure recorded as a run step, with the error.
    const audit = (await api.call('GET', `/v1/sessions/${session.sessionId}/runsteps`, { token: session.token })).json.runSteps as Json[];
    expect(audit.filter((run) => run.turnId === failed.json.turnId)).toEqual([
      expect.objectContaining({
        toolName: 'turn.failed',
        discarded: true,
        output: { status: 'error', result: { code: 'provider_unavailable', message: expect.any(String) } },
      }),
    ]);
    fake.enqueue(
      call('set_country', { country: 'JP' }),
      call('set_timezone', { timezone: null, hint: 'Japan' }),
      call('ask', { message: 'ok' }),
    );
    await api.turn(session.sessionId, session.token, 'I live in Japan');
    await sse.waitFor((evs) => evs.some((e) => e.type === 'agent.changed' && e.data.to === 'architect'), 15_000, 'hand-off to architect');
    const snap = await api.call('GET', `/v1/sessions/${session.sessionId}`, { token: session.token });
    expect(snap.json.bootstrap).toEqual({ language: 'en', country: 'JP', timezone: 'Asia/Tokyo' });
    sse.close();
  });
});
