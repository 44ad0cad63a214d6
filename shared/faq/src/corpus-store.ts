import type { RedisClient } from '@convo/runtime';
import { AppError, defineScript } from '@convo/runtime';
import { FaqDocument } from '@convo/contract';

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
  return {
    docs: `${base}:docs`,
    version: `${base}:ver`,
    seeded: `${base}:seeded`,
    vectors: `${base}:vec`,
    vectorLease: `${base}:vec-lease:`,
  };
}

const file = (name: string) => new URL(`./lua/${name}.lua`, import.meta.url);

const upsertDocs = defineScript({
  name: 'faqCorpusUpsert',
  file: file('corpus-upsert'),
  encode: (input: { keys: CorpusKeys; maxDocs: number; docs: readonly { id: string; json: string }[] }) => ({
    keys: [input.keys.docs, input.keys.version],
    args: [input.maxDocs, ...input.docs.flatMap((d) => [d.id, d.json])],
  }),
  decode: (reply) => {
    const [version, count] = reply as [number, number];
    return version === -1 ? { refused: true as const, size: count } : { refused: false as const, version, created: count };
  },
});

const removeDocs = defineScript({
  name: 'faqCorpusRemove',
  file: file('corpus-remove'),
  encode: (input: { keys: CorpusKeys; ids: readonly string[] }) => ({
    keys: [input.keys.docs, input.keys.version, input.keys.vectors],
    args: input.ids,
  }),
  decode: (reply) => {
    const [version, removed] = reply as [number, number];
    return { version, removed };
  },
});

export class CorpusStore {
  readonly keys: CorpusKeys;

  constructor(
    private readonly redis: RedisClient,
    prefix: string,
  ) {
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
    const documents = [...docs.values()]
      .map((raw) => JSON.parse(raw) as FaqDocument)
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    return { documents, version };
  }

  /** Inserts or replaces documents atomically; refuses the whole batch if the corpus would exceed `maxDocs`. */
  async upsert(docs: FaqDocument[], maxDocs: number): Promise<{ version: number; created: number; updated: number }> {
    if (docs.length === 0) return { version: await this.version(), created: 0, updated: 0 };
    const result = await upsertDocs.run(this.redis, {
      keys: this.keys,
      maxDocs,
      docs: docs.map((d) => ({ id: d.id, json: JSON.stringify(FaqDocument.parse(d)) })),
    });
    if (result.refused) {
      throw new AppError('corpus_full', `the corpus holds ${result.size} documents; this upload would exceed FAQ_MAX_DOCS=${maxDocs}`, {
        status: 413,
      });
    }
    return { version: result.version, created: result.created, updated: docs.length - result.created };
  }

  async remove(ids: string[]): Promise<{ version: number; removed: number }> {
    return removeDocs.run(this.redis, { keys: this.keys, ids });
  }

  /** Loads `docs` only the first time any gateway starts on this Redis (a deleted sample stays deleted). */
  async seedOnce(docs: FaqDocument[], maxDocs: number): Promise<boolean> {
    const first = await this.redis.set(this.keys.seeded, new Date().toISOString(), 'NX');
    if (first !== 'OK') return false;
    await this.upsert(docs, maxDocs);
    return true;
  }
}
