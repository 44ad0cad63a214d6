import type { Logger } from '@convo/runtime';
import type { FaqDocument } from '@convo/contract';
import type { CorpusStore } from './corpus-store.js';
import { createFaqIndex, type FaqSearchIndex } from './search/index.js';

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
};

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
  private timer: NodeJS.Timeout | null = null;

  private constructor(
    private readonly store: CorpusStore,
    readonly index: FaqSearchIndex,
    private readonly log: Logger,
    private readonly onChange?: (change: CorpusChange) => void,
  ) {}

  /** Loads the corpus; with `refreshMs` > 0 also checks its version in the background that often. */
  static async open(store: CorpusStore, log: Logger, opts: ReplicaOptions = {}): Promise<CorpusReplica> {
    const replica = new CorpusReplica(store, await createFaqIndex([], { synonymGroups: opts.synonymGroups }), log, opts.onChange);
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

  /** The index, brought up to the corpus version in Redis. */
  async fresh(): Promise<FaqSearchIndex> {
    const current = await this.store.version();
    if (current !== this.version) {
      // Concurrent jobs share one refresh.
      this.refreshing ??= this.sync().finally(() => {
        this.refreshing = null;
      });
      await this.refreshing;
    }
    return this.index;
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
    if (changed.length > 0) this.index.upsert(changed.map((c) => c.doc));
    if (removed.length > 0) this.index.remove(removed);
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

  private notify(change: CorpusChange): void {
    try {
      this.onChange?.(change);
    } catch (err) {
      // The lexical index is already current; a listener's bug must not fail the job that triggered the sync.
      this.log.error({ err: err instanceof Error ? err.message : String(err) }, 'faq corpus change listener failed');
    }
  }
}
