import type { SessionEvent, SessionStore } from '@convo/runtime';
import type { HubSubscriber, StreamHub } from '../sse/stream-hub.js';

export type TurnEnd = { kind: 'completed' | 'failed'; event: SessionEvent } | { kind: 'timeout' } | { kind: 'closed' };

/**
 * Waits, without polling, for one turn of a session to end: subscribes to the
 * gateway's StreamHub from the event id the session had when the turn was
 * accepted, reads what was committed meanwhile, and resolves on that turn's
 * `turn.completed` / `turn.failed` (or the timeout).
 */
export class TurnWaiter implements HubSubscriber {
  readonly isStream = false;
  private closed = false;
  private closeHandlers: Array<() => void> = [];
  private resolve!: (end: TurnEnd) => void;
  readonly done: Promise<TurnEnd>;

  private constructor(
    readonly sessionId: string,
    private readonly turnId: string,
  ) {
    this.done = new Promise((resolve) => (this.resolve = resolve));
  }

  static async wait(hub: StreamHub, store: SessionStore, input: { sessionId: string; turnId: string; fromId: number; timeoutMs: number }): Promise<TurnEnd> {
    const waiter = new TurnWaiter(input.sessionId, input.turnId);
    const timer = setTimeout(() => waiter.finish({ kind: 'timeout' }), input.timeoutMs);
    hub.subscribe(waiter, input.fromId);
    try {
      for await (const ev of store.eventsAfter(input.sessionId, input.fromId)) {
        waiter.deliver(ev);
        if (waiter.closed) break;
      }
      return await waiter.done;
    } finally {
      clearTimeout(timer);
      waiter.close();
    }
  }

  deliver(ev: SessionEvent): void {
    if (this.closed) return;
    if (ev.type === 'turn.completed' && ev.data.turnId === this.turnId) this.finish({ kind: 'completed', event: ev });
    if (ev.type === 'turn.failed' && ev.data.turnId === this.turnId) this.finish({ kind: 'failed', event: ev });
  }

  comment(): void {}

  /** The hub closes its subscribers when the gateway shuts down. */
  close(): void {
    if (this.closed) return;
    this.finish({ kind: 'closed' });
  }

  onClose(fn: () => void): void {
    this.closeHandlers.push(fn);
  }

  private finish(end: TurnEnd): void {
    this.resolve(end);
    if (this.closed) return;
    this.closed = true;
    for (const fn of this.closeHandlers) fn();
  }
}
