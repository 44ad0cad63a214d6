import { Redis, type RedisOptions } from 'ioredis';

/**
 * Connection roles differ in how they behave when Redis is away:
 * - `worker`: BullMQ workers and blocking readers wait forever (`maxRetriesPerRequest: null`).
 * - `producer`: the gateway fails fast so a request gets 503 instead of hanging.
 */
export type RedisRole = 'worker' | 'producer';

export function createRedis(url: string, role: RedisRole, name?: string): Redis {
  const base: RedisOptions = {
    connectionName: name,
    // BullMQ is tested on RESP2; ioredis 5 speaks it by default.
    lazyConnect: false,
  };
  const opts: RedisOptions =
    role === 'worker'
      ? { ...base, maxRetriesPerRequest: null, enableReadyCheck: true }
      : { ...base, maxRetriesPerRequest: 1, enableOfflineQueue: false, connectTimeout: 2_000 };
  return new Redis(url, opts);
}

/** Resolves once the connection is ready (or rejects after `timeoutMs`). */
export async function waitReady(redis: Redis, timeoutMs = 10_000): Promise<void> {
  if (redis.status === 'ready') return;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      cleanup();
      reject(new Error(`redis not ready after ${timeoutMs} ms`));
    }, timeoutMs);
    const onReady = () => {
      cleanup();
      resolve();
    };
    const cleanup = () => {
      clearTimeout(timer);
      redis.off('ready', onReady);
    };
    redis.on('ready', onReady);
  });
}
