import { createHash, randomUUID } from 'node:crypto';
import { AppError, ConflictError, type LoadedSession, UnauthorizedError } from '@convo/runtime';
import { AgentDialogRequest, type EventType } from '@convo/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { dialogToken, recoverDialogToken, sameSecret, sessionNotFound, tokenOf } from '../auth.js';
import type { GatewayDeps } from '../deps.js';
import { dialogResponse } from '../faq/dialog-response.js';
import { streamTurn, turnStartCursor, turnStreamDeps } from '../faq/dialog-stream.js';
import { awaitTurnEnd } from './turn-waiter.js';
import { createSession, takeSessionPlace } from './service.js';

/**
 * The FAQ dialog's use cases behind POST /agent.dialog: open (or continue)
 * the dialog's session, then either await the turn's result or follow its
 * events. Accepting the turn is the session service's `acceptTurn`.
 */

type DialogDeps = Pick<GatewayDeps, 'store' | 'queues' | 'config' | 'metrics' | 'hub' | 'secrets' | 'redis' | 'quotas'>;

/** A dialog's session as a turn sees it; `sessionToken` is what the caller continues it with (absent for sessions of POST /v1/sessions). */
export type OpenedDialog = { sessionId: string; lastEventId: number; sessionToken: string | null };

/**
 * The session a dialog turn belongs to. With a `sessionId`: that session,
 * continued with its token (404 for an id that does not exist or a token that
 * is not its: ids are never chosen by clients). Without one: a new session
 * under an id the server makes — random, or derived from the Idempotency-Key
 * so a retry that lost the first response lands in the same session and gets
 * the same token back. The key alone is not a credential: the first request
 * with it records a fingerprint of its body, and a request with the same key
 * and another body is refused (422 idempotency_key_reused).
 */
export async function openDialog(
  deps: DialogDeps,
  req: FastifyRequest,
  body: AgentDialogRequest,
  language: 'ja' | 'en' | 'auto',
  idempotencyKey: string | undefined,
): Promise<OpenedDialog> {
  if (body.sessionId !== undefined) {
    const presented = tokenOf(req);
    if (presented === null) throw new UnauthorizedError('this dialog needs its session token (Authorization: Bearer <sessionToken>)');
    const existing = await deps.store.load(body.sessionId);
    if (!existing || !sameSecret(presented, existing.tokenHash)) throw sessionNotFound(body.sessionId);
    return continuedDialog(existing, presented);
  }
  const sessionId = idempotencyKey ? `dialog-${createHash('sha256').update(idempotencyKey).digest('hex').slice(0, 32)}` : randomUUID();
  const secrets = await deps.secrets();
  const token = dialogToken(secrets.current, sessionId);
  if (idempotencyKey && !(await claimKey(deps, sessionId, fingerprint(body)))) return repeatedDialog(deps, sessionId);
  // Refused for the quota: the key is free again, so the client can retry it later.
  await takeSessionPlace(deps, req, sessionId).catch(async (err: unknown) => {
    if (idempotencyKey) await deps.redis.del(dialogKeyOf(deps, sessionId));
    throw err;
  });
  const faq = {
    access: 'dialog' as const,
    history: (body.history ?? []).map((entry) => ({ role: entry.role, content: entry.content })),
    turns: [],
  };
  if (await createSession(deps, { kind: 'faq', sessionId, language: language === 'auto' ? null : language, faq, token }, req.log)) {
    return { sessionId, lastEventId: 0, sessionToken: token.token };
  }
  // A random id that was taken (never in practice), or a keyed dialog that outlived its claim (a session's TTL is renewed
  // by its turns, the claim's is not). The claim just made names this body, not the session's: dropped, or a repeat of
  // this body would be handed the session's token (repeatedDialog).
  if (idempotencyKey) await deps.redis.del(dialogKeyOf(deps, sessionId));
  throw new ConflictError('session_changing', 'the dialog id is taken; retry with another Idempotency-Key');
}

/** What identifies a new dialog's first request: its message, options and history. */
function fingerprint(body: AgentDialogRequest): string {
  return createHash('sha256')
    .update(JSON.stringify([body.message, body.options ?? null, body.history ?? null]))
    .digest('hex');
}

const dialogKeyOf = (deps: DialogDeps, sessionId: string) => `${deps.config.keyPrefix}:dialog-key:${sessionId}`;

/**
 * Claims a dialog id for a body (SET NX, kept as long as a session lives). True: this request
 * creates the dialog. False: a request with the same key came first — with the same body
 * (a retry, which gets that dialog), or with another (refused).
 */
async function claimKey(deps: DialogDeps, sessionId: string, bodyPrint: string): Promise<boolean> {
  const key = dialogKeyOf(deps, sessionId);
  if (await deps.redis.set(key, bodyPrint, 'EX', deps.config.sessionTtlSeconds, 'NX')) return true;
  if ((await deps.redis.get(key)) !== bodyPrint) {
    throw new AppError('idempotency_key_reused', 'this Idempotency-Key was used for another request; use a new key for a new dialog', {
      status: 422,
    });
  }
  return false;
}

/** A retry of the request that created a dialog: the same session and the token it was made with. */
async function repeatedDialog(deps: DialogDeps, sessionId: string): Promise<OpenedDialog> {
  // The first request may still be creating it.
  for (let attempt = 0; attempt < 20; attempt++) {
    const existing = await deps.store.load(sessionId);
    if (existing) {
      const token = recoverDialogToken(await deps.secrets(), sessionId, existing.tokenHash);
      if (!token)
        throw new ConflictError(
          'dialog_token_expired',
          'the dialog was made with a secret that has since been rotated out; start a new dialog',
        );
      return { sessionId, lastEventId: dialogOf(existing).lastEventId, sessionToken: token };
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new ConflictError('session_changing', 'the dialog is being created or was deleted; retry');
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
  if (!turn.repeated && turn.resumeFrom === null)
    return streamTurn(req, reply, streamDeps, {
      sessionId,
      turnId,
      fromId: turn.lastEventId,
      begun: false,
      endOn: DIALOG_RESULT,
      route: 'agent.dialog',
    });
  // A repeated request follows the same turn from its start, or from the client's Last-Event-ID.
  const start = await turnStartCursor(store, sessionId, turnId);
  const fromId = turn.resumeFrom ?? start ?? (await store.load(sessionId))?.lastEventId ?? 0;
  return streamTurn(req, reply, streamDeps, {
    sessionId,
    turnId,
    fromId,
    begun: start !== null && fromId > start,
    endOn: DIALOG_RESULT,
    route: 'agent.dialog',
  });
}

/** Waits for one dialog turn to end and answers with its result (at once for a repeat of a finished turn). */
export async function awaitDialogTurn(
  deps: DialogDeps,
  turn: { sessionId: string; turnId: string; lastEventId: number; repeated: boolean; started: number },
) {
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

/** A session continued by id with its token: an FAQ session (the dialog's, or one POST /v1/sessions gave). */
function continuedDialog(session: LoadedSession, presented: string): OpenedDialog {
  const { state } = dialogOf(session);
  // The token just checked is the one to continue with.
  const sessionToken = state.kind === 'faq' && state.faq.access === 'dialog' ? presented : null;
  return { sessionId: state.sessionId, lastEventId: session.lastEventId, sessionToken };
}

function dialogOf(session: LoadedSession): LoadedSession {
  const { state } = session;
  if (state.kind !== 'faq')
    throw new ConflictError('wrong_kind', `session ${state.sessionId} is a ${state.kind} session, not an FAQ dialog`);
  return session;
}
