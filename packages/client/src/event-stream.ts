import { ApiError } from './errors.js';
import type { StreamEvent } from './events.js';
import { toStreamEvent } from './events.js';
import { sleep } from './retry.js';
import { SseParser } from './sse-parser.js';

export type StreamState = 'connecting' | 'open' | 'reconnecting' | 'closed';

export interface StreamStateDetail {
  /** Failed attempts in a row (0 once open). */
  attempt: number;
  /** How long until the next attempt, when reconnecting. */
  delayMs: number;
  /** Why the last attempt failed, when it did with an answer or no gateway. */
  error?: ApiError;
}

export interface EventStreamOptions {
  /** Resume after this event (sent as `Last-Event-ID`); 0 or absent: the whole history first. */
  lastEventId?: number;
  /** Ends the stream: the iteration finishes without an error. */
  signal?: AbortSignal;
  /** Told when the connection opens, drops (with the wait before the next attempt) and closes. */
  onState?: (state: StreamState, detail: StreamStateDetail) => void;
  /** Cap of the wait between attempts (default 15 s). */
  maxDelayMs?: number;
  /**
   * A connection that brings nothing, not even the heartbeat comment the
   * server sends every 15 s, for this long is taken as dead and replaced
   * (default 45 s; 0 turns it off).
   */
  idleTimeoutMs?: number;
}

/** Where a stream's connections come from. */
export interface StreamSource {
  /** Opens one connection resuming after `lastEventId` (0: from the start); throws an ApiError for an error answer. */
  open(lastEventId: number, signal: AbortSignal): Promise<Response>;
  /** Whether the stream is complete after this event (a turn's stream ends with its result). */
  isEnd?(ev: StreamEvent): boolean;
  /** Whether a dropped connection may be opened again (false for a request that must not be repeated). */
  resumable: boolean;
}

/** The wait before the first reconnect until the server's `retry:` says otherwise. */
export const DEFAULT_RECONNECT_MS = 1_000;
const DEFAULT_MAX_DELAY_MS = 15_000;
const DEFAULT_IDLE_TIMEOUT_MS = 45_000;

/**
 * A resumable stream of typed events, iterated once with `for await`. It
 * reads text/event-stream incrementally over fetch and, when a connection
 * drops (server restart, network, a 429/5xx answer), opens a new one with
 * `Last-Event-ID` after the server's `retry:` delay (doubling while attempts
 * keep failing; a `Retry-After` is obeyed). Events are yielded as the server
 * sent them, none withheld: the contract delivers each stored event exactly
 * once across reconnects, and a `resync` (the requested history is gone) is
 * an event like the others, whose snapshot replaces the client's state.
 * It ends when the source's last event came, on `close()` or an aborted
 * signal; it throws an ApiError when the server refuses it for good (401,
 * 404…).
 */
export class EventStream implements AsyncIterable<StreamEvent> {
  /** Connections opened again after a drop. */
  reconnects = 0;
  /** Messages left out as not the contract's events (unknown type, no integer id, data not a JSON object): a server's fault. */
  ignored = 0;
  private last: number;
  private retryMs = DEFAULT_RECONNECT_MS;
  private readonly closer = new AbortController();
  private wake: (() => void) | null = null;
  private iterated = false;

  constructor(
    private readonly source: StreamSource,
    private readonly options: EventStreamOptions = {},
    /** An answer already opened by the caller (a POST stream whose headers it needed), read first. */
    private first: Response | null = null,
  ) {
    this.last = options.lastEventId ?? 0;
  }

  /** The id of the last stored event delivered: where a new stream would resume. */
  get lastEventId(): number {
    return this.last;
  }

  /** Stops for good; the iteration ends. */
  close(): void {
    this.closer.abort();
  }

  /** Skips the rest of the wait before the next attempt (a person pressed "reconnect"). */
  reconnectNow(): void {
    this.wake?.();
  }

  [Symbol.asyncIterator](): AsyncIterator<StreamEvent> {
    if (this.iterated) throw new Error('an EventStream can be iterated once; open another to read again');
    this.iterated = true;
    return this.run();
  }

  private state(state: StreamState, detail: StreamStateDetail): void {
    this.options.onState?.(state, detail);
  }

  private async *run(): AsyncGenerator<StreamEvent, void, undefined> {
    const signal = this.options.signal ? AbortSignal.any([this.closer.signal, this.options.signal]) : this.closer.signal;
    let failures = 0;
    let opened = false;
    try {
      this.state('connecting', { attempt: 0, delayMs: 0 });
      while (!signal.aborted) {
        const connection = new AbortController();
        const connSignal = AbortSignal.any([signal, connection.signal]);
        let error: ApiError | undefined;
        let res: Response | null = this.first;
        this.first = null;
        if (res === null) {
          try {
            res = await this.source.open(this.last, connSignal);
          } catch (err) {
            if (signal.aborted) return;
            if (!(err instanceof ApiError) || !transient(err)) throw err;
            error = err;
          }
        }
        if (res !== null) {
          if (opened) this.reconnects++;
          opened = true;
          failures = 0;
          this.state('open', { attempt: 0, delayMs: 0 });
          for await (const ev of this.read(res, connection, signal)) {
            yield ev;
            if (this.source.isEnd?.(ev)) return;
          }
          if (signal.aborted) return;
        }
        if (!this.source.resumable)
          throw error ?? new ApiError(0, 'stream_ended', 'The stream ended before its last event, and the request may not be repeated.');
        failures++;
        const delayMs = Math.min(
          this.options.maxDelayMs ?? DEFAULT_MAX_DELAY_MS,
          error?.retryAfterMs ?? this.retryMs * 2 ** Math.min(failures - 1, 16),
        );
        this.state('reconnecting', { attempt: failures, delayMs, ...(error ? { error } : {}) });
        await this.pause(delayMs, signal);
      }
    } finally {
      this.closer.abort();
      this.state('closed', { attempt: failures, delayMs: 0 });
    }
  }

  /** The events of one connection until it ends or drops; a drop ends the iteration quietly. */
  private async *read(res: Response, connection: AbortController, signal: AbortSignal): AsyncGenerator<StreamEvent, void, undefined> {
    if (res.body === null) return;
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    const pending: StreamEvent[] = [];
    const parser = new SseParser({
      onEvent: (message) => {
        const ev = toStreamEvent(message);
        if (ev) pending.push(ev);
        else this.ignored++;
      },
      onRetry: (ms) => (this.retryMs = ms),
    });
    const idleMs = this.options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
    let idle: ReturnType<typeof setTimeout> | undefined;
    const watch = () => {
      if (idleMs <= 0) return;
      clearTimeout(idle);
      idle = setTimeout(() => connection.abort(new Error(`nothing received for ${idleMs} ms`)), idleMs);
    };
    // The connection's own abort (idle) must also stop a read in progress on bodies that ignore the fetch signal.
    const onAbort = () => void reader.cancel().catch(() => undefined);
    connection.signal.addEventListener('abort', onAbort, { once: true });
    try {
      watch();
      for (;;) {
        let chunk: ReadableStreamReadResult<string>;
        try {
          chunk = await reader.read();
        } catch {
          return; // dropped (reset, aborted): the caller decides whether to go on
        }
        if (chunk.done || signal.aborted) return;
        watch();
        parser.push(chunk.value);
        while (pending.length > 0) {
          const ev = pending.shift() as StreamEvent;
          this.track(ev);
          yield ev;
        }
      }
    } finally {
      clearTimeout(idle);
      connection.signal.removeEventListener('abort', onAbort);
      connection.abort();
      reader.cancel().catch(() => undefined);
    }
  }

  private track(ev: StreamEvent): void {
    // A delta repeats the last stored id and moves nothing; a resync sets the baseline, wherever it is.
    if (ev.type === 'resync') this.last = ev.id;
    else if (ev.type !== 'message.delta' && ev.id > this.last) this.last = ev.id;
  }

  private async pause(ms: number, signal: AbortSignal): Promise<void> {
    try {
      await sleep(ms, signal, (wakeUp) => (this.wake = wakeUp));
    } catch {
      // aborted: the loop sees it
    } finally {
      this.wake = null;
    }
  }
}

/** Worth another connection: shed, a gateway restarting or not ready, no gateway at all. */
function transient(error: ApiError): boolean {
  return error.status === 0 || error.status === 408 || error.status === 429 || error.status >= 500;
}
