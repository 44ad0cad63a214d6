import type { AgentDialogRequest, AgentSearchRequest, AgentSearchResponse, FaqDocument, FaqDocumentInput } from '@convo/contract';
import { EventStream, type EventStreamOptions } from './event-stream.js';
import type { StreamEvent } from './events.js';
import { newIdempotencyKey } from './ids.js';
import { path, type CallOptions, type Transport } from './transport.js';
import type { DialogResponse, Input } from './types.js';

export type DialogInput = Input<typeof AgentDialogRequest>;

export type DialogCallOptions = CallOptions & {
  /**
   * Makes the call repeatable: a repeat lands on the same turn (and, for a new
   * dialog, the same session and token). Default: a UUID made for this call,
   * which every retry reuses.
   */
  idempotencyKey?: string;
};

/** A dialog turn over SSE: the session it runs in (known once the gateway answered), and its events. */
export class DialogStream extends EventStream {
  constructor(
    source: ConstructorParameters<typeof EventStream>[0],
    options: EventStreamOptions,
    first: Response,
    readonly sessionId: string,
    readonly turnId: string,
    /** Set when the call started a dialog: continue it with this token. */
    readonly sessionToken: string | null,
    readonly idempotencyKey: string,
  ) {
    super(source, options, first);
  }
}

/** Ends a dialog turn's stream as the gateway does: its answer or clarifying questions, or its failure. */
function endsDialogTurn(ev: StreamEvent, turnId: string): boolean {
  return ev.type === 'answer' || ev.type === 'clarify' || (ev.type === 'turn.failed' && ev.data.turnId === turnId);
}

export type DocumentList = { documents: FaqDocument[]; total: number; version: number };
export type UpsertResult = { upserted: number; created: number; updated: number; ids: string[]; version: number };

/** The FAQ dialog (docs/api.md §4): search, the dialog as JSON or SSE, and the corpus. */
export function faqCalls(http: Transport) {
  return {
    /** POST /agent.search: one search, answered from the best hit. */
    search: (body: Input<typeof AgentSearchRequest>, call?: CallOptions) =>
      http.json<AgentSearchResponse>({ method: 'POST', path: '/agent.search', json: body, idempotent: true }, call),

    /**
     * POST /agent.dialog (JSON): one dialog turn. To continue a dialog, send
     * its `sessionId` with `token` set to the `sessionToken` the first call returned.
     */
    dialog: (body: DialogInput, call: DialogCallOptions = {}) => {
      const { idempotencyKey = newIdempotencyKey(), ...rest } = call;
      return http.json<DialogResponse>(
        { method: 'POST', path: '/agent.dialog', json: body, headers: { 'idempotency-key': idempotencyKey }, idempotent: true },
        rest,
      );
    },

    /**
     * POST /agent.dialog with `Accept: text/event-stream`: resolves once the
     * gateway accepted the turn, with its session, token and events. The
     * stream ends after `answer` or `clarify` (or `turn.failed`); a dropped
     * connection is followed again by repeating the request with the same
     * Idempotency-Key and `Last-Event-ID`.
     */
    dialogStream: async (
      body: DialogInput,
      call: DialogCallOptions & Omit<EventStreamOptions, 'signal' | 'lastEventId'> = {},
    ): Promise<DialogStream> => {
      const { idempotencyKey = newIdempotencyKey(), signal, token, retry, ...streamOptions } = call;
      const request = (lastEventId: number) => ({
        method: 'POST' as const,
        path: '/agent.dialog',
        json: body,
        accept: 'text/event-stream',
        headers: { 'idempotency-key': idempotencyKey, ...(lastEventId > 0 ? { 'last-event-id': String(lastEventId) } : {}) },
        idempotent: true,
      });
      const first = await http.send(request(0), { signal, token, retry });
      const sessionId = first.headers.get('x-session-id') ?? body.sessionId ?? '';
      const turnId = first.headers.get('x-turn-id') ?? '';
      const sessionToken = first.headers.get('x-session-token');
      // A repeat is the very same request: the dialog's turn is found again by its key.
      const source = {
        resumable: true,
        open: (lastEventId: number, s: AbortSignal) => http.once(request(lastEventId), { token, signal: s }),
        isEnd: (ev: StreamEvent) => endsDialogTurn(ev, turnId),
      };
      return new DialogStream(
        source,
        { ...streamOptions, ...(signal ? { signal } : {}) },
        first,
        sessionId,
        turnId,
        sessionToken,
        idempotencyKey,
      );
    },

    documents: {
      /** GET /faq/documents, sorted by id. */
      list: (query: { language?: 'ja' | 'en'; limit?: number; offset?: number } = {}, call?: CallOptions) =>
        http.json<DocumentList>({ method: 'GET', path: '/faq/documents', query, idempotent: true }, call),

      /** POST /faq/documents (JSON): upserts all or none; needs the write key as `token`. */
      upsert: (documents: FaqDocumentInput | FaqDocumentInput[], call?: CallOptions) =>
        http.json<UpsertResult>({ method: 'POST', path: '/faq/documents', json: documents, idempotent: true }, call),

      /** POST /faq/documents (text/csv with a header row: id?, question, answer, tags?, language?). */
      upsertCsv: (csv: string, call?: CallOptions) =>
        http.json<UpsertResult>(
          { method: 'POST', path: '/faq/documents', text: { body: csv, contentType: 'text/csv' }, idempotent: true },
          call,
        ),

      /** DELETE /faq/documents/:id: 404 `document_not_found` when there is none. */
      delete: (id: string, call?: CallOptions) =>
        http.json<void>({ method: 'DELETE', path: path`/faq/documents/${id}`, idempotent: true }, call),
    },
  };
}
