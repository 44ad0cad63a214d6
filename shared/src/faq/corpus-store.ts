import type { Redis } from 'ioredis';
import { AppError } from '../errors.js';
import { FaqDocument } from '../schemas/faq.js';

/**
 * The FAQ corpus in Redis: one hash of documents and a version counter that
 * every change increments in the same script, so a search replica knows with
 * one GET whether its in-memory index is current. Keys share the `{corpus}`
 * hash tag, so the scripts touch one Redis Cluster slot.
 */
export type CorpusKeys = {
  docs: string;
  version: string;
  seeded: string;
  /** Hybrid retrieval: hash id → embedding record (faq/hybrid/vector-store.ts); entries go with their document. */
  vectors: string;
  /** Prefix of the per-document keys a replica holds while it embeds that document. */
  vectorLease: string;
};

export function corpusKeys(prefix: string): CorpusKeys {
  const base = `${prefix}:faq:{corpus}`;
  return { docs: `${base}:docs`, version: `${base}:ver`, seeded: `${base}:seeded`, vectors: `${base}:vec`, vectorLease: `${base}:vec-lease:` };
}

/** ARGV: maxDocs, then (id, json) pairs. Returns {version, created} or {-1, count} when the corpus would exceed maxDocs. */
const UPSERT = `
local created = 0
for i = 2, #ARGV, 2 do
  if redis.call('HEXISTS', KEYS[1], ARGV[i]) == 0 then created = created + 1 end
end
local size = redis.call('HLEN', KEYS[1])
if size + created > tonumber(ARGV[1]) then return {-1, size} end
for i = 2, #ARGV, 2 do redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end
return {redis.call('INCR', KEYS[2]), created}
`;

/** KEYS: docs, version, vectors. ARGV: ids. Returns {version, removed}. A removed document's embedding goes with it. */
const REMOVE = `
local removed = 0
for i = 1, #ARGV do
  removed = removed + redis.call('HDEL', KEYS[1], ARGV[i])
  redis.call('HDEL', KEYS[3], ARGV[i])
end
local v = tonumber(redis.call('GET', KEYS[2]) or '0')
if removed > 0 then v = redis.call('INCR', KEYS[2]) end
return {v, removed}
`;

type ScriptedRedis = Redis & {
  faqUpsert(...args: (string | number)[]): Promise<[number, number]>;
  faqRemove(...args: (string | number)[]): Promise<[number, number]>;
};

export class CorpusStore {
  private readonly redis: ScriptedRedis;
  readonly keys: CorpusKeys;

  constructor(redis: Redis, prefix: string) {
    if (!('faqUpsert' in redis)) {
      redis.defineCommand('faqUpsert', { numberOfKeys: 2, lua: UPSERT });
      redis.defineCommand('faqRemove', { numberOfKeys: 3, lua: REMOVE });
    }
    this.redis = redis as ScriptedRedis;
    this.keys = corpusKeys(prefix);
  }

  async version(): Promise<number> {
    return Number((await this.redis.get(this.keys.version)) ?? 0);
  }

  async size(): Promise<number> {
    return this.redis.hlen(this.keys.docs);
  }

  async get(id: string): Promise<FaqDocument | null> {
    const raw = await this.redis.hget(this.keys.docs, id);
    return raw ? (JSON.parse(raw) as FaqDocument) : null;
  }

  /** Every document with its stored JSON (the replica diffs on the JSON) and the version they belong to. */
  async snapshot(): Promise<{ version: number; docs: Map<string, string> }> {
    const [[, ver], [, all]] = (await this.redis.multi().get(this.keys.version).hgetall(this.keys.docs).exec()) as [
      [unknown, string | null],
      [unknown, Record<string, string>],
    ];
    return { version: Number(ver ?? 0), docs: new Map(Object.entries(all)) };
  }

  /** Every document, sorted by id, with the version they belong to (read together). */
  async list(): Promise<{ documents: FaqDocument[]; version: number }> {
    const { docs, version } = await this.snapshot();
    const documents = [...docs.values()].map((raw) => JSON.parse(raw) as FaqDocument).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    return { documents, version };
  }

  /** Inserts or replaces documents atomically; refuses the whole batch if the corpus would exceed `maxDocs`. */
  async upsert(docs: FaqDocument[], maxDocs: number): Promise<{ version: number; created: number; updated: number }> {
    if (docs.length === 0) return { version: await this.version(), created: 0, updated: 0 };
    const args = docs.flatMap((d) => [d.id, JSON.stringify(FaqDocument.parse(d))]);
    const [version, created] = await this.redis.faqUpsert(this.keys.docs, this.keys.version, maxDocs, ...args);
    if (version === -1) {
      throw new AppError('corpus_full', `the corpus holds ${created} documents; this upload would exceed FAQ_MAX_DOCS=${maxDocs}`, { status: 413 });
    }
    return { version, created, updated: docs.length - created };
  }

  async remove(ids: string[]): Promise<{ version: number; removed: number }> {
    const [version, removed] = await this.redis.faqRemove(this.keys.docs, this.keys.version, this.keys.vectors, ...ids);
    return { version, removed };
  }

  /** Loads `docs` only the first time any gateway starts on this Redis (a deleted sample stays deleted). */
  async seedOnce(docs: FaqDocument[], maxDocs: number): Promise<boolean> {
    const first = await this.redis.set(this.keys.seeded, new Date().toISOString(), 'NX');
    if (first !== 'OK') return false;
    await this.upsert(docs, maxDocs);
    return true;
  }
}
