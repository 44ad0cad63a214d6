import type { Logger } from '@convo/runtime';

/** The longest pause between attempts while the server stays down. */
const MAX_RETRY_MS = 60_000;

/**
 * What this process knows of the embeddings server, shared by queries and
 * indexing. After a failure the server is left alone for `retryMs` (doubling
 * per consecutive failure up to a minute): while it is down every query
 * answers lexically at once instead of each paying the timeout, and indexing
 * waits. One warning is logged when an outage starts and one info line when
 * it ends, whatever the number of queries in between.
 */
export class EmbeddingsHealth {
  private failures = 0;
  private downSince = 0;
  private retryAt = 0;
  private reason = '';
  private readonly recoveredListeners: Array<() => void> = [];

  constructor(
    private readonly log: Logger,
    private readonly retryMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** False while the pause after a failure runs. */
  available(): boolean {
    return this.now() >= this.retryAt;
  }

  /** How long until the server may be tried again (0 when it may now). */
  retryInMs(): number {
    return Math.max(0, this.retryAt - this.now());
  }

  get failing(): boolean {
    return this.failures > 0;
  }

  /** The warning a search carries while it answers lexically. */
  warning(): string {
    return `embeddings unavailable (${this.reason || 'not tried yet'}); lexical results only`;
  }

  succeeded(): void {
    if (this.failures === 0) return;
    this.log.info(
      { failures: this.failures, downMs: this.now() - this.downSince },
      'embeddings server recovered; hybrid retrieval resumed',
    );
    this.failures = 0;
    this.retryAt = 0;
    for (const listener of this.recoveredListeners) listener();
  }

  /** Records a failure of a `phase` call; returns the warning for the search that saw it. */
  failed(err: unknown, phase: 'query' | 'index'): string {
    this.reason = err instanceof Error ? err.message : String(err);
    this.failures += 1;
    const pauseMs = Math.min(this.retryMs * 2 ** (this.failures - 1), Math.max(this.retryMs, MAX_RETRY_MS));
    this.retryAt = this.now() + pauseMs;
    if (this.failures === 1) {
      this.downSince = this.now();
      this.log.warn(
        { phase, err: this.reason, retryInMs: pauseMs },
        'embeddings server failed; FAQ search falls back to lexical until it answers again',
      );
    } else {
      this.log.debug({ phase, err: this.reason, failures: this.failures, retryInMs: pauseMs }, 'embeddings server still failing');
    }
    return this.warning();
  }

  /** Runs `listener` whenever the server answers again after failing (indexing resumes at once). */
  onRecovered(listener: () => void): void {
    this.recoveredListeners.push(listener);
  }
}
