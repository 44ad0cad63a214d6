import { randomUUID } from 'node:crypto';
import { newFaqSession } from '@convo/faq';
import { fieldsNeedingReview, newFormSession, unresolvedRequired } from '@convo/forms';
import { AppError, ConflictError, dispatch, NotFoundError, SessionDraft, stepJobId, UnavailableError } from '@convo/runtime';
import { type AuditReport, type FaqState, mutableCopy, type SessionForm, type SubmitResponse } from '@convo/contract';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import { newToken } from '../auth.js';
import type { GatewayDeps } from '../deps.js';
import { clientOf } from '../load/client-limits.js';
import { retryAfterSeconds } from '../plugins/shedding.js';

/**
 * The session use cases the routes call: create, accept a turn, submit. The
 * routes only translate HTTP; every rule of the contract about sessions and
 * turns lives here.
 */

type ServiceDeps = Pick<GatewayDeps, 'store' | 'queues' | 'config' | 'metrics'>;

/** Takes one of the client's CLIENT_MAX_SESSIONS places for a session about to be made (429 `too_many_sessions` when none is left). */
export async function takeSessionPlace(
  deps: Pick<GatewayDeps, 'quotas' | 'config'>,
  req: FastifyRequest,
  sessionId: string,
): Promise<void> {
  if (await deps.quotas.sessions.take(clientOf(req), sessionId)) return;
  throw new AppError(
    'too_many_sessions',
    `this client holds ${deps.config.clientLimits.sessions} live sessions; delete one or wait until one expires`,
    { status: 429 },
  );
}

export type NewSession =
  | {
      kind: 'form' | 'application';
      sessionId?: string;
      form: SessionForm | null;
      language: 'ja' | 'en' | null;
      referenceDate?: string | null;
    }
  | { kind: 'faq'; language: 'ja' | 'en' | null; faq: FaqState; sessionId?: string; token?: { token: string; hash: string } };

/**
 * Creates a session and returns its id and token. A form or application
 * session starts with the greeter's bootstrap run; an FAQ session waits for
 * its first question. /agent.dialog asks for an FAQ session under an id and
 * token of its own making: null when that id is already taken.
 */
export async function createSession(
  deps: ServiceDeps,
  input: NewSession,
  log: FastifyBaseLogger,
): Promise<{ sessionId: string; token: string } | null> {
  const { token, hash } = (input.kind === 'faq' ? input.token : undefined) ?? newToken();
  const now = new Date().toISOString();
  if (input.kind === 'faq') {
    const sessionId = input.sessionId ?? randomUUID();
    const state = newFaqSession({ sessionId, language: input.language, faq: input.faq, now });
    if (!(await deps.store.createIdle({ state, tokenHash: hash, agent: 'planner' }))) return null;
    log.info({ sessionId, kind: 'faq', access: input.faq.access }, 'session created');
    return { sessionId, token };
  }
  const sessionId = input.sessionId ?? randomUUID();
  const turnId = randomUUID();
  const state = newFormSession({
    sessionId,
    kind: input.kind,
    form: input.form,
    language: input.language,
    firstAgent: 'greeter',
    now,
    referenceDate: input.referenceDate ?? null,
  });
  const step = await deps.store.create({ state, tokenHash: hash, agent: 'greeter', turnId });
  await dispatch(deps, sessionId, step);
  log.info({ sessionId, turnId, kind: input.kind }, 'session created');
  return { sessionId, token };
}

export type SubmitResult = SubmitResponse;

/**
 * Submits a session whose required fields are done (and, for an application,
 * audited): a compare-and-set on the session's version, retried while agents
 * commit in between. Submitting again answers the same.
 */
export async function submitSession(deps: Pick<ServiceDeps, 'store'>, sessionId: string, log: FastifyBaseLogger): Promise<SubmitResult> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const loaded = await deps.store.load(sessionId);
    if (!loaded) throw new NotFoundError(`session ${sessionId} not found`, 'session_not_found');
    const state = loaded.state;
    const interview = state.kind === 'form' || state.kind === 'application' ? state : null;
    const result: SubmitResult = {
      sessionId,
      status: 'submitted',
      collectedFields: interview?.collectedFields ?? {},
      needsReview: interview ? fieldsNeedingReview(interview) : [],
      audit: state.kind === 'application' && state.audit ? mutableCopy<AuditReport>(state.audit) : null,
    };
    if (state.status === 'submitted') return result;
    const missing = interview ? unresolvedRequired(interview) : [];
    if (missing.length > 0) throw new ConflictError('not_ready', `required fields are not done: ${missing.join(', ')}`);
    if (state.kind === 'application' && state.audit === null) throw new ConflictError('not_ready', 'the audit has not run yet');
    const draft = new SessionDraft(state, undefined, true);
    draft.markSubmitted();
    const committed = await deps.store.commit({
      sessionId,
      expectedVersion: loaded.version,
      messagesBefore: loaded.messageCount,
      expectedSeq: null,
      state: draft.state,
      mode: 'none',
      events: draft.events,
      runSteps: [],
    });
    if (committed.ok) {
      log.info({ sessionId }, 'session submitted');
      return result;
    }
  }
  throw new UnavailableError('the session is changing; retry', 1);
}

export type AcceptedTurn = { turnId: string; position: number; outcome: 'started' | 'queued' | 'duplicate' };

/**
 * Accepts a user turn into the session's inbox (docs/api.md, "The turn lifecycle") and
 * dispatches its first step when nothing else runs; every refusal is the
 * contract's error. Shared by POST /v1/sessions/:id/turns and /agent.dialog.
 */
export async function acceptTurn(
  deps: ServiceDeps,
  req: FastifyRequest,
  reply: FastifyReply,
  input: {
    sessionId: string;
    turnId: string;
    message: string;
    idempotencyKey?: string;
    multitask: 'enqueue' | 'reject';
    options?: Record<string, unknown>;
  },
): Promise<AcceptedTurn> {
  const { store, config } = deps;
  const accepted = await store.acceptTurn({
    sessionId: input.sessionId,
    turnId: input.turnId,
    message: input.message,
    idempotencyKey: input.idempotencyKey,
    multitask: input.multitask,
    maxQueued: config.maxQueuedTurns,
    turnLimit: config.sessionTurnLimit,
    acceptedAt: new Date().toISOString(),
    options: input.options,
  });
  switch (accepted.outcome) {
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
    case 'key_reused':
      throw new AppError(
        'idempotency_key_reused',
        'this idempotency key was used for another message in this session; use a new key for a new turn',
        { status: 422 },
      );
    case 'turn_limit':
      throw new ConflictError('session_turn_limit', `the session has taken its ${config.sessionTurnLimit} turns; start a new one`);
  }
  // A retried request (same idempotencyKey) re-dispatches its step: the job id makes that a no-op if it exists.
  await dispatch(deps, input.sessionId, accepted.step);
  req.log.info(
    { sessionId: input.sessionId, turnId: accepted.turnId, position: accepted.position, outcome: accepted.outcome },
    'turn accepted',
  );
  return { turnId: accepted.turnId, position: accepted.position, outcome: accepted.outcome };
}

export type CancelledTurn = { turnId: string; status: 'cancelled' | 'cancelling' };

/**
 * Cancels a turn (docs/api.md, "POST /v1/sessions/:id/turns/:turnId/cancel"): a queued turn is removed at once
 * (`cancelled`, its turn.failed already in the stream); a running one is
 * marked and its model call aborted (`cancelling`: turn.failed with code
 * `cancelled` follows on the stream). The session stays usable.
 */
export async function cancelTurn(
  deps: Pick<ServiceDeps, 'store'>,
  sessionId: string,
  turnId: string,
  log: FastifyBaseLogger,
): Promise<CancelledTurn> {
  const outcome = await deps.store.cancelTurn(sessionId, turnId);
  switch (outcome) {
    case 'not_found':
      throw new NotFoundError(`session ${sessionId} not found`, 'session_not_found');
    case 'turn_not_found':
      throw new NotFoundError(`turn ${turnId} not found in session ${sessionId}`, 'turn_not_found');
    case 'not_active':
      throw new ConflictError('turn_not_active', `turn ${turnId} has already ended`);
  }
  log.info({ sessionId, turnId, outcome }, 'turn cancel requested');
  return { turnId, status: outcome };
}

/**
 * Erases a session: its keys (state, messages, events, turns, run steps) and
 * its step job still waiting in a queue, and gives its place in the client's
 * quota back. A job already running finds the session gone and ends without
 * effect. A worksheet is a session too (DELETE /api/worksheets/:id comes here).
 */
export async function deleteSession(
  deps: Pick<GatewayDeps, 'store' | 'queues' | 'quotas'>,
  sessionId: string,
  log: FastifyBaseLogger,
): Promise<void> {
  const loaded = await deps.store.load(sessionId);
  if (loaded?.step) {
    const job = await deps.queues.forSession(loaded.step.agent, sessionId).getJob(stepJobId(sessionId, loaded.step.seq));
    // A locked (running) job cannot be removed; it is harmless once the session is gone.
    await job?.remove().catch(() => undefined);
  }
  await deps.store.delete(sessionId);
  // A worksheet's place is in the worksheets quota, whichever route deletes it.
  await (loaded?.state.kind === 'workbench' ? deps.quotas.worksheets : deps.quotas.sessions).release(sessionId);
  log.info({ sessionId, kind: loaded?.state.kind }, 'session deleted');
}
