import { ErrorResponse } from '@convo/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { GatewayDeps } from '../deps.js';
import { redisRefusal } from '../plugins/errors.js';

/** Operators' probes (docs/api.md, "Operators"). */
export function healthRoutes(deps: GatewayDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/healthz',
      {
        schema: { tags: ['operators'], summary: 'Liveness: the process answers', response: { 200: z.object({ status: z.literal('ok') }) } },
      },
      async () => ({
        status: 'ok' as const,
      }),
    );
    app.get(
      '/readyz',
      {
        schema: {
          tags: ['operators'],
          summary: 'Readiness: Redis takes writes and the gateway is not shutting down',
          response: { 200: z.object({ status: z.literal('ready') }), 503: ErrorResponse },
        },
      },
      async (_req, reply) => {
        if (deps.lifecycle.stopping)
          return reply.status(503).send({ error: { code: 'shutting_down', message: 'this gateway is shutting down' } });
        try {
          // A small write, not a PING: a Redis that is full (noeviction), loading its AOF or unable to persist answers PING but takes no work.
          const probe = deps.redis.set(`${deps.config.keyPrefix}:ready-probe`, '1', 'PX', 5_000);
          await Promise.race([probe, new Promise((_, rej) => setTimeout(() => rej(new Error('timeout')), 1000))]);
          return { status: 'ready' as const };
        } catch (err) {
          const message = err instanceof Error ? err.message : 'redis unreachable';
          const full = redisRefusal(err) === 'full';
          return reply
            .status(503)
            .header('retry-after', '5')
            .send({
              error: {
                code: full ? 'redis_full' : 'redis_unavailable',
                message: full ? 'redis is full (maxmemory reached): no work is accepted' : message,
              },
            });
        }
      },
    );
  };
}
