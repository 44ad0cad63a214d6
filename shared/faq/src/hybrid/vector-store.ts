import type { RedisClient } from '@convo/runtime';
import { defineScript } from '@convo/runtime';
import type { CorpusKeys } from '../corpus-store.js';
import { decodeVector, encodeVector } from '../search/dense.js';

/**
 * Document embeddings in Redis, next to the corpus (same `{corpus}` hash
 * tag): one hash, id → `{"model", "hash", "vector"}` where `model` is the
 * embedder's model key, `hash` the hash of the exact text embedded and
 * `vector` little-endian float32 as base64. A record whose model or hash is
 * not the current one is stale and gets replaced; CorpusStore.remove deletes
 * a document's record in the same script that deletes the document.
 */
export type VectorRecord = { model: string; hash: string; vector: Float32Array };

/** One vector to store, for the document whose stored JSON has SHA-1 `docSha`. */
export type VectorWrite = { id: string; docSha: string; record: VectorRecord };

const file = (name: string) => new URL(`./lua/${name}.lua`, import.meta.url);
const count = (reply: unknown) => Number(reply);

const writeVectors = defineScript({
  name: 'faqVectorWrite',
  file: file('vector-write'),
  encode: (input: {
    keys: CorpusKeys;
    leases: readonly string[];
    owner: string;
    writes: readonly { id: string; docSha: string; recordJson: string }[];
  }) => ({
    keys: [input.keys.docs, input.keys.vectors, ...input.leases],
    args: [input.owner, ...input.writes.flatMap((w) => [w.id, w.docSha, w.recordJson])],
  }),
  decode: count,
});

const claimLeases = defineScript({
  name: 'faqVectorClaim',
  file: file('vector-claim'),
  encode: (input: { leases: readonly string[]; owner: string; leaseMs: number }) => ({
    keys: input.leases,
    args: [input.owner, input.leaseMs],
  }),
  decode: (reply) => (reply as number[]).map((taken) => taken === 1),
});

const releaseLeases = defineScript({
  name: 'faqVectorRelease',
  file: file('vector-release'),
  encode: (input: { leases: readonly string[]; owner: string }) => ({ keys: input.leases, args: [input.owner] }),
  decode: () => undefined,
});

const pruneVectors = defineScript({
  name: 'faqVectorPrune',
  file: file('vector-prune'),
  encode: (input: { keys: CorpusKeys; ids: readonly string[] }) => ({ keys: [input.keys.docs, input.keys.vectors], args: input.ids }),
  decode: count,
});

/** Ids per HMGET / script call: bounded replies however large the corpus. */
const CHUNK = 500;

export class VectorStore {
  constructor(
    private readonly redis: RedisClient,
    private readonly keys: CorpusKeys,
  ) {}

  /** The stored records of `ids` that exist and decode; others are simply absent. */
  async read(ids: readonly string[]): Promise<Map<string, VectorRecord>> {
    const out = new Map<string, VectorRecord>();
    for (const part of chunks(ids, CHUNK)) {
      const values = await this.redis.hmget(this.keys.vectors, ...part);
      part.forEach((id, i) => {
        const record = parseRecord(values[i] ?? null);
        if (record) out.set(id, record);
      });
    }
    return out;
  }

  /**
   * Takes a lease on each id for `leaseMs` (a key with an expiry, so a
   * crashed holder's lease runs out by itself); returns the ids this owner
   * now holds. Another replica's lease means it is embedding that document
   * right now.
   */
  async claim(ids: readonly string[], owner: string, leaseMs: number): Promise<Set<string>> {
    const held = new Set<string>();
    for (const part of chunks(ids, CHUNK)) {
      const taken = await claimLeases.run(this.redis, { leases: part.map((id) => this.leaseKey(id)), owner, leaseMs });
      part.forEach((id, i) => {
        if (taken[i]) held.add(id);
      });
    }
    return held;
  }

  /** Stores vectors for documents still at the embedded version and releases the owner's leases on them; returns how many were written. */
  async write(writes: readonly VectorWrite[], owner: string): Promise<number> {
    let written = 0;
    for (const part of chunks(writes, CHUNK)) {
      const leases = part.map((w) => this.leaseKey(w.id));
      const entries = part.map((w) => ({ id: w.id, docSha: w.docSha, recordJson: formatRecord(w.record) }));
      written += await writeVectors.run(this.redis, { keys: this.keys, leases, owner, writes: entries });
    }
    return written;
  }

  async release(ids: readonly string[], owner: string): Promise<void> {
    for (const part of chunks(ids, CHUNK)) {
      await releaseLeases.run(this.redis, { leases: part.map((id) => this.leaseKey(id)), owner });
    }
  }

  /** Deletes stored vectors whose document is gone (left by a corpus written before vectors were kept, or by hand). */
  async prune(): Promise<number> {
    const ids = await this.redis.hkeys(this.keys.vectors);
    let pruned = 0;
    for (const part of chunks(ids, CHUNK)) pruned += await pruneVectors.run(this.redis, { keys: this.keys, ids: part });
    return pruned;
  }

  private leaseKey(id: string): string {
    return `${this.keys.vectorLease}${id}`;
  }
}

function formatRecord(r: VectorRecord): string {
  return JSON.stringify({ model: r.model, hash: r.hash, vector: encodeVector(r.vector) });
}

/** A record written by this code; anything else (foreign, truncated) reads as absent and is re-made. */
function parseRecord(raw: string | null): VectorRecord | null {
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as { model?: unknown; hash?: unknown; vector?: unknown };
    if (typeof value.model !== 'string' || typeof value.hash !== 'string' || typeof value.vector !== 'string') return null;
    const vector = decodeVector(value.vector);
    return vector ? { model: value.model, hash: value.hash, vector } : null;
  } catch {
    return null;
  }
}

export function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
