import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { queueName, SessionStore } from '@convo/runtime';
import { Api } from '../support/api.js';
import { startService, startStack, type ServiceProcess, type Stack } from '../support/processes.js';

/**
 * /agent.dialog when the agents are slow or down: the gateway answers 504
 * within DIALOG_TIMEOUT_MS, the accepted turn is not lost, and a retry with
 * the same Idempotency-Key gets that turn's result instead of a second turn.
 */
let stack: Stack;
let api: Api;
let redis: Redis;
let store: SessionStore;
const agents: ServiceProcess[] = [];
const id = randomUUID().slice(0, 8);
const env = { KEY_PREFIX: `faqto-${id}`, QUEUE_PREFIX: `{faqto-${id}}` };

beforeAll(async () => {
  // The gateway alone: planner and search start later, in the test.
  stack = await startStack({
    env: { REDIS_URL: inject('redisUrl'), ...env, DIALOG_TIMEOUT_MS: '400', SEARCH_TIMEOUT_MS: '400' },
    services: [],
  });
  api = new Api(stack.url);
  redis = new Redis(inject('redisUrl'));
  store = new SessionStore(redis, { prefix: env.KEY_PREFIX, ttlSeconds: 600, eventsMaxLen: 10_000 });
});
afterAll(async () => {
  await Promise.all(agents.map((a) => a.kill()));
  await stack?.stop();
  redis?.disconnect();
});

const ja = { topK: 3, language: 'ja' };

describe('/agent.dialog timeouts and retries', () => {
  it('answers 504 while no planner runs, and a retry with the same Idempotency-Key returns the same turn once the agents are up', async () => {
    const key = `retry-${randomUUID()}`;
    const first = await api.dialog({ message: '北海道への送料を教えてください', options: ja }, { headers: { 'idempotency-key': key } });
    expect(first.status).toBe(504);
    expect(first.json.error).toMatchObject({ code: 'timeout', message: expect.stringMatching(/Idempotency-Key/) });
    const sessionId = first.headers.get('x-session-id')!;
    const turnId = first.headers.get('x-turn-id')!;
    expect(sessionId).toBeTruthy();
    expect(turnId).toBeTruthy();

    // A retry that kept only the key (it lost the first response) lands in the same session and turn.
    const again = await api.dialog({ message: '北海道への送料を教えてください', options: ja }, { headers: { 'idempotency-key': key } });
    expect(again.status).toBe(504);
    expect(again.headers.get('x-session-id')).toBe(sessionId);
    expect(again.headers.get('x-turn-id')).toBe(turnId);

    const cfg = { REDIS_URL: inject('redisUrl'), ...env };
    agents.push(...(await Promise.all([startService('planner', cfg), startService('search', cfg)])));

    const done = await api.dialog(
      { sessionId, message: '北海道への送料を教えてください', options: ja },
      { headers: { 'idempotency-key': key } },
    );
    expect(done.status, JSON.stringify(done.json)).toBe(200);
    expect(done.headers.get('x-turn-id')).toBe(turnId);
    expect(done.json).toMatchObject({ sessionId, needsClarification: false, final: true });
    expect(done.json.answer).toMatch(/800円/);

    // One turn was accepted and run, whatever the number of requests.
    const loaded = (await store.load(sessionId))!;
    if (loaded.state.kind !== 'faq') throw new Error(`expected an FAQ session, got ${loaded.state.kind}`);
    expect(loaded.state.faq.turns.map((t) => t.turnId)).toEqual([turnId]);
    expect(loaded.state.faq.history.filter((h) => h.role === 'user')).toHaveLength(1);
    expect(loaded.state.messages.filter((m) => m.role === 'user')).toHaveLength(1);

    // Once finished, a repeat answers at once from the stored result; over SSE it replays that turn only.
    const repeat = await api.dialog(
      { sessionId, message: '北海道への送料を教えてください', options: ja },
      { headers: { 'idempotency-key': key } },
    );
    expect(repeat.json.answer).toBe(done.json.answer);
    // The same key with another message is another request: refused, not answered with the first one's result.
    const reused = await api.dialog({ sessionId, message: 'ignored on a repeat', options: ja }, { headers: { 'idempotency-key': key } });
    expect(reused.status).toBe(422);
    expect(reused.json.error.code).toBe('idempotency_key_reused');
    const next = await api.dialog({ sessionId, message: 'じゃあ返品ポリシーも知りたい', options: ja });
    expect(next.json.answer).toMatch(/30日以内/);
    const replay = await api.dialogStream(
      { sessionId, message: '北海道への送料を教えてください', options: ja },
      { 'idempotency-key': key },
    );
    expect(replay.status).toBe(200);
    const types = replay.events.map((e) => e.type);
    expect(types[0]).toBe('turn.started');
    expect(replay.events[0]!.data).toEqual({ turnId });
    expect(types.at(-1)).toBe('answer');
    expect(String(replay.events.at(-1)!.data.answer)).toMatch(/800円/);
    // The later turn (返品) is not part of this one's stream.
    expect(replay.events.filter((e) => e.type === 'answer')).toHaveLength(1);
  });

  it('answers 504 for /agent.search when no search worker takes the job, and withdraws the job', async () => {
    const gatewayOnly = await startStack({
      env: { REDIS_URL: inject('redisUrl'), KEY_PREFIX: `faqto2-${id}`, QUEUE_PREFIX: `{faqto2-${id}}`, SEARCH_TIMEOUT_MS: '300' },
      services: [],
    });
    try {
      const response = await new Api(gatewayOnly.url).call('POST', '/agent.search', { body: { query: '送料', topK: 3 } });
      expect(response.status).toBe(504);
      expect(response.json.error.code).toBe('timeout');
      // The job was added (the queue's id counter moved) and is no longer waiting.
      const queueKey = `{faqto2-${id}}:${queueName('search', 0, 1)}`;
      expect(Number(await redis.get(`${queueKey}:id`))).toBeGreaterThanOrEqual(1);
      expect(await redis.llen(`${queueKey}:wait`)).toBe(0);
    } finally {
      await gatewayOnly.stop();
    }
  });

  it('refuses an Idempotency-Key that is not 16 to 200 visible ASCII characters', async () => {
    for (const key of ['x'.repeat(201), 'short', 'has spaces in it, sixteen+']) {
      const response = await api.dialog({ message: '送料は？' }, { headers: { 'idempotency-key': key } });
      expect(response.status, key).toBe(400);
      expect(response.json.error.code).toBe('invalid_idempotency_key');
    }
  });
});
