import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { FastifyReply } from 'fastify';
import type { NewEvent, SessionEvent } from '@convo/contract';
import type { HubSubscriber } from './stream-hub.js';

/**
 * Takes the reply over for an SSE stream and starts it: the stream headers
 * (no caching, no proxy buffering) with every header the reply already holds
 * (security and CORS headers set by hooks, which a hijacked reply would
 * otherwise drop) and the client's reconnect delay. Returns the raw response.
 */
export function openEventStream(reply: FastifyReply, retryMs: number): ServerResponse {
  reply.hijack();
  const raw = reply.raw;
  const kept: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) kept[name] = value;
  raw.writeHead(200, {
    ...kept,
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  raw.write(`retry: ${retryMs}\n\n`);
  return raw;
}

/**
 * One SSE connection. Delivers each event at most once and in id order:
 * while the history is replayed, live events wait in a bounded buffer; a
 * client whose socket buffer grows past the limit is closed and resumes with
 * Last-Event-ID, so a slow reader never holds unbounded memory.
 */
export class SseClient implements HubSubscriber {
  readonly isStream = true;
  private replaying = true;
  private pending: SessionEvent[] = [];
  private closed = false;
  private onCloseHandlers: Array<() => void> = [];
  /** Assistant messages already delivered whole: a late delta of one is dropped. */
  private readonly sent = new Set<string>();

  constructor(
    readonly sessionId: string,
    private readonly raw: ServerResponse,
    /** Id of the last event this client has (Last-Event-ID). */
    public cursor: number,
    private readonly maxBufferBytes: number,
    private readonly maxPending = 1000,
  ) {
    raw.on('close', () => this.markClosed());
  }

  get isClosed(): boolean {
    return this.closed;
  }

  onClose(fn: () => void): void {
    this.onCloseHandlers.push(fn);
  }

  deliver(ev: SessionEvent): void {
    if (this.closed) return;
    if (this.replaying) {
      if (this.pending.length >= this.maxPending) return this.close('replay buffer full');
      this.pending.push(ev);
      return;
    }
    this.write(ev);
  }

  /**
   * A live-only event (message.delta) goes out only on the live tail, never
   * during the replay, and carries the id of the last stored event the
   * client has, so Last-Event-ID stays where replay must resume.
   */
  deliverLive(ev: NewEvent): void {
    if (this.closed || this.replaying) return;
    if (ev.type === 'message.delta' && this.sent.has(ev.data.messageId)) return;
    this.send(`id: ${this.cursor}\nevent: ${ev.type}\ndata: ${JSON.stringify(ev.data)}\n\n`);
  }

  /** Writes an event unless the client already has it; replay and live tail may overlap. */
  write(ev: SessionEvent): void {
    if (this.closed || ev.id <= this.cursor) return;
    this.cursor = ev.id;
    if (ev.type === 'message') this.sent.add(ev.data.messageId);
    this.send(`id: ${ev.id}\nevent: ${ev.type}\ndata: ${JSON.stringify(ev.data)}\n\n`);
  }

  /**
   * Writes an event carrying an explicit id (the resync marker). The client
   * replaces its state with what it carries, so the stream goes on from that
   * id, even when the client asked for an id beyond it (from the future).
   */
  writeRaw(id: number, type: string, data: unknown): void {
    if (this.closed) return;
    this.cursor = id;
    this.send(`id: ${id}\nevent: ${type}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  finishReplay(): void {
    this.replaying = false;
    const queued = this.pending.sort((a, b) => a.id - b.id);
    this.pending = [];
    for (const ev of queued) this.write(ev);
  }

  comment(text: string): void {
    if (!this.closed) this.send(`: ${text}\n\n`);
  }

  close(reason: string): void {
    if (this.closed) return;
    this.comment(`closing: ${reason}`);
    this.raw.end();
    this.markClosed();
  }

  private send(chunk: string): void {
    this.raw.write(chunk);
    if (this.raw.writableLength > this.maxBufferBytes) this.close('client too slow, reconnect with Last-Event-ID');
  }

  private markClosed(): void {
    if (this.closed) return;
    this.closed = true;
    this.pending = [];
    for (const fn of this.onCloseHandlers) fn();
  }
}
