import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { FastifyAdapter } from '@bull-board/fastify';
import { ALL_AGENTS } from '@convo/runtime';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { hashToken, sameSecret } from '../auth.js';
import type { GatewayDeps } from '../deps.js';

export const ADMIN_PREFIX = '/admin/queues';

/** The operator key from `Authorization: Bearer <key>` or Basic auth (any user name, the key as password), so a browser can log in. */
function presentedKey(req: FastifyRequest): string | null {
  const header = req.headers.authorization ?? '';
  if (/^Bearer\s+/i.test(header)) return header.replace(/^Bearer\s+/i, '').trim();
  if (/^Basic\s+/i.test(header)) {
    const decoded = Buffer.from(header.replace(/^Basic\s+/i, ''), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    return colon >= 0 ? decoded.slice(colon + 1) : null;
  }
  return null;
}

/**
 * The queue dashboard (bull-board) at /admin/queues, in its own scope behind
 * OPERATOR_KEY. Without a configured key the dashboard is off (403): an
 * operator tool never opens by default.
 */
export async function adminPlugin(app: FastifyInstance, deps: GatewayDeps): Promise<void> {
  const key = deps.config.operatorKey;
  const keyHash = key ? hashToken(key) : '';
  // Replies here rather than throwing: bull-board's routes have an error handler of their own.
  app.addHook('onRequest', async (req, reply) => {
    if (!key) {
      return reply.code(403).send({ error: { code: 'operator_key_not_configured', message: 'the queue dashboard is disabled: set OPERATOR_KEY' } });
    }
    if (!sameSecret(presentedKey(req), keyHash)) {
      return reply
        .code(401)
        .header('www-authenticate', 'Basic realm="operators", charset="UTF-8"')
        .send({ error: { code: 'unauthorized', message: 'missing or invalid operator key' } });
    }
  });
  const serverAdapter = new FastifyAdapter();
  serverAdapter.setBasePath(ADMIN_PREFIX);
  createBullBoard({ queues: ALL_AGENTS.flatMap((agent) => deps.queues.all(agent).map((queue) => new BullMQAdapter(queue))), serverAdapter, options: { uiConfig: { boardTitle: 'convo agents' } } });
  await app.register(serverAdapter.registerPlugin());
}
