import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { GatewayDeps } from '../deps.js';

/** Operators' probes (docs/API.md section 4). */
export function healthRoutes(deps: GatewayDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/healthz', { schema: { tags: ['operators'], response: { 200: z.object({ status: z.literal('ok') }) } } }, async () => ({
      status: 'ok' as const,
    }));
    app.get(
      '/readyz',
      { schema: { tags: ['operators'], response: { 200: z.object({ status: z.string() }), 503: z.object({ error: z.object({ code: z.string(), message: z.string() }) }) } } },
      async (_req, reply) => {
        if (deps.lifecycle.stopping) return reply.status(503).send({ error: { code: 'shutting_down', message: 'this gateway is shutting down' } });
        try {
          await Promise.race([deps.redis.ping(), new Promise((_, rej) => setTimeout(() => rej(new Error('timeout')), 1000))]);
          return { status: 'ready' };
        } catch (err) {
          return reply.status(503).send({ error: { code: 'redis_unavailable', message: err instanceof Error ? err.message : 'redis unreachable' } });
        }
      },
    );
  };
}
