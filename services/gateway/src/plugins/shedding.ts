import type { FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import type { GatewayDeps } from '../deps.js';
import { ClientRateLimiter, clientOf } from '../load/client-limits.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route creates work for the agents: it is shed under load and rate limited per client. */
    work?: boolean;
  }
  interface FastifyRequest {
    /** Refused to protect the system (503 overloaded, 429 rate limited): counted, not logged. */
    shed?: boolean;
  }
}

/** Route config of every route that creates agent work. */
export const WORK_ROUTE = { work: true } as const;

/** Retry-After in whole seconds: the base plus up to as much again, so shed clients do not come back in lockstep. */
export function retryAfterSeconds(base: number): number {
  return base + Math.floor(Math.random() * (base + 1));
}

/**
 * Load shedding at the door, before the body is even read, on every work route:
 * - 503 `overloaded` while the worst agent queue holds more than
 *   SHED_QUEUE_BACKLOG waiting jobs, or Redis is past SHED_REDIS_MEMORY_RATIO
 *   of its maxmemory (BacklogMonitor, read from memory);
 * - 429 `rate_limited` over RATE_LIMIT_MAX requests per window per client,
 *   one budget for all work routes together, counted in Redis so it holds
 *   across gateway replicas (ClientRateLimiter).
 * The per-session 429 (inbox full) is decided when the turn is accepted.
 */
export const sheddingPlugin = fp(async (app: FastifyInstance, deps: GatewayDeps) => {
  const { config, backlog, metrics } = deps;
  const limiter =
    config.load.rateLimitMax > 0
      ? new ClientRateLimiter(deps.redis, {
          prefix: config.keyPrefix,
          max: config.load.rateLimitMax,
          windowMs: config.load.rateLimitWindowMs,
        })
      : null;

  // Answered here, not thrown: a flood produces thousands of these a second, and an error
  // object (stack capture) plus the error handler's logging would cost more than the request.
  app.addHook('onRequest', async (req, reply: FastifyReply) => {
    if (!req.routeOptions.config.work) return;
    const admitted = backlog.admit();
    if (admitted !== 'ok') {
      req.shed = true;
      metrics.shed.inc({ reason: admitted, status: '503' });
      const { queue, waiting } = backlog.current;
      const message =
        admitted === 'redis_memory'
          ? 'the system is short of storage for new work; retry later'
          : `the system is saturated (${waiting} jobs waiting for the ${queue} agent); retry later`;
      return reply
        .code(503)
        .header('retry-after', String(retryAfterSeconds(config.load.retryAfterSeconds)))
        .send({ error: { code: 'overloaded', message } });
    }
    if (!limiter) return;
    const { allowed, remaining, resetMs } = await limiter.hit(clientOf(req));
    const resetSeconds = Math.max(1, Math.ceil(resetMs / 1000));
    reply
      .header('x-ratelimit-limit', String(config.load.rateLimitMax))
      .header('x-ratelimit-remaining', String(remaining))
      .header('x-ratelimit-reset', String(resetSeconds));
    if (!allowed) {
      req.shed = true;
      metrics.shed.inc({ reason: 'client_rate', status: '429' });
      return reply
        .code(429)
        .header('retry-after', String(resetSeconds))
        .send({
          error: {
            code: 'rate_limited',
            message: `more than ${config.load.rateLimitMax} requests in ${Math.round(config.load.rateLimitWindowMs / 1000)} s from this client across the work routes; retry later`,
          },
        });
    }
  });
});
