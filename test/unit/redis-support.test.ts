import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

/**
 * Guards the test Redis itself: whichever source the global setup picked
 * (REDIS_URL, Testcontainers, a spawned redis-server) must speak the commands
 * the platform depends on, or every integration test would fail obscurely.
 */
describe('the test Redis', () => {
  const prefix = `test:redis-support:${randomUUID()}`;
  let redis: Redis;

  beforeAll(() => {
    redis = new Redis(inject('redisUrl'), { maxRetriesPerRequest: 1 });
  });

  afterAll(async () => {
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });

  it('is the one the global setup also exported as TEST_REDIS_URL', () => {
    expect(process.env.TEST_REDIS_URL).toBe(inject('redisUrl'));
  });

  it('answers PING', async () => {
    expect(await redis.ping()).toBe('PONG');
  });

  it('accepts XADD with an explicit id and replays after it with an exclusive XRANGE start', async () => {
    const key = `${prefix}:stream`;
    expect(await redis.xadd(key, '0-1', 'type', 'first')).toBe('0-1');
    expect(await redis.xadd(key, '0-2', 'type', 'second')).toBe('0-2');
    const after = await redis.xrange(key, '(0-1', '+');
    expect(after).toEqual([['0-2', ['type', 'second']]]);
  });

  it('runs Lua scripts that encode and decode JSON with cjson', async () => {
    const key = `${prefix}:json`;
    const script = `
      local doc = cjson.decode(ARGV[1])
      doc.version = doc.version + 1
      redis.call('SET', KEYS[1], cjson.encode(doc))
      return doc.version`;
    expect(await redis.eval(script, 1, key, JSON.stringify({ version: 41 }))).toBe(42);
    expect(JSON.parse((await redis.get(key)) ?? 'null')).toEqual({ version: 42 });
  });

  it('never evicts keys (BullMQ requires noeviction)', async (ctx) => {
    // Managed Redis services may disable CONFIG; then the policy cannot be read here.
    const reply = await redis.config('GET', 'maxmemory-policy').catch(() => ctx.skip('CONFIG is disabled'));
    const [, policy] = reply as [string, string];
    expect(policy).toBe('noeviction');
  });
});
