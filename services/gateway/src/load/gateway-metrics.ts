import { ALL_AGENTS, pingWithin, queueLabel, type AgentQueues } from '@convo/runtime';
import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import type { RedisClient } from '@convo/runtime';
import type { StreamHub } from '../sse/stream-hub.js';

/**
 * The gateway's own figures. Gauges are read when scraped (queue counts,
 * open SSE connections, a Redis round trip), so they cost nothing between
 * scrapes; shed requests are counted as they happen.
 */
export type GatewayMetrics = {
  registry: Registry;
  shed: Counter<'reason' | 'status'>;
  workerProcesses: Gauge<'service'>;
};

const QUEUE_STATES = ['waiting', 'prioritized', 'active', 'delayed', 'waiting-children', 'completed', 'failed'] as const;

export function createGatewayMetrics(deps: { queues: AgentQueues; hub: StreamHub; redis: RedisClient }): GatewayMetrics {
  const registry = new Registry();
  const registers = [registry];
  collectDefaultMetrics({ register: registry });
  new Gauge({
    name: 'convo_queue_jobs',
    help: 'Jobs per agent queue (all its partitions) and state (completed and failed: those still retained)',
    labelNames: ['queue', 'state'],
    registers,
    async collect() {
      await Promise.all(
        ALL_AGENTS.map(async (agent) => {
          const counts = await Promise.all(deps.queues.all(agent).map((queue) => queue.getJobCounts(...QUEUE_STATES)));
          for (const state of QUEUE_STATES)
            this.set(
              { queue: queueLabel(agent), state },
              counts.reduce((sum, c) => sum + (c[state] ?? 0), 0),
            );
        }),
      );
    },
  });
  new Gauge({
    name: 'convo_sse_connections',
    help: 'Open SSE connections on this gateway (session streams and streamed /agent.dialog turns)',
    registers,
    collect() {
      this.set(deps.hub.streamCount);
    },
  });
  new Gauge({
    name: 'convo_redis_rtt_seconds',
    help: 'Round-trip time of a PING from this gateway, measured at scrape time (-1: no answer within 1 s)',
    registers,
    async collect() {
      const started = performance.now();
      const ok = await pingWithin(deps.redis, 1000);
      this.set(ok ? (performance.now() - started) / 1000 : -1);
    },
  });
  return {
    registry,
    shed: new Counter({
      name: 'convo_shed_requests_total',
      help: 'Requests refused to protect the system, by reason',
      labelNames: ['reason', 'status'],
      registers,
    }),
    workerProcesses: new Gauge({
      name: 'convo_worker_processes',
      help: 'Worker processes whose metrics are fresh in Redis, by service',
      labelNames: ['service'],
      registers,
    }),
  };
}
