import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { CorpusReplica, CorpusStore, type ReplicaOptions } from '@convo/faq';
import { createLogger } from '@convo/runtime';
import { type FaqDocument } from '@convo/contract';

/** The FAQ corpus on a real Redis, and two search replicas following it. */
let redis: Redis;
const log = createLogger('test', 'silent');
const prefixes: string[] = [];

beforeAll(() => {
  redis = new Redis(inject('redisUrl'));
});
afterAll(async () => {
  for (const prefix of prefixes) {
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length) await redis.del(...keys);
  }
  redis.disconnect();
});

function newPrefix(): string {
  const prefix = `corpus-${randomUUID().slice(0, 8)}`;
  prefixes.push(prefix);
  return prefix;
}
const newStore = () => new CorpusStore(redis, newPrefix());

const doc = (id: string, question: string, answer: string): FaqDocument => ({ id, question, answer, tags: [], language: 'en' });

/** A replica of `store` for the length of `use`, closed after it whatever happens. */
async function withReplica(store: CorpusStore, opts: ReplicaOptions, use: (replica: CorpusReplica) => Promise<void>): Promise<void> {
  const replica = await CorpusReplica.open(store, log, opts);
  try {
    await use(replica);
  } finally {
    replica.close();
  }
}

describe('corpus store', () => {
  it('upserts and removes atomically, counting created and updated, and bumps the version once per change', async () => {
    const store = newStore();
    expect(await store.version()).toBe(0);
    const r1 = await store.upsert([doc('a', 'Q a', 'A a'), doc('b', 'Q b', 'A b')], 10);
    expect(r1).toEqual({ version: 1, created: 2, updated: 0 });
    const r2 = await store.upsert([doc('b', 'Q b2', 'A b2'), doc('c', 'Q c', 'A c')], 10);
    expect(r2).toEqual({ version: 2, created: 1, updated: 1 });
    expect((await store.get('b'))?.question).toBe('Q b2');
    expect(await store.remove(['a', 'zzz'])).toEqual({ version: 3, removed: 1 });
    // Removing nothing is not a change.
    expect(await store.remove(['zzz'])).toEqual({ version: 3, removed: 0 });
    const { documents, version } = await store.list();
    expect(documents.map((d) => d.id)).toEqual(['b', 'c']);
    expect(version).toBe(3);
  });

  it('refuses a whole batch that would exceed the document limit, storing none of it', async () => {
    const store = newStore();
    await store.upsert([doc('a', 'q', 'a'), doc('b', 'q', 'a')], 3);
    await expect(store.upsert([doc('c', 'q', 'a'), doc('d', 'q', 'a')], 3)).rejects.toMatchObject({ code: 'corpus_full', status: 413 });
    expect(await store.size()).toBe(2);
    expect(await store.version()).toBe(1);
    // Replacing existing documents does not grow the corpus.
    await expect(store.upsert([doc('a', 'q2', 'a2'), doc('c', 'q', 'a')], 3)).resolves.toMatchObject({ created: 1, updated: 1 });
  });

  it('loads the sample only on the first start: a deleted sample document stays deleted', async () => {
    const store = newStore();
    expect(await store.seedOnce([doc('s1', 'q', 'a'), doc('s2', 'q', 'a')], 10)).toBe(true);
    await store.remove(['s1']);
    expect(await store.seedOnce([doc('s1', 'q', 'a'), doc('s2', 'q', 'a')], 10)).toBe(false);
    expect((await store.list()).documents.map((d) => d.id)).toEqual(['s2']);
  });
});

describe('corpus replicas', () => {
  it('every replica answers from the corpus version in Redis after a change made through any connection', async () => {
    const prefix = newPrefix();
    const store = new CorpusStore(redis, prefix);
    await store.upsert([doc('ship', 'How much is shipping?', 'Shipping is $5.'), doc('wrap', 'Do you gift wrap?', 'Yes, for $4.')], 100);
    const other = new Redis(inject('redisUrl'));
    try {
      const [r1, r2] = await Promise.all([CorpusReplica.open(store, log), CorpusReplica.open(new CorpusStore(other, prefix), log)]);
      expect((await r1.fresh()).search('gift wrap', { topK: 1 })[0]?.id).toBe('wrap');

      await store.upsert([doc('kite', 'Can I fly a kite in the rain?', 'Only a waterproof kite.')], 100);
      await store.remove(['wrap']);
      for (const replica of [r1, r2]) {
        const index = await replica.fresh();
        expect(replica.corpusVersion).toBe(await store.version());
        expect(index.search('kite rain', { topK: 1 })[0]?.id).toBe('kite');
        expect(index.has('wrap')).toBe(false);
        expect(index.size).toBe(2);
      }
    } finally {
      other.disconnect();
    }
  });

  it('follows changes in the background when asked to, without a request', async () => {
    const store = newStore();
    await withReplica(store, { refreshMs: 20 }, async (replica) => {
      expect(replica.index.size).toBe(0);
      await store.upsert([doc('late', 'Do you ship to Mars?', 'Not yet.')], 100);
      await vi.waitFor(() => expect(replica.index.has('late')).toBe(true), { timeout: 5_000, interval: 10 });
      expect(replica.corpusVersion).toBe(1);
    });
  });

  it('answers from the version already indexed while a large upload is indexed, and from the new one once it is', async () => {
    const store = newStore();
    await store.upsert([doc('ship', 'How much is shipping?', 'Shipping is $5.')], 10_000);
    // No wait at all: a job never waits for a newer version (FAQ_INDEX_WAIT_MS=0).
    await withReplica(store, { waitMs: 0 }, async (replica) => {
      const long = 'Our warehouse handles parcels of every size, with tracking and insurance included. '.repeat(40);
      const upload = Array.from({ length: 400 }, (_, i) => doc(`bulk-${i}`, `Question ${i} about kites number ${i}?`, `${long} ${i}`));
      const { version } = await store.upsert(upload, 10_000);

      const during = await replica.view();
      // The index it answers from is the earlier version, whole: the upload is not half in.
      expect(during).toMatchObject({ version: 1, indexing: version });
      expect(during.index.size).toBe(1);
      expect(during.index.search('kites', { topK: 1 })).toEqual([]);
      expect(during.index.search('shipping', { topK: 1 })[0]?.id).toBe('ship');

      await vi.waitFor(
        async () => {
          const after = await replica.view();
          expect(after).toMatchObject({ version, indexing: null });
        },
        { timeout: 30_000, interval: 20 },
      );
      expect(replica.index.size).toBe(401);
    });
  });

  it('waits for a small change within the bound, so a document uploaded before a request is found by it', async () => {
    const store = newStore();
    await withReplica(store, { waitMs: 5_000 }, async (replica) => {
      await store.upsert([doc('kite', 'Can I fly a kite in the rain?', 'Only a waterproof kite.')], 100);
      const view = await replica.view();
      expect(view).toMatchObject({ version: 1, indexing: null });
      expect(view.index.search('kite rain', { topK: 1 })[0]?.id).toBe('kite');
    });
  });
});
