import { AppError, type SessionStore, UnavailableError } from '@convo/runtime';
import { type SessionEvent } from '@convo/contract';
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

  static async wait(
    hub: StreamHub,
    store: SessionStore,
    input: { sessionId: string; turnId: string; fromId: number; timeoutMs: number },
  ): Promise<TurnEnd> {
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

export class TimeoutError extends AppError {
  constructor(message: string) {
    super('timeout', message, { status: 504 });
  }
}

/**
 * Waits for a turn to end and turns every way it can end without a result
 * into the contract's error: the gateway shutting down (503, retry), the wait
 * running out (504; the turn goes on), the turn failing (its own code, 502
 * unless `statusOf` says the code is the client's fault).
 */
export async function awaitTurnEnd(
  deps: { hub: StreamHub; store: SessionStore },
  input: {
    sessionId: string;
    turnId: string;
    fromId: number;
    timeoutMs: number;
    what: string;
    onTimeout?: string;
    statusOf?: (code: string) => number;
  },
): Promise<void> {
  const end = await TurnWaiter.wait(deps.hub, deps.store, input);
  if (end.kind === 'closed') throw new UnavailableError(`this gateway is shutting down; ${input.onTimeout ?? 'retry'}`, 1, 'shutting_down');
  if (end.kind === 'timeout')
    throw new TimeoutError(
      `${input.what} did not finish within ${input.timeoutMs} ms${input.onTimeout ? `; it goes on: ${input.onTimeout}` : ''}`,
    );
  if (end.kind === 'failed') {
    const failure = (end.event.data as { error: { code: string; message: string } }).error;
    throw new AppError(failure.code, failure.message, { status: input.statusOf?.(failure.code) ?? 502 });
  }
}
