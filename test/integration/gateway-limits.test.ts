import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { spawnRedisServer, type RedisServerProcess } from '../../scripts/ensure-redis.js';
import { startGateway } from '../../services/gateway/src/server.js';
import { loadGatewayConfig } from '../../services/gateway/src/config.js';
import { Api, loadForm } from '../support/api.js';
import { freePort } from '../support/free-port.js';

/**
 * The probes of issue 31 that the gateway alone answers, on gateways
 * in-process over a real Redis (no agents run: waits for their work end as
 * the contract's 504 quickly): idempotency keys that are not credentials,
 * tokens by header (the event stream excepted), 404 alike for an unknown
 * session and a wrong token, one rate budget per client across the work
 * routes, per-client quotas, the turn limit, /metrics behind the operator
 * key, secret rotation, and Redis memory in the shedding decision.
 */
const gateways: Array<Awaited<ReturnType<typeof startGateway>>> = [];
const prefixes: string[] = [];
const form = loadForm('event-registration-en.json');
const OPERATOR_KEY = 'operator-key-for-the-limits-test-0123456789';

async function gateway(env: Record<string, string> = {}, redisUrl = inject('redisUrl')) {
  const prefix = `lim-${randomUUID().slice(0, 8)}`;
  prefixes.push(prefix);
  const gw = await startGateway(
    loadGatewayConfig({
      REDIS_URL: redisUrl,
      KEY_PREFIX: prefix,
      QUEUE_PREFIX: `{${prefix}}`,
      PORT: '0',
      LOG_LEVEL: 'silent',
      FAQ_SEED_FILE: '',
      DIALOG_TIMEOUT_MS: '200',
      SEARCH_TIMEOUT_MS: '200',
      ...env,
    }),
  );
  gateways.push(gw);
  return { api: new Api(`http://127.0.0.1:${gw.port}`), gw };
}

afterAll(async () => {
  await Promise.all(gateways.map((gw) => gw.close()));
  const redis = new Redis(inject('redisUrl'));
  for (const prefix of prefixes) {
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length) await redis.del(...keys);
  }
  redis.disconnect();
});

const key = () => `key-${randomUUID()}`;

describe('idempotency keys are not credentials', () => {
  it('a turn key reused with another message is refused (422); the same message gets the same turn', async () => {
    const { api } = await gateway();
    const session = await api.createSession(form);
    const k = key();
    const first = await api.turn(session.sessionId, session.token, 'Jane Doe', { idempotencyKey: k });
    expect(first.status).toBe(202);
    const again = await api.turn(session.sessionId, session.token, 'Jane Doe', { idempotencyKey: k });
    expect(again.json.turnId).toBe(first.json.turnId);
    const other = await api.turn(session.sessionId, session.token, 'Somebody else entirely', { idempotencyKey: k });
    expect(other.status).toBe(422);
    expect(other.json.error.code).toBe('idempotency_key_reused');
  });

  it('a new dialog key reused with another body is refused (422), a short key is refused (400), and a retry of the same body lands in the same dialog', async () => {
    const { api } = await gateway();
    const k = key();
    const body = { message: '送料はいくらですか', options: { language: 'ja' } };
    const first = await api.call('POST', '/agent.dialog', { body, headers: { 'idempotency-key': k } });
    const sessionId = first.headers.get('x-session-id');
    expect(sessionId).toMatch(/^dialog-/);
    const retry = await api.call('POST', '/agent.dialog', { body, headers: { 'idempotency-key': k } });
    expect(retry.headers.get('x-session-id')).toBe(sessionId);
    expect(retry.headers.get('x-session-token')).toBe(first.headers.get('x-session-token'));
    const stolen = await api.call('POST', '/agent.dialog', {
      body: { message: 'show me the order of someone else' },
      headers: { 'idempotency-key': k },
    });
    expect(stolen.status).toBe(422);
    expect(stolen.json.error.code).toBe('idempotency_key_reused');
    expect(stolen.headers.get('x-session-token')).toBeNull();
    const short = await api.call('POST', '/agent.dialog', { body, headers: { 'idempotency-key': '1' } });
    expect(short.status).toBe(400);
    expect(short.json.error.code).toBe('invalid_idempotency_key');
  });

  it('after a secret rotation, a retry still recovers its dialog token (the old secret is kept for the grace period)', async () => {
    const { api } = await gateway({ OPERATOR_KEY });
    const k = key();
    const body = { message: 'Where is my parcel?' };
    const first = await api.call('POST', '/agent.dialog', { body, headers: { 'idempotency-key': k } });
    expect((await api.call('POST', '/v1/operator/secret/rotate', { body: {} })).status).toBe(401);
    const rotated = await api.call('POST', '/v1/operator/secret/rotate', { token: OPERATOR_KEY, body: { graceSeconds: 60 } });
    expect(rotated.status).toBe(200);
    // Gateways re-read the secrets within 5 s; the recovered token is the one the dialog was made with either way.
    await new Promise((resolve) => setTimeout(resolve, 5_100));
    const retry = await api.call('POST', '/agent.dialog', { body, headers: { 'idempotency-key': k } });
    expect(retry.headers.get('x-session-token')).toBe(first.headers.get('x-session-token'));
    const fresh = await api.call('POST', '/agent.dialog', { body, headers: { 'idempotency-key': key() } });
    expect(fresh.headers.get('x-session-token')).not.toBe(first.headers.get('x-session-token'));
  });
});

describe('tokens', () => {
  it('come by header; only the event stream takes ?token=; no token is 401, a wrong token and an unknown id are alike 404', async () => {
    const { api } = await gateway();
    const session = await api.createSession(form);
    const viaQuery = await api.call('GET', `/v1/sessions/${session.sessionId}?token=${encodeURIComponent(session.token)}`);
    expect(viaQuery.status).toBe(401);
    expect((await api.call('GET', `/v1/sessions/${session.sessionId}`, { token: session.token })).status).toBe(200);
    const wrong = await api.call('GET', `/v1/sessions/${session.sessionId}`, { token: 'not-the-token' });
    const unknown = await api.call('GET', `/v1/sessions/${randomUUID()}`, { token: 'not-the-token' });
    expect([wrong.status, unknown.status]).toEqual([404, 404]);
    expect(wrong.json.error.code).toBe(unknown.json.error.code);
    const stream = await fetch(api.eventsUrl(session.sessionId, session.token));
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toMatch(/text\/event-stream/);
    await stream.body?.cancel();
  });

  it('/metrics is off without OPERATOR_KEY and needs it (Bearer or Basic) when set', async () => {
    const { api: closed } = await gateway();
    expect((await closed.call('GET', '/metrics')).status).toBe(403);
    const { api } = await gateway({ OPERATOR_KEY });
    expect((await api.call('GET', '/metrics')).status).toBe(401);
    expect((await api.call('GET', '/metrics', { token: 'wrong' })).status).toBe(401);
    expect((await api.call('GET', '/metrics', { token: OPERATOR_KEY })).status).toBe(200);
    const basic = await api.call('GET', '/metrics', {
      headers: { authorization: `Basic ${Buffer.from(`prometheus:${OPERATOR_KEY}`).toString('base64')}` },
    });
    expect(basic.status).toBe(200);
  });

  it('accept two operator keys during a rotation', async () => {
    const { api } = await gateway({ OPERATOR_KEY: `new-${OPERATOR_KEY},${OPERATOR_KEY}` });
    expect((await api.call('GET', '/metrics', { token: OPERATOR_KEY })).status).toBe(200);
    expect((await api.call('GET', '/metrics', { token: `new-${OPERATOR_KEY}` })).status).toBe(200);
  });
});

describe('quotas', () => {
  it('one rate budget per client across every work route: the documented total, then 429 with Retry-After', async () => {
    const { api } = await gateway({ RATE_LIMIT_MAX: '6' });
    const session = await api.createSession(form); // 1
    const answers = [
      await api.turn(session.sessionId, session.token, 'hello'), // 2
      await api.call('POST', '/agent.search', { body: { query: 'shipping' } }), // 3
      await api.call('POST', '/agent.dialog', { body: { message: 'shipping' } }), // 4
      await api.call('POST', '/v1/sessions', { body: { kind: 'faq' } }), // 5
      await api.turn(session.sessionId, session.token, 'again'), // 6
    ];
    expect(answers.map((a) => a.status)).not.toContain(429);
    const over = await api.call('POST', '/agent.search', { body: { query: 'returns' } });
    expect(over.status).toBe(429);
    expect(over.json.error.code).toBe('rate_limited');
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    // Reading is not work: it stays open.
    expect((await api.call('GET', `/v1/sessions/${session.sessionId}`, { token: session.token })).status).toBe(200);
  });

  it('live sessions per client are capped; deleting one gives its place back', async () => {
    const { api } = await gateway({ CLIENT_MAX_SESSIONS: '2', RATE_LIMIT_MAX: '0' });
    const a = await api.createSession(form);
    await api.createSession(undefined, 'faq');
    const third = await api.call('POST', '/v1/sessions', { body: { kind: 'faq' } });
    expect(third.status).toBe(429);
    expect(third.json.error.code).toBe('too_many_sessions');
    expect((await api.call('DELETE', `/v1/sessions/${a.sessionId}`, { token: a.token })).status).toBe(204);
    expect((await api.call('POST', '/v1/sessions', { body: { kind: 'faq' } })).status).toBe(201);
  });

  it('a worksheet whose creation fails gives its place back and leaves nothing stored', async () => {
    // No workbench worker runs here: every creation times out (504) and its tokens never reach the client.
    const { api } = await gateway({ CLIENT_MAX_WORKSHEETS: '1', WORKBENCH_TIMEOUT_MS: '200', RATE_LIMIT_MAX: '0' });
    const body = { subject: 'math', difficulty: 'easy', language: 'en' };
    for (const attempt of [1, 2]) {
      const failed = await api.call('POST', '/api/worksheets', { body });
      expect(failed.status, `attempt ${attempt}`).toBe(504);
    }
    const redis = new Redis(inject('redisUrl'));
    const left = await redis.keys(`${prefixes.at(-1)}:*ws-*`);
    redis.disconnect();
    expect(left).toEqual([]);
  });

  it('open event streams per client are capped on a gateway', async () => {
    const { api } = await gateway({ CLIENT_MAX_STREAMS: '2', RATE_LIMIT_MAX: '0' });
    const session = await api.createSession(form);
    const open = [
      await fetch(api.eventsUrl(session.sessionId, session.token)),
      await fetch(api.eventsUrl(session.sessionId, session.token)),
    ];
    expect(open.map((r) => r.status)).toEqual([200, 200]);
    const third = await fetch(api.eventsUrl(session.sessionId, session.token));
    expect(third.status).toBe(429);
    expect(((await third.json()) as { error: { code: string } }).error.code).toBe('too_many_streams');
    await open[0]!.body?.cancel();
    // The closed stream's place comes back once the gateway sees the connection close.
    await expect
      .poll(async () => {
        const next = await fetch(api.eventsUrl(session.sessionId, session.token));
        await next.body?.cancel();
        return next.status;
      })
      .toBe(200);
    await open[1]!.body?.cancel();
  });

  it('a session takes SESSION_TURN_LIMIT turns in its life, of any kind', async () => {
    const { api } = await gateway({ SESSION_TURN_LIMIT: '3', MAX_QUEUED_TURNS: '10', RATE_LIMIT_MAX: '0' });
    const faq = await api.createSession(undefined, 'faq');
    const statuses = [];
    for (const message of ['one', 'two', 'three', 'four']) statuses.push((await api.turn(faq.sessionId, faq.token, message)).status);
    expect(statuses).toEqual([202, 202, 202, 409]);
    const refused = await api.turn(faq.sessionId, faq.token, 'five');
    expect(refused.json.error.code).toBe('session_turn_limit');
  });
});

describe('Redis memory in the shedding decision', () => {
  let server: RedisServerProcess | undefined;
  afterAll(async () => {
    await server?.stop();
  });

  it('refuses new work (503 overloaded) while Redis is past SHED_REDIS_MEMORY_RATIO of its maxmemory, and takes it again once it has room', async () => {
    server = await spawnRedisServer({ port: await freePort(), args: ['--save', '', '--appendonly', 'no'] });
    const { api, gw } = await gateway({ SHED_CHECK_MS: '50', SHED_REDIS_MEMORY_RATIO: '0.5', RATE_LIMIT_MAX: '0' }, server.url);
    const admin = new Redis(server.url);
    try {
      expect((await api.call('POST', '/v1/sessions', { body: { kind: 'faq' } })).status).toBe(201);
      const used = Number(/used_memory:(\d+)/.exec(await admin.info('memory'))![1]);
      // Used memory is now above half of the limit, and writes still fit under it.
      await admin.config('SET', 'maxmemory', String(Math.floor(used * 1.5)));
      await expect.poll(() => gw.deps.backlog.memoryFull, { timeout: 5_000 }).toBe(true);
      const shed = await api.call('POST', '/v1/sessions', { body: { kind: 'faq' } });
      expect(shed.status).toBe(503);
      expect(shed.json.error.code).toBe('overloaded');
      expect(Number(shed.headers.get('retry-after'))).toBeGreaterThan(0);
      await admin.config('SET', 'maxmemory', '0');
      await expect.poll(() => gw.deps.backlog.memoryFull, { timeout: 5_000 }).toBe(false);
      expect((await api.call('POST', '/v1/sessions', { body: { kind: 'faq' } })).status).toBe(201);
    } finally {
      admin.disconnect();
    }
  });
});
