import { createHash, randomUUID } from 'node:crypto';
import { AgentDialogRequest, AppError, ConflictError, type EventType, type LoadedSession, NotFoundError, UnauthorizedError } from '@convo/runtime';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { dialogToken, sameSecret, tokenOf } from '../auth.js';
import type { GatewayDeps } from '../deps.js';
import { dialogResponse } from '../faq/dialog-response.js';
import { streamTurn, turnStartCursor, turnStreamDeps } from '../faq/dialog-stream.js';
import { awaitTurnEnd } from '../faq/turn-waiter.js';
import { createSession } from './service.js';

/**
 * The FAQ dialog's use cases behind POST /agent.dialog: open (or continue)
 * the dialog's session, then either await the turn's result or follow its
 * events. Accepting the turn is the session service's `acceptTurn`.
 */

type DialogDeps = Pick<GatewayDeps, 'store' | 'queues' | 'config' | 'metrics' | 'hub' | 'secret'>;

/** A dialog's session as a turn sees it; `sessionToken` is what the caller continues it with (absent for sessions of POST /v1/sessions). */
export type OpenedDialog = { sessionId: string; lastEventId: number; sessionToken: string | null };

/**
 * The session a dialog turn belongs to. With a `sessionId`: that session,
 * which must exist (404 otherwise: ids are never chosen by clients) and be
 * continued with its token. Without one: a new session under an id the
 * server makes, derived from the Idempotency-Key when there is one (so a
 * retry that lost the first response lands in the same session and gets
 * the same token back), else random. The token is answered with every turn.
 */
export async function openDialog(
  deps: DialogDeps,
  req: FastifyRequest,
  body: AgentDialogRequest,
  language: 'ja' | 'en' | 'auto',
  idempotencyKey: string | undefined,
): Promise<OpenedDialog> {
  if (body.sessionId !== undefined) {
    const existing = await deps.store.load(body.sessionId);
    if (!existing) throw new NotFoundError(`session ${body.sessionId} not found: omit sessionId to start a dialog`, 'session_not_found');
    return checkDialogAccess(req, existing);
  }
  const sessionId = idempotencyKey ? `dialog-${createHash('sha256').update(idempotencyKey).digest('hex').slice(0, 32)}` : randomUUID();
  const token = dialogToken(deps.secret, sessionId);
  const faq = { access: 'dialog' as const, history: (body.history ?? []).map((entry) => ({ role: entry.role, content: entry.content })), turns: [] };
  if (await createSession(deps, { kind: 'faq', sessionId, language: language === 'auto' ? null : language, faq, token }, req.log)) {
    return { sessionId, lastEventId: 0, sessionToken: token.token };
  }
  // The id is taken: a repeat of the request that created it (the Idempotency-Key is its credential, as it was the first time).
  const existing = await deps.store.load(sessionId);
  if (!existing) throw new ConflictError('session_changing', 'the session was created and deleted concurrently; retry');
  return { sessionId, lastEventId: dialogOf(existing).lastEventId, sessionToken: token.token };
}

/** What ends a dialog turn's stream: its answer, or its clarifying questions. */
const DIALOG_RESULT: ReadonlySet<EventType> = new Set(['answer', 'clarify']);

/** Follows one dialog turn over SSE: from its start, or from the client's Last-Event-ID when it resumes or repeats. */
export async function followDialogTurn(
  deps: DialogDeps,
  req: FastifyRequest,
  reply: FastifyReply,
  turn: { sessionId: string; turnId: string; lastEventId: number; repeated: boolean; resumeFrom: number | null },
) {
  const { store } = deps;
  const { sessionId, turnId } = turn;
  const streamDeps = turnStreamDeps(deps);
  if (!turn.repeated && turn.resumeFrom === null) return streamTurn(req, reply, streamDeps, { sessionId, turnId, fromId: turn.lastEventId, begun: false, endOn: DIALOG_RESULT });
  // A repeated request follows the same turn from its start, or from the client's Last-Event-ID.
  const start = await turnStartCursor(store, sessionId, turnId);
  const fromId = turn.resumeFrom ?? start ?? (await store.load(sessionId))?.lastEventId ?? 0;
  return streamTurn(req, reply, streamDeps, { sessionId, turnId, fromId, begun: start !== null && fromId > start, endOn: DIALOG_RESULT });
}

/** Waits for one dialog turn to end and answers with its result (at once for a repeat of a finished turn). */
export async function awaitDialogTurn(deps: DialogDeps, turn: { sessionId: string; turnId: string; lastEventId: number; repeated: boolean; started: number }) {
  const { store, config } = deps;
  const { sessionId, turnId, started } = turn;
  let fromId = turn.lastEventId;
  if (turn.repeated) {
    const loaded = await store.load(sessionId);
    const done = dialogTurns(loaded).find((entry) => entry.turnId === turnId && entry.finishedAt !== null);
    if (done) return dialogResponse(sessionId, done, Math.round(performance.now() - started));
    // Not finished when loaded: its end comes after this event id (state and events commit together).
    fromId = loaded?.lastEventId ?? 0;
  }
  await awaitTurnEnd(deps, {
    sessionId,
    turnId,
    fromId,
    timeoutMs: config.faq.dialogTimeoutMs,
    what: `the dialog turn (session ${sessionId}, turn ${turnId})`,
    onTimeout: 'repeat the request with the same sessionId and Idempotency-Key to get its result',
  });
  const loaded = await store.load(sessionId);
  const result = dialogTurns(loaded).find((entry) => entry.turnId === turnId);
  if (!result) throw new AppError('result_unavailable', 'the turn finished but its result is no longer retained', { status: 502 });
  return dialogResponse(sessionId, result, Math.round(performance.now() - started));
}

/** The results of a dialog's recent turns (none when the session is gone or is not a dialog). */
function dialogTurns(loaded: LoadedSession | null) {
  return loaded?.state.kind === 'faq' ? loaded.state.faq.turns : [];
}

/** A session continued by id: an FAQ session, and the caller holds its token (the dialog's, or the one POST /v1/sessions gave). */
function checkDialogAccess(req: FastifyRequest, session: LoadedSession): OpenedDialog {
  // The token first: nothing about a session, not even its kind, is told to a caller without it.
  if (!sameSecret(tokenOf(req), session.tokenHash)) throw new UnauthorizedError('this dialog needs its session token (Authorization: Bearer <sessionToken>)');
  const { state } = dialogOf(session);
  // The token just checked is the one to continue with.
  const sessionToken = state.kind === 'faq' && state.faq.access === 'dialog' ? tokenOf(req) : null;
  return { sessionId: state.sessionId, lastEventId: session.lastEventId, sessionToken };
}

function dialogOf(session: LoadedSession): LoadedSession {
  const { state } = session;
  if (state.kind !== 'faq') throw new ConflictError('wrong_kind', `session ${state.sessionId} is a ${state.kind} session, not an FAQ dialog`);
  return session;
}
