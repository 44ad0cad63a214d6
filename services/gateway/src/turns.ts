import { AppError, ConflictError, NotFoundError } from '@convo/shared/errors';
import { enqueueStep } from '@convo/shared/queues/catalog';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { GatewayDeps } from './deps.js';
import { retryAfterSeconds } from './plugins/shedding.js';

export type AcceptedTurn = { turnId: string; position: number; outcome: 'started' | 'queued' | 'duplicate' };

/**
 * Accepts a user turn into the session's inbox (API.md §1 turn rules) and
 * dispatches its first step when nothing else runs; every refusal is the
 * contract's error. Shared by POST /v1/sessions/:id/turns and /agent.dialog.
 */
export async function acceptTurn(
  deps: Pick<GatewayDeps, 'store' | 'queues' | 'config' | 'metrics'>,
  req: FastifyRequest,
  reply: FastifyReply,
  input: { sessionId: string; turnId: string; message: string; idempotencyKey?: string; multitask: 'enqueue' | 'reject'; options?: Record<string, unknown> },
): Promise<AcceptedTurn> {
  const { store, queues, config } = deps;
  const r = await store.acceptTurn({
    sessionId: input.sessionId,
    turnId: input.turnId,
    message: input.message,
    idempotencyKey: input.idempotencyKey,
    multitask: input.multitask,
    maxQueued: config.maxQueuedTurns,
    acceptedAt: new Date().toISOString(),
    options: input.options,
  });
  switch (r.outcome) {
    case 'not_found':
      throw new NotFoundError(`session ${input.sessionId} not found`, 'session_not_found');
    case 'submitted':
      throw new ConflictError('session_submitted', 'the session was submitted; it accepts no more turns');
    case 'busy':
      throw new ConflictError('turn_in_progress', 'a turn is running and multitask is "reject"');
    case 'inbox_full':
      deps.metrics.shed.inc({ reason: 'session_inbox', status: '429' });
      reply.header('retry-after', String(retryAfterSeconds(config.load.retryAfterSeconds)));
      throw new AppError('too_many_queued_turns', `more than ${config.maxQueuedTurns} turns are queued for this session`, { status: 429 });
  }
  // A retried request (same idempotencyKey) re-dispatches its step: the job id makes that a no-op if it exists.
  if (r.step) await enqueueStep(queues, config, input.sessionId, r.step);
  req.log.info({ sessionId: input.sessionId, turnId: r.turnId, position: r.position, outcome: r.outcome }, 'turn accepted');
  return { turnId: r.turnId, position: r.position, outcome: r.outcome };
}
