/** When (performance.now()) a run's turn.completed or turn.failed was parsed from the stream. */
export interface TurnEnd {
  at: number;
  failed: boolean;
}

export type WaitResult = ({ kind: 'ended' } & TurnEnd) | { kind: 'timeout' } | { kind: 'stream-failed'; error: Error };

/** Ends nobody waits for yet (a turn can end before its POST's 202 is read); the oldest go first beyond this. */
const MAX_UNCLAIMED = 64;

/**
 * Matches the end events of one session's stream to the turns waiting for
 * them. An end may arrive before its POST answers (the offline agents are
 * fast), so unclaimed ends are kept, a few at most, until asked for.
 */
export class TurnEnds {
  private readonly unclaimed = new Map<string, TurnEnd>();
  private first: TurnEnd | null = null;
  private waiter: { turnId: string | null; settle: (r: WaitResult) => void } | null = null;
  private failure: Error | null = null;

  /** Called for every turn.completed / turn.failed on the stream. */
  record(turnId: string, end: TurnEnd): void {
    this.first ??= end;
    const waiter = this.waiter;
    if (waiter !== null && (waiter.turnId === null || waiter.turnId === turnId)) return waiter.settle({ kind: 'ended', ...end });
    this.unclaimed.set(turnId, end);
    if (this.unclaimed.size > MAX_UNCLAIMED) this.unclaimed.delete(this.unclaimed.keys().next().value as string);
  }

  /** The stream is gone for good: whoever waits, and waits later, hears so at once. */
  fail(error: Error): void {
    this.failure = error;
    this.waiter?.settle({ kind: 'stream-failed', error });
  }

  /**
   * Resolves when `turnId` has ended (null: when the session's first run,
   * the greeting, has ended), after `timeoutMs`, or when `signal` aborts.
   */
  wait(turnId: string | null, timeoutMs: number, signal: AbortSignal): Promise<WaitResult> {
    const known = turnId === null ? this.first : this.unclaimed.get(turnId);
    if (known !== null && known !== undefined) {
      if (turnId !== null) this.unclaimed.delete(turnId);
      return Promise.resolve({ kind: 'ended', ...known });
    }
    if (this.failure !== null) return Promise.resolve({ kind: 'stream-failed', error: this.failure });
    if (signal.aborted || timeoutMs <= 0) return Promise.resolve({ kind: 'timeout' });
    return new Promise((resolve) => {
      const onAbort = () => settle({ kind: 'timeout' });
      const timer = setTimeout(onAbort, timeoutMs);
      const settle = (result: WaitResult) => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        if (this.waiter === waiter) this.waiter = null;
        resolve(result);
      };
      const waiter = { turnId, settle };
      this.waiter = waiter;
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }
}
