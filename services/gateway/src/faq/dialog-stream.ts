import type { ServerResponse } from 'node:http';
import type { SessionStore } from '@convo/runtime';
import type { EventType, SessionEvent } from '@convo/contract';
import type { GatewayDeps } from '../deps.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { replayAndFollow } from '../sse/replay.js';
import { openEventStream, SseClient } from '../sse/sse-client.js';
import { guardStream } from '../sse/stream-guard.js';
import type { StreamHub } from '../sse/stream-hub.js';

/**
 * The events of one turn over SSE (`/agent.dialog`, the workbench agent with
 * `Accept: text/event-stream`), ending after the event the caller names as the
 * turn's result (`endOn`), or its `turn.failed`. Only that
 * turn's events are sent: before its `turn.started`, only its own
 * `turn.queued`; so another turn of the same session running first (a
 * second tab) does not leak into this response or end it early.
 */
export class DialogStreamClient extends SseClient {
  constructor(
    sessionId: string,
    raw: ServerResponse,
    cursor: number,
    maxBufferBytes: number,
    private readonly turnId: string,
    /** True when the client already has the turn's start (it resumes with Last-Event-ID past it). */
    private begun: boolean,
    /** The event types that carry the turn's result and end the stream. */
    private readonly endOn: ReadonlySet<EventType>,
  ) {
    super(sessionId, raw, cursor, maxBufferBytes);
  }

  override write(ev: SessionEvent): void {
    if (this.isClosed || ev.id <= this.cursor) return;
    const ours = 'turnId' in ev.data && ev.data.turnId === this.turnId;
    if (ev.type === 'turn.started' && ours) this.begun = true;
    if (!this.begun && !(ev.type === 'turn.queued' && ours)) {
      // Not this turn's: skipped, but the cursor moves on so the replay loop advances.
      this.cursor = ev.id;
      return;
    }
    super.write(ev);
    const end = (this.endOn.has(ev.type) && (ours || !('turnId' in ev.data))) || (ev.type === 'turn.failed' && ours);
    if (end) this.close('end of turn');
  }
}

/**
 * The id just before the first event of `turnId` (its turn.queued or
 * turn.started), found by scanning the retained events; null when the turn
 * has none yet, or they were trimmed. Only for a repeated request
 * (Idempotency-Key), so the scan is rare and bounded by EVENTS_MAXLEN.
 */
export async function turnStartCursor(store: SessionStore, sessionId: string, turnId: string): Promise<number | null> {
  for await (const ev of store.eventsAfter(sessionId, 0)) {
    if ('turnId' in ev.data && ev.data.turnId === turnId) return ev.id - 1;
  }
  return null;
}

export type StreamTurnDeps = Pick<GatewayDeps, 'quotas'> & {
  store: SessionStore;
  hub: StreamHub;
  maxBufferBytes: number;
  retryMs: number;
  timeoutMs: number;
};

/** The stream settings of the gateway's turn streams. */
export function turnStreamDeps(deps: Pick<GatewayDeps, 'store' | 'hub' | 'config' | 'quotas'>): StreamTurnDeps {
  return {
    store: deps.store,
    hub: deps.hub,
    quotas: deps.quotas,
    maxBufferBytes: deps.config.sse.maxBufferBytes,
    retryMs: deps.config.sse.retryMs,
    timeoutMs: deps.config.faq.dialogTimeoutMs,
  };
}

/** Hijacks the reply and streams the turn from `fromId`: replay first, then the live tail, without gaps or repeats. */
export async function streamTurn(
  req: FastifyRequest,
  reply: FastifyReply,
  deps: StreamTurnDeps,
  input: { sessionId: string; turnId: string; fromId: number; begun: boolean; endOn: ReadonlySet<EventType>; route: string },
): Promise<void> {
  reply.header('x-session-id', input.sessionId).header('x-turn-id', input.turnId);
  guardStream(deps, req, reply, { sessionId: input.sessionId, route: input.route });
  const raw = openEventStream(reply, deps.retryMs);
  const client = new DialogStreamClient(input.sessionId, raw, input.fromId, deps.maxBufferBytes, input.turnId, input.begun, input.endOn);
  const timer = setTimeout(
    () => client.close('timeout: the turn continues; repeat the request with the same Idempotency-Key to follow it'),
    deps.timeoutMs,
  );
  client.onClose(() => clearTimeout(timer));
  await replayAndFollow(deps.store, deps.hub, client, req.log);
}
