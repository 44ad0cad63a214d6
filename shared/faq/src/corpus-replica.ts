import type { Logger } from '@convo/runtime';
import type { FaqDocument } from '@convo/contract';
import type { CorpusStore } from './corpus-store.js';
import { createFaqIndex, type FaqSearchIndex } from './search/index.js';
import type { PreparedDocument } from './search/types.js';
import { setTimeout as delay } from 'node:timers/promises';

/** What one sync changed: documents added or edited (with their stored JSON), ids removed; `initial` on the first load. */
export type CorpusChange = { changed: { doc: FaqDocument; raw: string }[]; removed: string[]; initial: boolean };

export type ReplicaOptions = {
  refreshMs?: number;
  synonymGroups?: readonly (readonly string[])[];
  /**
   * Called after each sync that changed something, once the lexical index is
   * current; it must not block (the hybrid vectors embed in the background).
   */
  onChange?: (change: CorpusChange) => void;
  /**
   * How long a job waits for a newer corpus version being indexed before it
   * is answered from the version already indexed (FAQ_INDEX_WAIT_MS).
   * Small changes index within it, so a document uploaded before a request
   * is found by it; a large upload does not hold requests up.
   */
  waitMs?: number;
};

/** The index a job is answered from, the corpus version it holds, and the newer version being indexed, if any. */
export type ReplicaView = { index: FaqSearchIndex; version: number; indexing: number | null };

/** Analysis runs in slices of about this long, so a large upload never blocks the worker's event loop (lock renewals, other jobs). */
const SLICE_MS = 20;

/**
 * One process's in-memory search index over the Redis corpus. Before serving
 * a job the caller awaits `fresh()`: one GET of the corpus version; when it
 * moved, the changed documents (diffed on their stored JSON) are re-analysed
 * and removed ones dropped, so every replica answers from the same corpus
 * version without re-indexing everything on each change. A change made
 * before a request is therefore always seen by it; the background refresh
 * only moves the re-indexing off the first request after a change.
 */
export class CorpusReplica {
  private version = -1;
  private readonly stored = new Map<string, string>();
  private refreshing: Promise<void> | null = null;
  private indexing: number | null = null;
  private timer: NodeJS.Timeout | null = null;

  private constructor(
    private readonly store: CorpusStore,
    readonly index: FaqSearchIndex,
    private readonly log: Logger,
    private readonly onChange?: (change: CorpusChange) => void,
    private readonly waitMs = Infinity,
  ) {}

  /** Loads the corpus; with `refreshMs` > 0 also checks its version in the background that often. */
  static async open(store: CorpusStore, log: Logger, opts: ReplicaOptions = {}): Promise<CorpusReplica> {
    const replica = new CorpusReplica(
      store,
      await createFaqIndex([], { synonymGroups: opts.synonymGroups }),
      log,
      opts.onChange,
      opts.waitMs,
    );
    await replica.fresh();
    if (opts.refreshMs && opts.refreshMs > 0) {
      replica.timer = setInterval(() => {
        replica
          .fresh()
          .catch((err: unknown) => log.warn({ err: err instanceof Error ? err.message : String(err) }, 'faq index refresh failed'));
      }, opts.refreshMs);
      replica.timer.unref();
    }
    return replica;
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  get corpusVersion(): number {
    return this.version;
  }

  /** The index, brought up to the corpus version in Redis (or as far as the wait allows, see `view`). */
  async fresh(): Promise<FaqSearchIndex> {
    return (await this.view()).index;
  }

  /**
   * The index to answer a job from. When the corpus in Redis is newer, its
   * indexing starts (or is joined) and is waited for up to `waitMs`; past
   * that the job is answered from the version already indexed, which stays
   * whole until the new one is (documents are analysed aside and put in at
   * once). Before any version is indexed it waits for the first.
   */
  async view(): Promise<ReplicaView> {
    const current = await this.store.version();
    if (current !== this.version) {
      this.indexing = Math.max(this.indexing ?? current, current);
      // Concurrent jobs share one refresh.
      this.refreshing ??= this.sync().finally(() => {
        this.refreshing = null;
        this.indexing = null;
      });
      if (this.version === -1 || !Number.isFinite(this.waitMs)) await this.refreshing;
      else await Promise.race([this.refreshing, delay(this.waitMs, undefined, { ref: false })]);
    }
    return { index: this.index, version: this.version, indexing: this.indexing };
  }

  private async sync(): Promise<void> {
    const started = performance.now();
    const snap = await this.store.snapshot();
    const changed: CorpusChange['changed'] = [];
    for (const [id, raw] of snap.docs) {
      if (this.stored.get(id) !== raw) changed.push({ doc: JSON.parse(raw) as FaqDocument, raw });
    }
    const removed = [...this.stored.keys()].filter((id) => !snap.docs.has(id));
    const initial = this.version === -1;
    this.indexing = snap.version;
    if (changed.length > 0) await this.upsertInSlices(changed.map((c) => c.doc));
    if (removed.length > 0) this.index.remove(removed);
    // The confidence's chance level is drawn here, with the indexing, not by the first search after it.
    if (changed.length > 0 || removed.length > 0) this.index.calibrate?.();
    this.stored.clear();
    for (const [id, raw] of snap.docs) this.stored.set(id, raw);
    this.version = snap.version;
    this.log.info(
      {
        corpusVersion: snap.version,
        docs: snap.docs.size,
        changed: changed.length,
        removed: removed.length,
        ms: Math.round(performance.now() - started),
      },
      'faq index synced',
    );
    if (this.onChange && (changed.length > 0 || removed.length > 0 || initial)) this.notify({ changed, removed, initial });
  }

  /** Analyses the documents a slice at a time, yielding between slices, then puts them all in at once. */
  private async upsertInSlices(docs: FaqDocument[]): Promise<void> {
    const { prepare, upsertPrepared } = this.index;
    if (!prepare || !upsertPrepared) {
      this.index.upsert(docs);
      return;
    }
    const prepared: PreparedDocument[] = [];
    let sliceStart = performance.now();
    for (const doc of docs) {
      prepared.push(prepare(doc));
      if (performance.now() - sliceStart >= SLICE_MS) {
        await new Promise((resolve) => setImmediate(resolve));
        sliceStart = performance.now();
      }
    }
    upsertPrepared(prepared);
  }

  private notify(change: CorpusChange): void {
    try {
      this.onChange?.(change);
    } catch (err) {
      // The lexical index is already current; a listener's bug must not fail the job that triggered the sync.
      this.log.error({ err: err instanceof Error ? err.message : String(err) }, 'faq corpus change listener failed');
    }
  }
}
