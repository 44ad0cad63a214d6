import type { Redis } from 'ioredis';
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

/**
 * KEYS: docs, vectors, then lease keys. ARGV: owner, then (id, docSha, record) triples.
 * A vector is written only while its document is still the version that was
 * embedded (SHA-1 of the stored JSON): a replica that embedded an old version
 * can never overwrite the vector of a newer one. Leases the caller holds are
 * released. Returns how many vectors were written.
 */
const WRITE = `
local written = 0
for i = 2, #ARGV, 3 do
  local raw = redis.call('HGET', KEYS[1], ARGV[i])
  if raw and redis.sha1hex(raw) == ARGV[i + 1] then
    redis.call('HSET', KEYS[2], ARGV[i], ARGV[i + 2])
    written = written + 1
  end
end
for i = 3, #KEYS do
  if redis.call('GET', KEYS[i]) == ARGV[1] then redis.call('DEL', KEYS[i]) end
end
return written
`;

/**
 * KEYS: lease keys. ARGV: owner, lease ms. Takes each lease that is free or
 * already the owner's (renewed), so a replica is never blocked by its own
 * lease. Returns 1 or 0 per key.
 */
const CLAIM = `
local out = {}
for i = 1, #KEYS do
  local holder = redis.call('GET', KEYS[i])
  if not holder or holder == ARGV[1] then
    redis.call('SET', KEYS[i], ARGV[1], 'PX', ARGV[2])
    out[i] = 1
  else
    out[i] = 0
  end
end
return out
`;

/** KEYS: lease keys. ARGV: owner. Deletes the leases the owner holds. */
const RELEASE = `
for i = 1, #KEYS do
  if redis.call('GET', KEYS[i]) == ARGV[1] then redis.call('DEL', KEYS[i]) end
end
return 0
`;

/** KEYS: docs, vectors. ARGV: ids. Deletes the vectors of ids that have no document (checked in the script, so a document added meanwhile keeps its vector). */
const PRUNE = `
local pruned = 0
for i = 1, #ARGV do
  if redis.call('HEXISTS', KEYS[1], ARGV[i]) == 0 then pruned = pruned + redis.call('HDEL', KEYS[2], ARGV[i]) end
end
return pruned
`;

type ScriptedRedis = Redis & {
  faqVectorWrite(...args: (string | number)[]): Promise<number>;
  faqVectorClaim(...args: (string | number)[]): Promise<number[]>;
  faqVectorRelease(...args: (string | number)[]): Promise<number>;
  faqVectorPrune(...args: (string | number)[]): Promise<number>;
};

/** Ids per HMGET / script call: bounded replies however large the corpus. */
const CHUNK = 500;

export class VectorStore {
  private readonly redis: ScriptedRedis;

  constructor(
    redis: Redis,
    private readonly keys: CorpusKeys,
  ) {
    if (!('faqVectorWrite' in redis)) {
      redis.defineCommand('faqVectorWrite', { lua: WRITE });
      redis.defineCommand('faqVectorClaim', { lua: CLAIM });
      redis.defineCommand('faqVectorRelease', { lua: RELEASE });
      redis.defineCommand('faqVectorPrune', { numberOfKeys: 2, lua: PRUNE });
    }
    this.redis = redis as ScriptedRedis;
  }

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
      const taken = await this.redis.faqVectorClaim(part.length, ...part.map((id) => this.leaseKey(id)), owner, leaseMs);
      part.forEach((id, i) => {
        if (taken[i] === 1) held.add(id);
      });
    }
    return held;
  }

  /** Stores vectors for documents still at the embedded version and releases the owner's leases on them; returns how many were written. */
  async write(writes: readonly VectorWrite[], owner: string): Promise<number> {
    let written = 0;
    for (const part of chunks(writes, CHUNK)) {
      const leases = part.map((w) => this.leaseKey(w.id));
      const args = part.flatMap((w) => [w.id, w.docSha, formatRecord(w.record)]);
      written += await this.redis.faqVectorWrite(2 + leases.length, this.keys.docs, this.keys.vectors, ...leases, owner, ...args);
    }
    return written;
  }

  async release(ids: readonly string[], owner: string): Promise<void> {
    for (const part of chunks(ids, CHUNK)) {
      const leases = part.map((id) => this.leaseKey(id));
      await this.redis.faqVectorRelease(leases.length, ...leases, owner);
    }
  }

  /** Deletes stored vectors whose document is gone (left by a corpus written before vectors were kept, or by hand). */
  async prune(): Promise<number> {
    const ids = await this.redis.hkeys(this.keys.vectors);
    let pruned = 0;
    for (const part of chunks(ids, CHUNK)) pruned += await this.redis.faqVectorPrune(this.keys.docs, this.keys.vectors, ...part);
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
