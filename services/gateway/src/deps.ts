import type { AgentQueues, Config, Logger, SessionStore } from '@convo/runtime';
import type { CorpusStore } from '@convo/faq';
import type { QueueEvents } from 'bullmq';
import type { RedisClient } from '@convo/runtime';
import type { BacklogMonitor } from './load/backlog.js';
import type { GatewayMetrics } from './load/gateway-metrics.js';
import type { StreamHub } from './sse/stream-hub.js';

/** Everything the routes use; built by server.ts (or a test) and injected into buildApp. */
export type GatewayDeps = {
  config: Config;
  log: Logger;
  redis: RedisClient;
  store: SessionStore;
  queues: AgentQueues;
  hub: StreamHub;
  corpus: CorpusStore;
  /** Completion events of the search agent's queue (single-shot /agent.search waits on them). */
  searchEvents: () => Promise<QueueEvents>;
  backlog: BacklogMonitor;
  metrics: GatewayMetrics;
  /** The deployment's secret (kept in Redis, the same for every gateway): /agent.dialog session tokens are derived from it. */
  secret: Buffer;
  /** Set when the gateway starts shutting down: readiness turns 503. */
  lifecycle: { stopping: boolean };
};
