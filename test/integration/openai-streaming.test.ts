import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { Api, loadForm, type Json } from '../support/api.js';
import { startFakeOpenAi, type FakeOpenAi, type FakeRequest } from '../support/fake-openai.js';
import { interviewModel } from '../support/interview-model.js';
import { startStack, type Stack } from '../support/processes.js';
import { SseRecorder, type ReceivedEvent } from '../support/sse.js';

/**
 * LLM_PROVIDER=openai through the stack against a fake OpenAI-compatible
 * server that streams, with a model that reads the prompts
 * (support/interview-model.ts): a whole interview with its questions
 * arriving as deltas before their messages, an application whose questions
 * are never streamed before their quick-check, and what real servers do:
 * a refusal, a `length` stop, empty tool-call ids, a context-length error,
 * a cancelled turn.
 */
let stack: Stack;
let fake: FakeOpenAi;
let api: Api;
const model = interviewModel({ chunkChars: 6, chunkDelayMs: 2 });

const AGENTS = ['greeter', 'architect', 'interviewer', 'reviewer', 'checker'] as const;

beforeAll(async () => {
  fake = await startFakeOpenAi({ estimateUsage: true });
  fake.respondWith(model);
  const id = randomUUID().slice(0, 8);
  stack = await startStack({
    env: {
      REDIS_URL: inject('redisUrl'),
      KEY_PREFIX: `os-${id}`,
      QUEUE_PREFIX: `{os-${id}}`,
      LLM_PROVIDER: 'openai',
      OPENAI_BASE_URL: fake.url,
      OPENAI_API_KEY: 'sk-test',
      LLM_MAX_RETRIES: '1',
      JOB_ATTEMPTS: '1',
      ...Object.fromEntries(AGENTS.map((agent) => [`${agent.toUpperCase()}_MODEL`, agent])),
    },
    services: [...AGENTS],
  });
  api = new Api(stack.url);
});
afterAll(async () => {
  await stack?.stop();
  await fake?.close();
});
afterEach(() => {
  fake.respondWith(model);
});

/** The text a client rebuilds from a message's deltas (each starts at its offset). */
function streamedText(sse: SseRecorder, messageId: string): string {
  let text = '';
  for (const delta of sse.live.filter((d) => d.data.messageId === messageId))
    text = text.slice(0, Number(delta.data.offset ?? text.length)) + String(delta.data.delta);
  return text;
}

const turnEnds = (events: ReceivedEvent[]) => events.filter((e) => e.type === 'turn.completed' || e.type === 'turn.failed');

async function interviewUpToFirstQuestion(form = 'event-registration-en.json', kind = 'form') {
  const session = await api.createSession(loadForm(form), kind);
  const sse = await SseRecorder.open(api.eventsUrl(session.sessionId, session.token));
  await sse.waitTurns(1);
  await api.turn(session.sessionId, session.token, 'English please. I live in Tokyo, Japan.');
  await sse.waitTurns(2);
  return { ...session, sse };
}

describe('streaming through the stack (openai provider)', () => {
  it('runs a whole five-field interview: every question appears as deltas before its message, two model calls per answer', async () => {
    const { sessionId, token, sse } = await interviewUpToFirstQuestion();
    const answers = [
      'Taro Yamada',
      'taro@example.com',
      'No dietary requirements',
      '2',
      'I want to learn how teams run Redis streams in production',
    ];
    const perAnswer: Json[] = [];
    for (const [i, answer] of answers.entries()) {
      await api.turn(sessionId, token, answer);
      const [end] = (await sse.waitTurns(3 + i)).filter((e) => e.type === 'turn.completed').slice(-1);
      expect(end!.type).toBe('turn.completed');
      perAnswer.push(end!.data.usage as Json);
    }
    await sse.waitFor((evs) => evs.some((e) => e.type === 'session.completed'), 10_000, 'session.completed');
    const snapshot = (await api.call('GET', `/v1/sessions/${sessionId}`, { token })).json;
    expect(Object.keys(snapshot.collectedFields).sort()).toEqual(['attendees', 'dietary_notes', 'email', 'full_name', 'motivation']);

    // Every interviewer question was streamed: its deltas arrived before the stored message, and rebuild its text.
    const questions = sse.events.filter((e) => e.type === 'message' && e.data.agent === 'interviewer');
    expect(questions).toHaveLength(6);
    for (const question of questions) {
      const deltas = sse.live.filter((d) => d.data.messageId === question.data.messageId);
      expect(deltas.length).toBeGreaterThan(1);
      expect(deltas.every((d) => d.after <= sse.events.indexOf(question))).toBe(true);
      expect(streamedText(sse, String(question.data.messageId)).trim()).toBe(question.data.text);
      // A delta carries the id of the last stored event before it: Last-Event-ID stays where a replay resumes.
      expect(deltas.every((d) => d.id === sse.events[d.after - 1]!.id)).toBe(true);
    }
    // The reviewer is called by rule, so an answer costs the reviewer's call and the next question's.
    expect(perAnswer.map((usage) => usage.modelCalls)).toEqual([2, 2, 2, 2, 2]);
    // The stable prompt comes first: later calls reuse a cached prefix.
    expect(perAnswer.slice(1).some((usage) => usage.cachedTokens > 0)).toBe(true);
    console.log(`[measure] per answered question: ${JSON.stringify(perAnswer)}`);

    // A replay has the stored events only: no delta is ever replayed.
    const replay = await SseRecorder.open(api.eventsUrl(sessionId, token));
    await replay.waitFor((evs) => evs.length >= sse.events.length);
    expect(replay.live).toEqual([]);
    expect(replay.events.map((e) => e.id)).toEqual(sse.events.map((e) => e.id));
    replay.close();
    sse.close();
  });

  it('streams nothing of an application question before its quick-check has passed', async () => {
    const { sse } = await interviewUpToFirstQuestion('engineer-application-en.json', 'application');
    const question = sse.events.filter((e) => e.type === 'message' && e.data.agent === 'interviewer').at(-1)!;
    const checks = sse.events.filter((e) => e.type === 'check');
    expect(checks.at(-1)!.data.passed).toBe(true);
    expect(sse.events.indexOf(checks.at(-1)!)).toBeLessThan(sse.events.indexOf(question));
    expect(sse.live.filter((d) => d.data.messageId === question.data.messageId)).toEqual([]);
    sse.close();
  });

  it('fails a refused turn with model_refused and withdraws nothing it did not stream; the session goes on', async () => {
    const { sessionId, token, sse } = await interviewUpToFirstQuestion();
    fake.respondWith((req) =>
      req.body.model === 'interviewer'
        ? {
            status: 200,
            body: {
              id: 'r',
              object: 'chat.completion',
              created: 0,
              model: 'interviewer',
              choices: [
                { index: 0, finish_reason: 'stop', message: { role: 'assistant', content: null, refusal: 'I will not ask that.' } },
              ],
            },
          }
        : model(req),
    );
    const refused = await api.turn(sessionId, token, 'Taro Yamada');
    await sse.waitTurns(3);
    expect(turnEnds(sse.events).at(-1)).toMatchObject({
      type: 'turn.failed',
      data: { turnId: refused.json.turnId, error: { code: 'model_refused', message: expect.stringMatching(/I will not ask that/) } },
    });
    fake.respondWith(model);
    await api.turn(sessionId, token, 'Taro Yamada');
    await sse.waitTurns(4);
    expect(turnEnds(sse.events).at(-1)!.type).toBe('turn.completed');
    sse.close();
  });

  it('fails a turn cut by the output limit as model_output_truncated, and withdraws the text it streamed', async () => {
    const { sessionId, token, sse } = await interviewUpToFirstQuestion();
    fake.respondWith((req) =>
      req.body.model === 'interviewer'
        ? {
            content: null as unknown as string,
            toolCalls: [{ name: 'ask', arguments: '{"message":"Could you tell me your em' }],
            finishReason: 'length',
            stream: { chunkChars: 6, chunkDelayMs: 2 },
          }
        : model(req),
    );
    const cut = await api.turn(sessionId, token, 'Taro Yamada');
    await sse.waitTurns(3);
    const failed = turnEnds(sse.events).at(-1)!;
    expect(failed).toMatchObject({ type: 'turn.failed', data: { turnId: cut.json.turnId, error: { code: 'model_output_truncated' } } });
    // What was shown of the cut question is withdrawn before the failure, and never became a message.
    const discarded = sse.events.find((e) => e.type === 'message.discarded' && e.data.turnId === cut.json.turnId)!;
    expect(discarded.data.messageIds).toHaveLength(1);
    const withdrawn = String((discarded.data.messageIds as string[])[0]);
    expect(streamedText(sse, withdrawn)).toMatch(/^Could you tell me/);
    expect(sse.events.some((e) => e.type === 'message' && e.data.messageId === withdrawn)).toBe(false);
    expect(sse.events.indexOf(discarded)).toBeLessThan(sse.events.indexOf(failed));
    sse.close();
  });

  it('answers tool calls that came without ids and recovers from a context-length error with a shorter history', async () => {
    const { sessionId, token, sse } = await interviewUpToFirstQuestion();
    let contextErrors = 0;
    fake.respondWith((req) => {
      const reply = model(req);
      if (req.body.model === 'reviewer' && 'toolCalls' in reply) return { ...reply, ids: [''] };
      if (req.body.model === 'interviewer' && contextErrors === 0) {
        contextErrors += 1;
        return {
          status: 400,
          body: {
            error: {
              message: "This model's maximum context length is 2048 tokens.",
              type: 'invalid_request_error',
              code: 'context_length_exceeded',
              param: 'messages',
            },
          },
        };
      }
      return reply;
    });
    const before = fake.requests.length;
    await api.turn(sessionId, token, 'Taro Yamada');
    await sse.waitTurns(3);
    expect(turnEnds(sse.events).at(-1)!.type).toBe('turn.completed');
    expect(sse.events.filter((e) => e.type === 'review').at(-1)!.data).toMatchObject({ fieldId: 'full_name', passed: true });
    const interviewerCalls = fake.requests.slice(before).filter((r) => r.body.model === 'interviewer');
    expect(interviewerCalls).toHaveLength(2);
    expect(interviewerCalls[1]!.body.messages.length).toBeLessThan(interviewerCalls[0]!.body.messages.length);
    expect(interviewerCalls[1]!.body.messages[1].role).toBe('user');
    sse.close();
  });

  it('cancels a running turn: the model call is aborted, turn.failed says cancelled, the streamed text is withdrawn, the session goes on', async () => {
    const { sessionId, token, sse } = await interviewUpToFirstQuestion();
    const slow = (req: FakeRequest) => {
      const reply = model(req);
      return req.body.model === 'interviewer' && 'toolCalls' in reply ? { ...reply, stream: { chunkChars: 4, chunkDelayMs: 300 } } : reply;
    };
    fake.respondWith(slow);
    const running = await api.turn(sessionId, token, 'Taro Yamada');
    // A queued turn behind it is cancelled at once.
    const queued = await api.turn(sessionId, token, 'and another thing');
    expect(queued.json.position).toBe(1);
    const cancelQueued = await api.call('POST', `/v1/sessions/${sessionId}/turns/${queued.json.turnId}/cancel`, { token });
    expect(cancelQueued.status).toBe(202);
    expect(cancelQueued.json).toEqual({ turnId: queued.json.turnId, status: 'cancelled' });
    await sse.waitFor(
      (evs) => evs.some((e) => e.type === 'turn.failed' && e.data.turnId === queued.json.turnId),
      5_000,
      'queued turn cancelled',
    );

    // The running turn is cancelled while its question streams.
    await sse.waitFor(() => sse.live.some((d) => d.data.turnId === running.json.turnId), 10_000, 'the question starts streaming');
    const cancel = await api.call('POST', `/v1/sessions/${sessionId}/turns/${running.json.turnId}/cancel`, { token });
    expect(cancel.status).toBe(202);
    expect(cancel.json).toEqual({ turnId: running.json.turnId, status: 'cancelling' });
    const [failed] = (
      await sse.waitFor((evs) => evs.some((e) => e.type === 'turn.failed' && e.data.turnId === running.json.turnId), 5_000, 'cancelled')
    ).filter((e) => e.type === 'turn.failed' && e.data.turnId === running.json.turnId);
    expect(failed!.data.error).toMatchObject({ code: 'cancelled' });
    const discarded = sse.events.find((e) => e.type === 'message.discarded' && e.data.turnId === running.json.turnId);
    expect(discarded?.data.messageIds).toHaveLength(1);
    // The aborted request was cut: the fake stops writing its stream (it notices at its next chunk).
    await vi.waitFor(() => expect(fake.streaming()).toBe(0), { timeout: 2_000 });
    expect(fake.requests.filter((r) => r.body.model === 'interviewer').length).toBeGreaterThan(0);
    expect(sse.events.some((e) => e.type === 'message' && e.data.agent === 'interviewer' && e.data.turnId === running.json.turnId)).toBe(
      false,
    );

    // Cancelling again or an unknown turn: the contract's errors.
    expect((await api.call('POST', `/v1/sessions/${sessionId}/turns/${running.json.turnId}/cancel`, { token })).json.error.code).toBe(
      'turn_not_active',
    );
    expect((await api.call('POST', `/v1/sessions/${sessionId}/turns/nope/cancel`, { token })).status).toBe(404);

    // The session goes on: the answer given again is reviewed and the next question asked.
    fake.respondWith(model);
    const ended = turnEnds(sse.events).length;
    await api.turn(sessionId, token, 'Taro Yamada');
    await sse.waitTurns(ended + 1);
    expect(turnEnds(sse.events).at(-1)!.type).toBe('turn.completed');
    expect(sse.events.filter((e) => e.type === 'message' && e.data.agent === 'interviewer').at(-1)!.data.text).toMatch(/email/i);
    sse.close();
  });
});

describe('a server that rejects tool_choice (vLLM without its tool parser flags)', () => {
  it('works with LLM_TOOL_CHOICE=omit and LLM_STRICT_TOOLS=false, and the provider explains the 400 otherwise', async () => {
    const strictServer = await startFakeOpenAi({ estimateUsage: true });
    strictServer.respondWith((req) =>
      req.body.tool_choice !== undefined || req.body.tools?.some((t: Json) => t.function.strict !== undefined)
        ? {
            status: 400,
            body: {
              error: {
                message: '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set',
                type: 'BadRequestError',
                code: 400,
              },
            },
          }
        : model(req),
    );
    const id = randomUUID().slice(0, 8);
    const env = {
      REDIS_URL: inject('redisUrl'),
      LLM_PROVIDER: 'openai',
      OPENAI_BASE_URL: strictServer.url,
      LLM_MAX_RETRIES: '0',
      JOB_ATTEMPTS: '1',
      GREETER_MODEL: 'greeter',
    };
    const open = async (extra: Record<string, string>, prefix: string) => {
      const small = await startStack({
        env: { ...env, ...extra, KEY_PREFIX: `${prefix}-${id}`, QUEUE_PREFIX: `{${prefix}-${id}}` },
        services: ['greeter'],
      });
      const client = new Api(small.url);
      const session = await client.createSession(loadForm('event-registration-en.json'));
      const sse = await SseRecorder.open(client.eventsUrl(session.sessionId, session.token));
      await sse.waitTurns(1);
      sse.close();
      await small.stop();
      return turnEnds(sse.events)[0]!;
    };
    try {
      const rejected = await open({}, 'tc-default');
      expect(rejected).toMatchObject({
        type: 'turn.failed',
        data: { error: { code: 'provider_error', message: expect.stringMatching(/tool choice requires/) } },
      });
      const requests = strictServer.requests.length;
      const greeted = await open({ LLM_TOOL_CHOICE: 'omit', LLM_STRICT_TOOLS: 'false' }, 'tc-omit');
      expect(greeted.type).toBe('turn.completed');
      expect(strictServer.requests.slice(requests).every((r) => r.body.tool_choice === undefined)).toBe(true);
    } finally {
      await strictServer.close();
    }
  });
});
