import type { CreateSessionBody, PostTurnBody } from '@convo/contract';
import { EventStream, type EventStreamOptions } from './event-stream.js';
import { endsTurn, type StreamEvent } from './events.js';
import { newIdempotencyKey } from './ids.js';
import { path, type CallOptions, type Transport } from './transport.js';
import type { CancelResult, CreatedSession, Input, RunSteps, SessionSnapshot, SubmitResponse, TurnAccepted } from './types.js';

export type EventsOptions = EventStreamOptions & {
  /** The session's token; default: the client's. */
  token?: string;
};

export type TurnInput = Input<typeof PostTurnBody>;
export type CreateSessionInput = Input<typeof CreateSessionBody>;

/** Sessions (docs/api.md §2, §3): a form interview, a job application or an FAQ dialog, and its event stream. */
export function sessionCalls(http: Transport) {
  const calls = {
    /** POST /v1/sessions: an interview's greeting starts at once and arrives on the event stream. */
    create: (body: CreateSessionInput, call?: CallOptions) =>
      http.json<CreatedSession>({ method: 'POST', path: '/v1/sessions', json: body, idempotent: false }, call),

    /** GET /v1/sessions/:id. */
    get: (sessionId: string, call?: CallOptions) =>
      http.json<SessionSnapshot>({ method: 'GET', path: path`/v1/sessions/${sessionId}`, idempotent: true }, call),

    /**
     * POST /v1/sessions/:id/turns. Every retry (shed, gateway unreachable)
     * posts the same idempotency key, so a turn whose 202 was lost is never
     * enqueued twice; without one, a UUID is made for this call.
     */
    postTurn: async (sessionId: string, turn: TurnInput, call?: CallOptions): Promise<TurnAccepted> => {
      const idempotencyKey = turn.idempotencyKey ?? newIdempotencyKey();
      const accepted = await http.json<Omit<TurnAccepted, 'idempotencyKey'>>(
        { method: 'POST', path: path`/v1/sessions/${sessionId}/turns`, json: { ...turn, idempotencyKey }, idempotent: true },
        call,
      );
      return { ...accepted, idempotencyKey };
    },

    /** POST /v1/sessions/:id/turns/:turnId/cancel: a 202 always ends in the turn's `turn.failed` (code `cancelled`). */
    cancelTurn: (sessionId: string, turnId: string, call?: CallOptions) =>
      http.json<CancelResult>({ method: 'POST', path: path`/v1/sessions/${sessionId}/turns/${turnId}/cancel`, idempotent: true }, call),

    /** POST /v1/sessions/:id/submit: 409 (`ApiError`) until every required field is done. */
    submit: (sessionId: string, call?: CallOptions) =>
      http.json<SubmitResponse>({ method: 'POST', path: path`/v1/sessions/${sessionId}/submit`, idempotent: true }, call),

    /** DELETE /v1/sessions/:id: erases the session. */
    delete: (sessionId: string, call?: CallOptions) =>
      http.json<void>({ method: 'DELETE', path: path`/v1/sessions/${sessionId}`, idempotent: true }, call),

    /** GET /v1/sessions/:id/runsteps: the audit log of tool executions. */
    runSteps: (sessionId: string, call?: CallOptions) =>
      http.json<RunSteps>({ method: 'GET', path: path`/v1/sessions/${sessionId}/runsteps`, idempotent: true }, call),

    /**
     * GET /v1/sessions/:id/events as a resumable stream of typed events:
     * `for await (const ev of client.sessions.events(id))`.
     */
    events: (sessionId: string, options: EventsOptions = {}) => {
      const { token, ...streamOptions } = options;
      return new EventStream(
        {
          resumable: true,
          open: (lastEventId, signal) =>
            http.once(
              {
                method: 'GET',
                path: path`/v1/sessions/${sessionId}/events`,
                accept: 'text/event-stream',
                headers: { 'cache-control': 'no-cache', ...(lastEventId > 0 ? { 'last-event-id': String(lastEventId) } : {}) },
                idempotent: true,
              },
              { token, signal },
            ),
        },
        streamOptions,
      );
    },

    /**
     * The events of one turn, from its `turn.queued` or `turn.started` to its
     * `turn.completed` or `turn.failed` (the last one yielded); the stream is
     * closed then. Start from a `lastEventId` taken before the turn was posted
     * (a snapshot's) so nothing of it is missed; events of other turns are
     * left out.
     */
    followTurn: async function* (
      sessionId: string,
      turnId: string,
      options: EventsOptions = {},
    ): AsyncGenerator<StreamEvent, void, undefined> {
      let begun = false;
      for await (const ev of calls.events(sessionId, options)) {
        const ours = 'turnId' in ev.data && ev.data.turnId === turnId;
        if (ev.type === 'turn.started' && ours) begun = true;
        if (!begun && !(ev.type === 'turn.queued' && ours)) continue;
        yield ev;
        if (endsTurn(ev, turnId)) return;
      }
    },
  };
  return calls;
}
