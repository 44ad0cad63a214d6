import { readWorkerMetrics } from '@convo/runtime';
import { Registry } from 'prom-client';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { GatewayDeps } from '../deps.js';

/**
 * GET /metrics: Prometheus text of this gateway (queues, SSE connections,
 * shed requests, Redis round trip, Node process) plus every worker
 * replica's published figures added up (job and turn durations, model
 * calls and tokens). Worker figures are at most METRICS_PUSH_MS old.
 * Behind OPERATOR_KEY (Bearer or Basic, as Prometheus scrapers send), off
 * without one: queue sizes and rates tell an outsider how busy the system is.
 */
export function metricsRoutes(deps: GatewayDeps): FastifyPluginAsyncZod {
  const { metrics, redis, config } = deps;
  return async (app) => {
    const docs = { responseContent: { 'text/plain': z.string().describe('Prometheus text exposition format') } };
    app.get(
      '/metrics',
      {
        config: { auth: 'operator', docs },
        schema: {
          tags: ['operators'],
          summary: 'Prometheus metrics of the gateway and every worker replica (OPERATOR_KEY)',
          security: [{ bearer: [] }],
        },
      },
      async (_req, reply) => {
        const workers = await readWorkerMetrics(redis, config.keyPrefix, config.metricsPushMs);
        metrics.workerProcesses.reset();
        for (const [service, n] of Object.entries(workers.byService)) metrics.workerProcesses.set({ service }, n);
        const merged = Registry.merge([metrics.registry, workers.registry]);
        return reply.type(merged.contentType).send(await merged.metrics());
      },
    );
  };
}
