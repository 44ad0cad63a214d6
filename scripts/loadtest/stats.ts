import { addCounts, type StreamCheck, type StreamCounts } from './stream-check.js';

/** Error messages kept as examples for the report; the count itself is unbounded. */
const MAX_ERROR_SAMPLES = 10;

/**
 * The run's counters, shared by every session of it. Memory is bounded by the
 * run's turn count (one latency sample per ended turn, at most
 * sessions × turns) plus a few error samples.
 */
export class RunStats {
  sessionsCreated = 0;
  sessionsShed = 0;
  accepted = 0;
  readonly shed = { 429: 0, 503: 0 };
  errors = 0;
  readonly errorSamples: string[] = [];
  completed = 0;
  failedTurns = 0;
  unfinished = 0;
  /** Milliseconds from POST to turn.completed/turn.failed of every ended turn. */
  readonly latenciesMs: number[] = [];
  readonly streams: StreamCounts & { reconnects: number } = { events: 0, lost: 0, duplicated: 0, outOfOrder: 0, resyncs: 0, reconnects: 0 };

  error(message: string): void {
    this.errors++;
    if (this.errorSamples.length < MAX_ERROR_SAMPLES) this.errorSamples.push(message);
  }

  /** Called with each ended turn's POST and end times (performance.now()), for a caller that lines them up with other events (the chaos run's faults). */
  onTurnEnded?: (startedAt: number, endedAt: number, failed: boolean) => void;

  turnEnded(startedAt: number, endedAt: number, failed: boolean): void {
    if (failed) this.failedTurns++;
    else this.completed++;
    this.latenciesMs.push(endedAt - startedAt);
    this.onTurnEnded?.(startedAt, endedAt, failed);
  }

  /** Folds in one closed stream; ids that were not integers count as errors. */
  /** One session's stream: its id checks, its reconnects, and the messages that were not contract events (`ignored`). */
  addStream(check: StreamCheck, stream: { reconnects: number; ignored: number }): void {
    addCounts(this.streams, check);
    this.streams.reconnects += stream.reconnects;
    if (stream.ignored > 0)
      this.error(
        `${stream.ignored} message(s) on one stream were not contract events (unknown type, no integer id, or data not a JSON object)`,
      );
  }
}
