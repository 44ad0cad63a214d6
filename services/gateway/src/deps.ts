import type { AgentQueues, Logger, SessionStore } from '@convo/runtime';
import type { GatewayConfig } from './config.js';
import type { CorpusStore } from '@convo/faq';
import type { QueueEvents } from 'bullmq';
import type { RedisClient } from '@convo/runtime';
import type { BacklogMonitor } from './load/backlog.js';
import type { ClientQuota, StreamQuota } from './load/client-limits.js';
import type { GatewayMetrics } from './load/gateway-metrics.js';
import type { StreamHub } from './sse/stream-hub.js';

/** The deployment's secrets (auth.ts): the current one, and the previous one during a rotation's grace period. */
export type DeploymentSecrets = { current: Buffer; previous: Buffer | null };
export type SecretSource = () => Promise<DeploymentSecrets>;

/** Everything the routes use; built by server.ts (or a test) and injected into buildApp. */
export type GatewayDeps = {
  config: GatewayConfig;
  log: Logger;
  redis: RedisClient;
  store: SessionStore;
  queues: AgentQueues;
  hub: StreamHub;
  corpus: CorpusStore;
  /** Completion events of a queue whose jobs requests wait for: the search agent's (/agent.search) and the workbench agent's (checks, PDFs). */
  queueEvents: (agent: 'search' | 'workbench') => Promise<QueueEvents>;
  backlog: BacklogMonitor;
  /** Per-client quotas (CLIENT_MAX_*): live sessions and worksheets (in Redis), open event streams (this gateway's). */
  quotas: { sessions: ClientQuota; worksheets: ClientQuota; streams: StreamQuota };
  metrics: GatewayMetrics;
  /** The deployment's secrets (kept in Redis, the same for every gateway; rotated by operators): /agent.dialog session tokens are derived from them. */
  secrets: SecretSource;
  /** Set when the gateway starts shutting down: readiness turns 503. */
  lifecycle: { stopping: boolean };
};
