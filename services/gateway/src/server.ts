import { loadConfig, type Config } from '@convo/shared/config';
import { createLogger } from '@convo/shared/logger';
import { createAgentQueues } from '@convo/shared/queues/catalog';
import { createRedis, waitReady } from '@convo/shared/redis/connection';
import { startSweeper } from '@convo/shared/runtime/sweeper';
import { SessionStore } from '@convo/shared/store/session-store';
import { buildApp } from './app.js';
import type { GatewayDeps } from './deps.js';
import { StreamHub } from './sse/stream-hub.js';

/**
 * Wires real clients and listens. Redis connections per gateway process:
 * one shared command connection (store, queues, unblock) and one blocking
 * connection for the SSE hub, whatever the number of clients.
 */
export async function startGateway(config: Config = loadConfig()) {
  const log = createLogger('gateway', config.logLevel);
  const redis = createRedis(config.redisUrl, 'producer', 'gateway');
  const blocking = createRedis(config.redisUrl, 'worker', 'gateway-sse');
  await Promise.all([waitReady(redis), waitReady(blocking)]);
  const store = new SessionStore(redis, { prefix: config.keyPrefix, ttlSeconds: config.sessionTtlSeconds, eventsMaxLen: config.eventsMaxLen });
  const queues = createAgentQueues(redis, config.queuePrefix);
  const hub = new StreamHub(blocking, redis, (id) => store.keys(id).events, log, {
    blockMs: 5_000,
    batch: 500,
    heartbeatMs: config.sse.heartbeatMs,
  });
  hub.start();
  const deps: GatewayDeps = { config, log, redis, store, queues, hub };
  const app = await buildApp(deps);
  const sweeper = startSweeper({ store, queues, config, log });
  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  log.info({ port }, 'ready');

  const close = async () => {
    sweeper.stop();
    await hub.stop();
    await app.close();
    await queues.closeAll().catch(() => undefined);
    blocking.disconnect();
    redis.disconnect();
  };
  return { app, port, close, deps };
}
