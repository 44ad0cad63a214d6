/** Counters of one or many checked streams (the `streams` object of the report, less `reconnects`). */
export interface StreamCounts {
  events: number;
  lost: number;
  duplicated: number;
  outOfOrder: number;
  resyncs: number;
}

/** Gaps remembered per stream so that a late id can be told from a repeated one; beyond it, memory stays flat. */
export const MAX_TRACKED_GAPS = 1_000;

/**
 * Checks the event ids of one session's stream against the contract: integers
 * from 1, each exactly one above the last, across reconnects. It keeps the
 * last id and the ids skipped so far, never the events:
 * - an id above `last + 1` skips ids: each one skipped counts as lost;
 * - an id equal to `last`, or below it and already seen, is duplicated;
 * - an id below `last` that was skipped arrives out of order: it moves from
 *   lost to outOfOrder (it was not lost after all);
 * - a `resync` event announces trimmed history: counted apart, and its id
 *   becomes the new baseline without counting the ids it jumps over.
 */
export class StreamCheck implements StreamCounts {
  events = 0;
  lost = 0;
  duplicated = 0;
  outOfOrder = 0;
  resyncs = 0;
  /** Highest id received: the Last-Event-ID of a reconnect. */
  lastId = 0;
  private readonly skipped = new Set<number>();

  /** Records one event by its id (events without an integer id never get here: the client leaves them out and counts them). */
  observe(id: number, type: string): void {
    // A message delta is live only: it repeats the id of the last stored event and is never replayed (docs/api.md).
    if (type === 'message.delta') return;
    this.events++;
    if (type === 'resync') {
      this.resyncs++;
      this.lastId = id;
      this.skipped.clear();
      return;
    }
    if (id > this.lastId) {
      for (let missing = this.lastId + 1; missing < id && this.skipped.size < MAX_TRACKED_GAPS; missing++) this.skipped.add(missing);
      this.lost += id - this.lastId - 1;
      this.lastId = id;
    } else if (this.skipped.delete(id)) {
      this.lost--;
      this.outOfOrder++;
    } else {
      this.duplicated++;
    }
  }
}

/** Adds `from` into `into`, for the run's totals. */
export function addCounts(into: StreamCounts, from: StreamCounts): void {
  into.events += from.events;
  into.lost += from.lost;
  into.duplicated += from.duplicated;
  into.outOfOrder += from.outOfOrder;
  into.resyncs += from.resyncs;
}
