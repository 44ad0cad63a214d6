import { request, type ClientRequest, type IncomingMessage } from 'node:http';
import { SseParser, type SseMessage } from './sse-parser.js';

export interface SseReaderOptions {
  /** Full URL of the stream. */
  url: string;
  /** Sent as `Authorization: Bearer`, which keeps the token out of URLs and server logs. */
  token?: string;
  /** Id to resume from on a reconnect (sent as `Last-Event-ID` when above 0). */
  resumeFrom(): number;
  onEvent(message: SseMessage): void;
  /**
   * The stream cannot go on: the server refused it with a 4xx other than 429,
   * or sent something unparsable. No reconnect follows.
   */
  onFatal(error: Error): void;
  /** A connection was answered 200; `reconnect` is false for the very first one. */
  onOpen?(reconnect: boolean): void;
  /** An open connection ended or an attempt failed; a reconnect follows after `delayMs`. */
  onDrop?(delayMs: number): void;
}

/** Per connection: whether it has already been handled as dropped, and whether it delivered events. */
type Connection = { settled: boolean; delivered: boolean };

/** Until the server's `retry:` arrives; also the cap of the backoff between failed attempts. */
const DEFAULT_RETRY_MS = 2_000;
const FIRST_BACKOFF_MS = 100;

/**
 * A small EventSource over node:http. It reconnects after every drop (server
 * restart, slow-client close, network error) with `Last-Event-ID` set to
 * {@link SseReaderOptions.resumeFrom}: at once after a connection that
 * delivered events, else with a doubling backoff from 100 ms up to the
 * server's `retry:` while attempts keep failing (refused, non-200, or closed
 * before any event). It runs until {@link close}; the caller bounds it.
 */
export class SseReader {
  /** Connections re-established (HTTP 200) after a drop. */
  reconnects = 0;
  private closed = false;
  private req: ClientRequest | null = null;
  private timer: NodeJS.Timeout | null = null;
  private retryMs = DEFAULT_RETRY_MS;
  private failedAttempts = 0;
  private everOpen = false;

  constructor(private readonly opts: SseReaderOptions) {}

  start(): void {
    this.connect();
  }

  /** Stops for good: aborts the connection and any pending reconnect. */
  close(): void {
    this.closed = true;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.req?.destroy();
    this.req = null;
  }

  private connect(): void {
    if (this.closed) return;
    const headers: Record<string, string> = { accept: 'text/event-stream', 'cache-control': 'no-cache' };
    if (this.opts.token !== undefined) headers.authorization = `Bearer ${this.opts.token}`;
    const resumeFrom = this.opts.resumeFrom();
    if (this.everOpen && resumeFrom > 0) headers['last-event-id'] = String(resumeFrom);
    // agent: false gives each stream its own socket, so closing one never touches a pooled connection.
    const req = request(this.opts.url, { headers, agent: false });
    this.req = req;
    const conn: Connection = { settled: false, delivered: false };
    req.on('response', (res) => this.onResponse(res, conn));
    req.on('error', () => this.dropped(conn));
    req.end();
  }

  private onResponse(res: IncomingMessage, conn: Connection): void {
    const status = res.statusCode ?? 0;
    if (status !== 200) {
      res.resume();
      conn.settled = true;
      this.failedAttempts++;
      if (status === 429 || status >= 500) this.scheduleReconnect();
      else this.fatal(new Error(`answered ${status}`));
      return;
    }
    if (this.everOpen) this.reconnects++;
    this.opts.onOpen?.(this.everOpen);
    this.everOpen = true;
    const parser = new SseParser({
      onEvent: (message) => {
        if (!conn.delivered) this.failedAttempts = 0;
        conn.delivered = true;
        this.opts.onEvent(message);
      },
      onRetry: (ms) => (this.retryMs = ms),
    });
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      if (this.closed) return;
      try {
        parser.push(chunk);
      } catch (err) {
        conn.settled = true;
        this.fatal(err instanceof Error ? err : new Error(String(err)));
      }
    });
    for (const end of ['end', 'close', 'error'] as const) res.on(end, () => this.dropped(conn));
  }

  /** The connection is gone (refused, reset, or ended by the server): try again, once per connection. */
  private dropped(conn: Connection): void {
    if (conn.settled) return;
    conn.settled = true;
    // One that ends before delivering any event counts as a failed attempt, so a
    // server that accepts and hangs up at once is not hammered in a tight loop.
    if (!conn.delivered) this.failedAttempts++;
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.closed) return;
    this.req = null;
    const delay = this.failedAttempts === 0 ? 0 : Math.min(this.retryMs, FIRST_BACKOFF_MS * 2 ** (this.failedAttempts - 1));
    this.opts.onDrop?.(delay);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.connect();
    }, delay);
  }

  private fatal(error: Error): void {
    if (this.closed) return;
    this.close();
    this.opts.onFatal(error);
  }
}
