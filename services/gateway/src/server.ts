import {
  createAgentQueues,
  createLogger,
  createRedis,
  productsByKind,
  queueName,
  SessionStore,
  startSweeper,
  startTracing,
  storeOptions,
  waitReady,
} from '@convo/runtime';
import { loadGatewayConfig, type GatewayConfig } from './config.js';
import { type AgentName } from '@convo/contract';
import { CorpusStore, FAQ } from '@convo/faq';
import { APPLICATIONS, FORMS } from '@convo/forms';
import { WORKBENCH } from '@convo/workbench';
import { QueueEvents } from 'bullmq';
import { seedCorpus } from './faq/seed.js';
import { buildApp } from './app.js';
import { cachedSecrets, loadDeploymentSecrets } from './auth.js';
import type { GatewayDeps } from './deps.js';
import { BacklogMonitor } from './load/backlog.js';
import { ClientQuota, StreamQuota } from './load/client-limits.js';
import { createGatewayMetrics } from './load/gateway-metrics.js';
import { StreamHub } from './sse/stream-hub.js';

/**
 * Wires real clients and listens. Redis connections per gateway process:
 * one shared command connection (store, queues, unblock), one blocking
 * connection for the SSE hub (none on a cluster), whatever the number of clients, one in
 * subscriber mode for live-only events (message deltas), and one per queue
 * whose results requests wait for (the search agent's /agent.search, the
 * workbench agent's checks and PDFs), opened on first use.
 */
export async function startGateway(config: GatewayConfig = loadGatewayConfig()) {
  const log = createLogger('gateway', config.logLevel, { traceIds: config.tracing.enabled });
  // Before the app is built: its tracing plugin adds its hooks only when tracing is on.
  const tracing = startTracing('gateway', config.tracing, { log });
  const redis = createRedis(config.redis, 'producer', 'gateway');
  // A cluster cannot XREAD many sessions' streams at once: there the hub follows them by notice, without this connection.
  const blocking = config.redis.clusterNodes ? null : createRedis(config.redis, 'worker', 'gateway-sse');
  const subscriber = createRedis(config.redis, 'worker', 'gateway-live');
  await Promise.all([waitReady(redis), blocking && waitReady(blocking), waitReady(subscriber)]);
  // One subscription before any client's: a cluster client opens its subscriber connection on the first
  // SUBSCRIBE, and SUBSCRIBEs racing that connection's ready check fail (ioredis); once open, they do not.
  await subscriber.subscribe(`${config.keyPrefix}:gateway`);
  const store = new SessionStore(redis, storeOptions(config));
  const queues = createAgentQueues(redis, config.queuePrefix, config.partitions);
  const hub = new StreamHub(blocking, redis, (id) => store.keys(id).events, log, {
    blockMs: 5_000,
    batch: 500,
    heartbeatMs: config.sse.heartbeatMs,
    live: { subscriber, channelOf: (id) => store.liveChannel(id) },
  });
  hub.start();
  const corpus = new CorpusStore(redis, config.keyPrefix);
  await seedCorpus(corpus, config, log);
  // Completion events of the queues whose jobs requests wait for (one more blocking connection each, opened on first use).
  const opened = new Map<AgentName, { queueEvents: QueueEvents; connection: ReturnType<typeof createRedis> }>();
  const queueEvents = async (agent: 'search' | 'workbench'): Promise<QueueEvents> => {
    let events = opened.get(agent);
    if (!events) {
      const connection = createRedis(config.redis, 'worker', `gateway-${agent}-events`);
      connection.on('error', (err: Error) => log.debug({ err: err.message, agent }, 'queue events connection error'));
      const created = new QueueEvents(queueName(agent, 0, config.partitions[agent]), { connection, prefix: config.queuePrefix });
      created.on('error', (err: Error) => log.debug({ err: err.message, agent }, 'queue events error'));
      events = { queueEvents: created, connection };
      opened.set(agent, events);
    }
    await events.queueEvents.waitUntilReady();
    return events.queueEvents;
  };
  const backlog = new BacklogMonitor(
    queues,
    { limit: config.load.queueBacklog, intervalMs: config.load.checkMs, redis, memoryRatio: config.load.redisMemoryRatio },
    log,
  );
  const quotaOf = (kind: 'sessions' | 'worksheets') =>
    new ClientQuota(redis, {
      prefix: config.keyPrefix,
      kind,
      max: kind === 'sessions' ? config.clientLimits.sessions : config.workbench.clientMaxWorksheets,
      ttlSeconds: config.sessionTtlSeconds,
    });
  const quotas = {
    sessions: quotaOf('sessions'),
    worksheets: quotaOf('worksheets'),
    streams: new StreamQuota(config.clientLimits.streams),
  };
  backlog.start();
  const metrics = createGatewayMetrics({ queues, hub, redis });
  const lifecycle = { stopping: false };
  const secrets = cachedSecrets(redis, config.keyPrefix, await loadDeploymentSecrets(redis, config.keyPrefix));
  const deps: GatewayDeps = { config, log, redis, store, queues, hub, corpus, queueEvents, backlog, quotas, metrics, lifecycle, secrets };
  const app = await buildApp(deps);
  // The sweeper fails the turns of dead steps of every product: each failed turn is repaired by its product.
  const sweeper = startSweeper({
    store,
    queues,
    config,
    log,
    product: productsByKind({ form: FORMS, application: APPLICATIONS, faq: FAQ, workbench: WORKBENCH }),
  });
  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  log.info({ port, startupMs: Math.round(performance.now()), rssMb: Math.round(process.memoryUsage.rss() / 1e6) }, 'ready');

  /**
   * Readiness goes 503 first (a load balancer stops sending), then SSE
   * clients get a final `: closing` comment and a clean end, so they
   * reconnect with Last-Event-ID to another gateway; in-flight requests
   * finish before the process lets go of Redis.
   */
  const close = async () => {
    lifecycle.stopping = true;
    sweeper.stop();
    backlog.stop();
    const closing = app.close();
    await hub.stop();
    await closing;
    for (const events of opened.values()) {
      // QueueEvents.close waits for its blocking read, which never returns with Redis gone: cut the connection too.
      const closing = events.queueEvents.close().catch(() => undefined);
      events.connection.disconnect();
      await Promise.race([closing, new Promise((r) => setTimeout(r, 1000).unref())]);
    }
    await queues.closeAll().catch(() => undefined);
    blocking?.disconnect();
    subscriber.disconnect();
    redis.disconnect();
    // Last: the spans of the requests that just finished are exported too.
    await tracing.shutdown();
  };
  return { app, port, close, deps };
}
