import { createHash, randomUUID } from 'node:crypto';
import {
  AgentDialogRequest,
  AgentSearchRequest,
  AgentSearchResponse,
  AppError,
  ConflictError,
  enqueueSearchQuery,
  ErrorResponse,
  type LoadedSession,
  resolveDialogOptions,
  type SearchQueryJob,
  UnauthorizedError,
  UnavailableError,
  ValidationError,
} from '@convo/runtime';
import { Job, type Queue, type QueueEvents } from 'bullmq';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sameSecret, tokenOf } from '../auth.js';
import type { GatewayDeps } from '../deps.js';
import { dialogResponse } from '../faq/dialog-response.js';
import { streamTurn, turnStartCursor } from '../faq/dialog-stream.js';
import { TurnWaiter } from '../faq/turn-waiter.js';
import { requestedEventId } from '../sse/event-id.js';
import { WORK_ROUTE } from '../plugins/shedding.js';
import { acceptTurn, createSession } from '../sessions/service.js';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse, 429: ErrorResponse, 502: ErrorResponse, 503: ErrorResponse, 504: ErrorResponse };

class TimeoutError extends AppError {
  constructor(message: string) {
    super('timeout', message, { status: 504 });
  }
}

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,200}$/;

/** The `Idempotency-Key` header: a retry with the same key gets the same turn, never a second one. */
function idempotencyKeyOf(req: FastifyRequest): string | undefined {
  const raw = req.headers['idempotency-key'];
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string' || !IDEMPOTENCY_KEY.test(raw)) {
    throw new ValidationError('Idempotency-Key must be 1 to 200 visible ASCII characters');
  }
  return raw;
}

function wantsEventStream(req: FastifyRequest): boolean {
  return /text\/event-stream/i.test(String(req.headers.accept ?? ''));
}

/**
 * POST /agent.search and POST /agent.dialog (docs/API.md §2, docs/seeds/002 §4). Both
 * only enqueue: the search agent and the planner do the work in their own
 * processes, and the gateway waits for it without polling.
 */
export function faqDialogRoutes(deps: GatewayDeps): FastifyPluginAsyncZod {
  const { store, config, queues, hub } = deps;

  return async (app) => {
    app.post(
      '/agent.search',
      { config: WORK_ROUTE, schema: { tags: ['faq'], summary: 'Single-shot FAQ search with an answer from the best hit', body: AgentSearchRequest, response: { 200: AgentSearchResponse, ...errors } } },
      async (req) => {
        const payload: SearchQueryJob = { v: 1, query: req.body.query, topK: req.body.topK, language: req.body.language };
        // Listening before the job exists, so its completion cannot be missed.
        const events = await deps.searchEvents();
        const job = await enqueueSearchQuery(queues, payload);
        return AgentSearchResponse.parse(await awaitSearch(queues.get('search'), job, events, config.faq.searchTimeoutMs));
      },
    );

    app.post(
      '/agent.dialog',
      {
        config: WORK_ROUTE,
        schema: {
          tags: ['faq'],
          summary: "One FAQ dialog turn: JSON by default, the turn's events with Accept: text/event-stream",
          body: AgentDialogRequest,
          headers: z.object({ 'idempotency-key': z.string().optional() }).passthrough(),
          response: { 200: z.record(z.string(), z.unknown()), ...errors },
        },
      },
      async (req, reply) => {
        const body = req.body;
        const options = resolveDialogOptions(body.options, { topK: config.faq.topK });
        if (options.mode === 'crew' && !config.faq.crewUrl) {
          throw new ValidationError('mode "crew" needs an external orchestrator: set CREW_URL', 'crew_not_configured');
        }
        const idempotencyKey = idempotencyKeyOf(req);
        const resumeFrom = requestedEventId(req);
        const started = performance.now();
        const { sessionId, lastEventId } = await openDialog(req, body, options.language, idempotencyKey);
        const accepted = await acceptTurn(deps, req, reply, { sessionId, turnId: randomUUID(), message: body.message, idempotencyKey, multitask: 'enqueue', options });
        const turnId = accepted.turnId;
        reply.header('x-session-id', sessionId).header('x-turn-id', turnId);
        const repeated = accepted.outcome === 'duplicate';

        if (wantsEventStream(req)) {
          const streamDeps = { store, hub, maxBufferBytes: config.sse.maxBufferBytes, retryMs: config.sse.retryMs, timeoutMs: config.faq.dialogTimeoutMs };
          if (!repeated && resumeFrom === null) return streamTurn(req, reply, streamDeps, { sessionId, turnId, fromId: lastEventId, begun: false });
          // A repeated request follows the same turn from its start, or from the client's Last-Event-ID.
          const start = await turnStartCursor(store, sessionId, turnId);
          const fromId = resumeFrom ?? start ?? (await store.load(sessionId))?.lastEventId ?? 0;
          return streamTurn(req, reply, streamDeps, { sessionId, turnId, fromId, begun: start !== null && fromId > start });
        }

        let fromId = lastEventId;
        if (repeated) {
          const loaded = await store.load(sessionId);
          const done = dialogTurns(loaded).find((turn) => turn.turnId === turnId && turn.finishedAt !== null);
          if (done) return dialogResponse(sessionId, done, Math.round(performance.now() - started));
          // Not finished when loaded: its end comes after this event id (state and events commit together).
          fromId = loaded?.lastEventId ?? 0;
        }
        const end = await TurnWaiter.wait(hub, store, { sessionId, turnId, fromId, timeoutMs: config.faq.dialogTimeoutMs });
        if (end.kind === 'closed') {
          throw new UnavailableError('this gateway is shutting down; repeat the request with the same sessionId and Idempotency-Key', 1, 'shutting_down');
        }
        if (end.kind === 'timeout') {
          throw new TimeoutError(
            `the dialog turn did not finish within ${config.faq.dialogTimeoutMs} ms; it goes on (session ${sessionId}, turn ${turnId}): ` +
              'repeat the request with the same sessionId and Idempotency-Key to get its result',
          );
        }
        if (end.kind === 'failed') {
          const failure = (end.event.data as { error: { code: string; message: string } }).error;
          throw new AppError(failure.code, failure.message, { status: 502 });
        }
        const loaded = await store.load(sessionId);
        const result = dialogTurns(loaded).find((turn) => turn.turnId === turnId);
        if (!result) throw new AppError('result_unavailable', 'the turn finished but its result is no longer retained', { status: 502 });
        return dialogResponse(sessionId, result, Math.round(performance.now() - started));
      },
    );

    /**
     * The session a dialog turn belongs to: the given one (created under that
     * id when new, as the seed's contextStore keyed by sessionId), else one
     * derived from the Idempotency-Key (so a retry that lost the first
     * response's sessionId lands in the same session), else a new one.
     */
    async function openDialog(
      req: FastifyRequest,
      body: AgentDialogRequest,
      language: 'ja' | 'en' | 'auto',
      idempotencyKey: string | undefined,
    ): Promise<{ sessionId: string; lastEventId: number }> {
      const sessionId = body.sessionId ?? (idempotencyKey ? `dialog-${createHash('sha256').update(idempotencyKey).digest('hex').slice(0, 32)}` : randomUUID());
      const existing = await store.load(sessionId);
      if (existing) return { sessionId, lastEventId: checkDialogAccess(req, existing) };
      const faq = { access: 'dialog' as const, history: (body.history ?? []).map((entry) => ({ role: entry.role, content: entry.content })), turns: [] };
      if (await createSession(deps, { kind: 'faq', sessionId, language: language === 'auto' ? null : language, faq }, req.log)) return { sessionId, lastEventId: 0 };
      // Created by a concurrent request with the same id.
      const raced = await store.load(sessionId);
      if (!raced) throw new ConflictError('session_changing', 'the session was created and deleted concurrently; retry');
      return { sessionId, lastEventId: checkDialogAccess(req, raced) };
    }
  };
}

/** The results of a dialog's recent turns (none when the session is gone or is not a dialog). */
function dialogTurns(loaded: LoadedSession | null) {
  return loaded?.state.kind === 'faq' ? loaded.state.faq.turns : [];
}

function checkDialogAccess(req: FastifyRequest, session: LoadedSession): number {
  const { state } = session;
  if (state.kind !== 'faq') throw new ConflictError('wrong_kind', `session ${state.sessionId} is a ${state.kind} session, not an FAQ dialog`);
  // A session made with POST /v1/sessions keeps its token requirement here too: the right token, not just one.
  if (state.faq.access === 'token' && !sameSecret(tokenOf(req), session.tokenHash)) throw new UnauthorizedError();
  return session.lastEventId;
}

/**
 * The search job's result. BullMQ's completion event is the fast path; a
 * timeout looks at the job once more (an event lost to a trimmed events
 * stream must not turn a finished search into a 504) and withdraws a job no
 * worker has taken yet, so an abandoned request costs no search.
 */
async function awaitSearch(queue: Queue, job: Job, events: QueueEvents, timeoutMs: number): Promise<unknown> {
  try {
    return await job.waitUntilFinished(events, timeoutMs);
  } catch (err) {
    const timedOut = err instanceof Error && /timed out/i.test(err.message);
    if (!timedOut) throw new AppError('search_failed', `the search failed: ${err instanceof Error ? err.message : String(err)}`, { status: 502 });
    const state = await job.getState();
    if (state === 'completed') {
      const fresh = await Job.fromId(queue, job.id!);
      if (fresh) return fresh.returnvalue;
    }
    if (state === 'waiting' || state === 'prioritized' || state === 'delayed') await job.remove().catch(() => undefined);
    throw new TimeoutError(`the search did not finish within ${timeoutMs} ms`);
  }
}
