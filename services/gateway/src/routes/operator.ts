import { ErrorResponse } from '@convo/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { rotateDeploymentSecret } from '../auth.js';
import type { GatewayDeps } from '../deps.js';

const DEFAULT_GRACE_SECONDS = 3600;

const RotateBody = z
  .object({
    graceSeconds: z
      .number()
      .int()
      .min(0)
      .max(7 * 24 * 3600)
      .default(DEFAULT_GRACE_SECONDS)
      .describe('how long tokens derived from the old secret keep working'),
  })
  .partial()
  .nullish();

/**
 * Operator routes (OPERATOR_KEY): rotating the deployment secret that
 * /agent.dialog tokens are derived from. The old secret stays valid for the
 * grace period, so dialogs made with it can still be recovered by a retry of
 * the request that made them; every gateway picks the new one up within 5 s.
 * Rotating OPERATOR_KEY or FAQ_WRITE_KEY is done in the environment: list the
 * new key and the old one, comma-separated, roll the gateways, then drop the old.
 */
export function operatorRoutes(deps: GatewayDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/v1/operator/secret/rotate',
      {
        config: { auth: 'operator' },
        schema: {
          tags: ['operators'],
          summary: 'Rotate the deployment secret (dialog tokens): a new secret, the old one accepted for graceSeconds',
          body: RotateBody,
          security: [{ bearer: [] }],
          response: { 200: z.object({ rotated: z.literal(true), graceSeconds: z.number().int() }), 401: ErrorResponse, 403: ErrorResponse },
        },
      },
      async (req) => {
        const graceSeconds = req.body?.graceSeconds ?? DEFAULT_GRACE_SECONDS;
        await rotateDeploymentSecret(deps.redis, deps.config.keyPrefix, graceSeconds);
        req.log.warn({ graceSeconds }, 'deployment secret rotated');
        return { rotated: true as const, graceSeconds };
      },
    );
  };
}
