import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { FastifyAdapter } from '@bull-board/fastify';
import { ALL_AGENTS } from '@convo/runtime';
import type { FastifyInstance } from 'fastify';
import { operatorGuard } from '../auth.js';
import type { GatewayDeps } from '../deps.js';

export const ADMIN_PREFIX = '/admin/queues';

/**
 * The queue dashboard (bull-board) at /admin/queues, in its own scope behind
 * OPERATOR_KEY (Bearer, or Basic with the key as password, so a browser can
 * log in). Without a configured key the dashboard is off (403): an operator
 * tool never opens by default.
 */
export async function adminPlugin(app: FastifyInstance, deps: GatewayDeps): Promise<void> {
  // Replies itself rather than throwing: bull-board's routes have an error handler of their own.
  app.addHook('onRequest', operatorGuard(deps.config));
  const serverAdapter = new FastifyAdapter();
  serverAdapter.setBasePath(ADMIN_PREFIX);
  createBullBoard({
    queues: ALL_AGENTS.flatMap((agent) => deps.queues.all(agent).map((queue) => new BullMQAdapter(queue))),
    serverAdapter,
    options: { uiConfig: { boardTitle: 'convo agents' } },
  });
  await app.register(serverAdapter.registerPlugin());
}
