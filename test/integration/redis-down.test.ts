import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findOnPath, spawnRedisServer, type RedisServerProcess } from '../../scripts/ensure-redis.js';
import { startGateway } from '../../services/gateway/src/server.js';
import { loadGatewayConfig } from '../../services/gateway/src/config.js';
import { Api, loadForm } from '../support/api.js';
import { freePort } from '../support/free-port.js';

/** The gateway on a Redis of its own that is then stopped: clients get 503 + Retry-After, never a 500. */
const hasRedisServer = findOnPath('redis-server') !== undefined;

describe.skipIf(!hasRedisServer)('when Redis goes away (needs a redis-server binary to stop)', () => {
  let redis: RedisServerProcess;
  let gw: Awaited<ReturnType<typeof startGateway>>;
  let api: Api;

  beforeAll(async () => {
    redis = await spawnRedisServer({ port: await freePort(), args: ['--save', '', '--appendonly', 'no'] });
    const prefix = `down-${randomUUID().slice(0, 6)}`;
    gw = await startGateway(
      loadGatewayConfig({
        REDIS_URL: redis.url,
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'silent',
        KEY_PREFIX: prefix,
        QUEUE_PREFIX: `{${prefix}}`,
        // Memory is read once, at start: this file tests what Redis itself refuses, not the gateway's
        // shedding ahead of it (load-shedding.test.ts), which would otherwise race the refusal.
        SHED_CHECK_MS: '3600000',
      }),
    );
    api = new Api(`http://127.0.0.1:${gw.port}`);
  });
  afterAll(async () => {
    await gw?.close().catch(() => undefined);
    await redis?.stop();
  });

  it('answers 503 redis_unavailable while Redis is full (maxmemory, noeviction), readiness says so, and works again once it has room', async () => {
    const admin = new Redis(redis.url);
    const session = await api.createSession(loadForm('event-registration-en.json'));
    const used = Number(/used_memory:(\d+)/.exec(await admin.info('memory'))![1]);
    await admin.config('SET', 'maxmemory-policy', 'noeviction');
    await admin.config('SET', 'maxmemory', String(Math.floor(used / 2)));
    try {
      const create = await api.call('POST', '/v1/sessions', { body: { kind: 'form', form: loadForm('event-registration-en.json') } });
      expect(create.status).toBe(503);
      expect(create.json.error.code).toBe('redis_unavailable');
      expect(Number(create.headers.get('retry-after'))).toBeGreaterThan(0);
      const turn = await api.turn(session.sessionId, session.token, 'hello');
      expect(turn.status).toBe(503);
      const ready = await api.call('GET', '/readyz');
      expect(ready.status).toBe(503);
      expect(ready.json.error.code).toBe('redis_full');
      // Reading still works.
      expect((await api.call('GET', `/v1/sessions/${session.sessionId}`, { token: session.token })).status).toBe(200);
    } finally {
      await admin.config('SET', 'maxmemory', '0');
    }
    expect((await api.call('GET', '/readyz')).status).toBe(200);
    expect((await api.turn(session.sessionId, session.token, 'hello')).status).toBe(202);
    admin.disconnect();
  });

  it('answers 503 with Retry-After on writes and readiness, and stays alive', async () => {
    expect((await api.call('GET', '/readyz')).status).toBe(200);
    const session = await api.createSession(loadForm('event-registration-en.json'));
    await redis.stop();
    const create = await api.call('POST', '/v1/sessions', { body: { kind: 'form', form: loadForm('event-registration-en.json') } });
    expect(create.status).toBe(503);
    expect(create.headers.get('retry-after')).toBe('2');
    expect(create.json).toMatchObject({ error: { code: 'unavailable' } });
    const turn = await api.turn(session.sessionId, session.token, 'hello');
    expect(turn.status).toBe(503);
    expect((await api.call('GET', '/readyz')).status).toBe(503);
    expect((await api.call('GET', '/healthz')).status).toBe(200);
  });
});
