import { createHash, randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Logger } from '@convo/runtime';
import type { FaqDocument } from '@convo/contract';
import type { CorpusChange } from '../corpus-replica.js';
import { DenseIndex } from '../search/dense.js';
import { EmbeddingsError, type Embedder } from './embedder.js';
import type { EmbeddingsHealth } from './health.js';
import { chunks, type VectorStore, type VectorWrite } from './vector-store.js';

export type VectorSyncOptions = {
  store: VectorStore;
  embedder: Embedder;
  health: EmbeddingsHealth;
  log: Logger;
  /** Documents per embeddings request. */
  batchSize: number;
  /** The embedded text is cut to this length. */
  maxInputChars: number;
  /** Put before each document's text, for models trained with task prefixes (`passage: `, `search_document: `). */
  documentPrefix?: string;
  /** How long a replica may hold a document before others take it over (it crashed). */
  leaseMs: number;
  /** How soon to look again for documents another replica is embedding. */
  recheckMs?: number;
};

/** A document whose current vector this process does not have yet. */
type Pending = { id: string; text: string; hash: string; docSha: string };

/**
 * Keeps one process's dense index in step with the corpus, off the request
 * path. The replica reports each change; changed documents become pending and
 * a background pass brings them in: vectors already in Redis for the same
 * model and text are loaded as they are; the rest are leased (so several
 * replicas split the work instead of each paying for it), embedded in
 * batches, written back and loaded. A document is re-embedded only when its
 * embedded text (question, answer, tags) or the model changes.
 *
 * While documents are pending, search still finds them lexically. When the
 * embeddings server fails, they stay pending and the pass is retried after
 * the health pause, or at once when a query sees the server answer again.
 */
export class VectorSync {
  readonly dense = new DenseIndex();
  /** Text hash of each vector in `dense`. */
  private readonly loaded = new Map<string, string>();
  /** Text hash of each document the server refused to embed. */
  private readonly refused = new Map<string, string>();
  private readonly pending = new Map<string, Pending>();
  private readonly owner = `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
  private running: Promise<void> | null = null;
  private again = false;
  private timer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(private readonly opts: VectorSyncOptions) {
    opts.health.onRecovered(() => this.kick());
  }

  /** Documents waiting for a vector. */
  get pendingCount(): number {
    return this.pending.size;
  }

  /** The replica's change listener: records what needs a vector and starts a background pass. */
  update(change: CorpusChange): void {
    for (const id of change.removed) this.forget(id);
    for (const { doc, raw } of change.changed) {
      const text = embeddingText(doc, this.opts);
      const hash = sha1(text);
      // Only the embedded text matters: a change of language alone keeps the vector.
      if (this.loaded.get(doc.id) === hash || this.refused.get(doc.id) === hash) continue;
      this.forget(doc.id);
      this.pending.set(doc.id, { id: doc.id, text, hash, docSha: sha1(raw) });
    }
    if (change.initial) {
      this.opts.store.prune().catch((err: unknown) => this.opts.log.warn({ err: errorText(err) }, 'pruning orphan faq vectors failed'));
    }
    this.kick();
  }

  /** Starts a pass, or another one after the running pass when there is new work. */
  kick(): void {
    if (this.closed) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.clearTimer();
    this.running = this.pass()
      .catch((err: unknown) => {
        // Redis trouble, not the embeddings server's: keep the work and come back later.
        this.opts.log.warn({ err: errorText(err), pending: this.pending.size }, 'faq vector sync failed; will retry');
        this.schedule(this.opts.health.retryInMs() || this.opts.recheckMs || 1_000);
      })
      .finally(() => {
        this.running = null;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  /** Resolves when no pass is running (tests, shutdown). */
  async settled(): Promise<void> {
    while (this.running) await this.running;
  }

  close(): void {
    this.closed = true;
    this.clearTimer();
  }

  private async pass(): Promise<void> {
    const started = performance.now();
    let embedded = 0;
    let reused = 0;
    let elsewhere = 0;
    for (const batch of chunks([...this.pending.values()], this.opts.batchSize)) {
      if (this.closed || !this.opts.health.available()) break;
      const live = batch.filter((pending) => this.pending.get(pending.id) === pending);
      const result = await this.bring(live);
      if (!result) break;
      embedded += result.embedded;
      reused += result.reused;
      elsewhere += result.elsewhere;
    }
    if (embedded + reused > 0) {
      this.opts.log.info(
        { embedded, reused, elsewhere, pending: this.pending.size, vectors: this.dense.size, ms: Math.round(performance.now() - started) },
        'faq vectors synced',
      );
    }
    if (this.pending.size > 0) {
      // Waiting either for the server (health pause) or for another replica's batch (recheck).
      this.schedule(this.opts.health.available() ? (this.opts.recheckMs ?? 1_000) : this.opts.health.retryInMs());
    }
  }

  /**
   * One batch: load stored vectors, embed what is missing and leased to us.
   * Null when the embeddings server failed (the rest of the pass waits).
   */
  private async bring(batch: Pending[]): Promise<{ embedded: number; reused: number; elsewhere: number } | null> {
    const { store } = this.opts;
    const first = await this.loadStored(batch);
    const mine = await store.claim(
      first.missing.map((pending) => pending.id),
      this.owner,
      this.opts.leaseMs,
    );
    // Another replica may have written some of them between our read and our claim.
    const second = await this.loadStored(first.missing.filter((pending) => mine.has(pending.id)));
    const reused = first.reused + second.reused;
    // A document that changed while we read is embedded by the next pass, in its new version.
    const todo = second.missing.filter((pending) => this.pending.get(pending.id) === pending);
    const todoIds = new Set(todo.map((pending) => pending.id));
    const skipped = [...mine].filter((id) => !todoIds.has(id));
    if (skipped.length > 0) await store.release(skipped, this.owner);
    const elsewhere = first.missing.filter((pending) => !mine.has(pending.id)).length;
    if (todo.length === 0) return { embedded: 0, reused, elsewhere };
    try {
      const embedded = await this.embedAndStore(todo);
      return embedded === null ? null : { embedded, reused, elsewhere };
    } finally {
      // Written documents' leases are gone already; the rest go back for whoever tries next.
      await store.release(
        todo.map((pending) => pending.id),
        this.owner,
      );
    }
  }

  /** Embeds `todo`, stores and loads the vectors; the number embedded, or null when the server is unavailable. */
  private async embedAndStore(todo: Pending[]): Promise<number | null> {
    const vectors = await this.tryEmbed(todo);
    if (!(vectors instanceof Error)) {
      this.opts.health.succeeded();
      await this.store(todo, vectors);
      return todo.length;
    }
    if (!(vectors instanceof EmbeddingsError && vectors.refused) || todo.length === 1) {
      this.opts.health.failed(vectors, 'index');
      return null;
    }
    // The server refused the batch: one document it cannot take (too long for its context, say) must not keep the others out.
    const done: Array<{ p: Pending; v: Float32Array }> = [];
    const refused: Array<{ p: Pending; err: Error }> = [];
    for (const pending of todo) {
      const one = await this.tryEmbed([pending]);
      if (!(one instanceof Error)) done.push({ p: pending, v: one[0]! });
      else if (one instanceof EmbeddingsError && one.refused) refused.push({ p: pending, err: one });
      else return this.partial(done, one);
    }
    // Refused one by one with nothing accepted: the server, not these documents, is the problem.
    if (done.length === 0) return this.partial(done, refused[0]!.err);
    this.opts.health.succeeded();
    await this.store(
      done.map((embedded) => embedded.p),
      done.map((embedded) => embedded.v),
    );
    for (const { p: pending, err } of refused) this.refuse(pending, err);
    return done.length;
  }

  /** Keeps what was embedded before the server failed mid-way. */
  private async partial(done: Array<{ p: Pending; v: Float32Array }>, err: Error): Promise<null> {
    if (done.length > 0)
      await this.store(
        done.map((embedded) => embedded.p),
        done.map((embedded) => embedded.v),
      );
    this.opts.health.failed(err, 'index');
    return null;
  }

  private async tryEmbed(todo: Pending[]): Promise<Float32Array[] | Error> {
    try {
      const vectors = await this.opts.embedder.embed(
        todo.map((pending) => pending.text),
        { purpose: 'index' },
      );
      const dim = this.dense.dimensions;
      const wrong = dim === undefined ? undefined : vectors.find((vector) => vector.length !== dim);
      if (wrong) throw new EmbeddingsError(`the embeddings server returned dimension ${wrong.length}, the stored vectors have ${dim}`);
      return vectors;
    } catch (err) {
      return err instanceof Error ? err : new EmbeddingsError(String(err));
    }
  }

  private async store(docs: Pending[], vectors: Float32Array[]): Promise<void> {
    const model = this.opts.embedder.modelKey;
    const writes: VectorWrite[] = docs.map((pending, i) => ({
      id: pending.id,
      docSha: pending.docSha,
      record: { model, hash: pending.hash, vector: vectors[i]! },
    }));
    await this.opts.store.write(writes, this.owner);
    docs.forEach((pending, i) => this.accept(pending, vectors[i]!));
  }

  /** A document the server will not embed stays lexical-only until its text changes (or the process restarts). */
  private refuse(pending: Pending, err: Error): void {
    if (this.pending.get(pending.id) !== pending) return;
    this.pending.delete(pending.id);
    this.refused.set(pending.id, pending.hash);
    this.opts.log.warn(
      { docId: pending.id, err: err.message },
      'embeddings server refused an faq document; it is found by lexical search only until it changes',
    );
  }

  /** Loads the documents whose current vector (this model, this text) is in Redis; returns the others. */
  private async loadStored(docs: Pending[]): Promise<{ reused: number; missing: Pending[] }> {
    if (docs.length === 0) return { reused: 0, missing: [] };
    const stored = await this.opts.store.read(docs.map((pending) => pending.id));
    let reused = 0;
    const missing: Pending[] = [];
    for (const pending of docs) {
      const record = stored.get(pending.id);
      if (record && record.model === this.opts.embedder.modelKey && record.hash === pending.hash && this.accept(pending, record.vector))
        reused++;
      else missing.push(pending);
    }
    return { reused, missing };
  }

  /** Loads a vector unless its document changed or went away meanwhile. */
  private accept(pending: Pending, vector: Float32Array): boolean {
    if (this.pending.get(pending.id) !== pending || !this.dense.set(pending.id, vector)) return false;
    this.loaded.set(pending.id, pending.hash);
    this.pending.delete(pending.id);
    return true;
  }

  private forget(id: string): void {
    this.dense.remove(id);
    this.loaded.delete(id);
    this.refused.delete(id);
    this.pending.delete(id);
  }

  private schedule(ms: number): void {
    if (this.closed) return;
    this.clearTimer();
    this.timer = setTimeout(() => this.kick(), Math.max(10, ms));
    this.timer.unref();
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}

/**
 * What is embedded for a document: its question, answer and tags, one per
 * line, behind the model's document prefix, cut to the model's input budget.
 * Its hash decides when a document must be embedded again.
 */
export function embeddingText(doc: FaqDocument, opts: { maxInputChars: number; documentPrefix?: string }): string {
  const lines = [doc.question, doc.answer, ...(doc.tags.length > 0 ? [doc.tags.join(', ')] : [])];
  return truncate(`${opts.documentPrefix ?? ''}${lines.join('\n')}`, opts.maxInputChars);
}

/** Cut to `max` characters without splitting a surrogate pair. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut;
}

function sha1(text: string): string {
  return createHash('sha1').update(text, 'utf8').digest('hex');
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
