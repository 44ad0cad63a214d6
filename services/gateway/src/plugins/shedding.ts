import { AppError } from '@convo/runtime';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import type { GatewayDeps } from '../deps.js';

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
export const WORK_ROUTE = { work: true, rateLimit: {} } as const;

/** Retry-After in whole seconds: the base plus up to as much again, so shed clients do not come back in lockstep. */
export function retryAfterSeconds(base: number): number {
  return base + Math.floor(Math.random() * (base + 1));
}

/**
 * Load shedding at the door, before the body is even read:
 * - 503 `overloaded` while the worst agent queue holds more than
 *   SHED_QUEUE_BACKLOG waiting jobs (BacklogMonitor, read from memory);
 * - 429 `rate_limited` per client (IP) over RATE_LIMIT_MAX per window,
 *   counted in Redis by @fastify/rate-limit so the limit holds across
 *   gateway replicas; if Redis cannot count, the request is let through
 *   (and fails on its own with 503 if Redis is really gone).
 * The per-session 429 (inbox full) is decided when the turn is accepted.
 */
export const sheddingPlugin = fp(async (app: FastifyInstance, deps: GatewayDeps) => {
  const { config, backlog, metrics } = deps;

  // Answered here, not thrown: a flood produces thousands of these a second, and an error
  // object (stack capture) plus the error handler's logging would cost more than the request.
  app.addHook('onRequest', async (req, reply: FastifyReply) => {
    if (!req.routeOptions.config.work) return;
    if (!backlog.admit()) {
      req.shed = true;
      metrics.shed.inc({ reason: 'queue_backlog', status: '503' });
      const { queue, waiting } = backlog.current;
      return reply
        .code(503)
        .header('retry-after', String(retryAfterSeconds(config.load.retryAfterSeconds)))
        .send({ error: { code: 'overloaded', message: `the system is saturated (${waiting} jobs waiting for the ${queue} agent); retry later` } });
    }
  });

  if (config.load.rateLimitMax > 0) {
    await app.register(rateLimit, {
      global: false,
      max: config.load.rateLimitMax,
      timeWindow: config.load.rateLimitWindowMs,
      redis: deps.redis,
      nameSpace: `${config.keyPrefix}:rl:`,
      skipOnError: true,
      onExceeded: (req) => {
        req.shed = true;
        metrics.shed.inc({ reason: 'client_rate', status: '429' });
      },
      errorResponseBuilder: (_req, ctx) =>
        new AppError('rate_limited', `more than ${ctx.max} requests in ${ctx.after} from this client; retry later`, { status: 429 }),
    });
  }
});
