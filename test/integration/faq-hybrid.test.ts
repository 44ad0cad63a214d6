import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { runSearchQuery, type SearchDeps } from '../../services/search/src/agent.js';
import type { AgentSearchResponse, SearchJobResult } from '@convo/contract';

import type { Logger } from '@convo/runtime';
import type { EmbeddingsConfig } from '@convo/faq';
import type { FaqDocument } from '@convo/contract';
import { CorpusStore, type FaqSearch, openFaqSearch } from '@convo/faq';
import { Registry } from 'prom-client';
import { decodeVector } from '@convo/faq/internal/search/dense';
import { offlineProvider } from '../support/offline-policies.js';
import { startFakeEmbeddings, type FakeEmbeddings } from '../support/fake-embeddings.js';

/** A search job's response; fails the test when the job said its corpus version was not ready. */
function answered(result: SearchJobResult): AgentSearchResponse {
  if ('notReady' in result) throw new Error(`corpus not ready: ${JSON.stringify(result.notReady)}`);
  return result;
}

/**
 * Hybrid FAQ retrieval on a real Redis against a fake OpenAI-compatible
 * embeddings server over real HTTP: what gets embedded when, what is stored,
 * how search fuses and how it falls back when the server fails.
 */
let redis: Redis;
let fake: FakeEmbeddings;
const prefixes: string[] = [];
const opened: FaqSearch[] = [];
const connections: Redis[] = [];

beforeAll(async () => {
  redis = new Redis(inject('redisUrl'));
  // "wuxtrel" is what customers call the zorblax: only the embeddings know.
  fake = await startFakeEmbeddings({ dimensions: 64, synonyms: { wuxtrel: 'zorblax' } });
});
afterEach(() => {
  for (const s of opened.splice(0)) s.close();
  fake.reset();
});
afterAll(async () => {
  for (const prefix of prefixes) {
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length) await redis.del(...keys);
  }
  for (const c of connections) c.disconnect();
  redis.disconnect();
  await fake.close();
});

const doc = (id: string, question: string, answer: string, extra: Partial<FaqDocument> = {}): FaqDocument => ({
  id,
  question,
  answer,
  tags: [],
  language: 'en',
  ...extra,
});

const CORPUS: FaqDocument[] = [
  doc('ship', 'How much does shipping cost?', 'Standard shipping is $5, free over $50.'),
  doc('return', 'What is your return policy?', 'Returns are accepted within 30 days of delivery.'),
  doc('zorblax', 'Can I recharge the zorblax?', 'Yes: plug the zorblax into any USB port.', { tags: ['device'] }),
  doc('gift', 'Do you offer gift wrapping?', 'Gift wrapping costs $4 per item.'),
  doc('points', 'How do loyalty points work?', 'You earn one point per dollar spent.'),
];

function embeddingsConfig(overrides: Partial<EmbeddingsConfig> = {}): EmbeddingsConfig {
  return {
    model: 'fake-embed-a',
    apiKey: 'sk-test',
    baseUrl: fake.url,
    dimensions: undefined,
    batchSize: 2,
    rpm: 0,
    timeoutMs: 2_000,
    maxRetries: 0,
    queryTimeoutMs: 300,
    retryMs: 50,
    maxInputChars: 8_000,
    queryPrefix: '',
    documentPrefix: '',
    minSimilarity: 0.3,
    candidates: 50,
    rrfK: 60,
    denseWeight: 1,
    ...overrides,
  };
}

/** A logger that keeps its lines, to count warnings. */
function capturingLog(): { log: Logger; lines: Array<Record<string, unknown> & { level: number; msg: string }> } {
  const lines: Array<Record<string, unknown> & { level: number; msg: string }> = [];
  return { log: pino({ level: 'debug' }, { write: (line: string) => void lines.push(JSON.parse(line)) }), lines };
}

function newPrefix(): string {
  const prefix = `hybrid-${randomUUID().slice(0, 8)}`;
  prefixes.push(prefix);
  return prefix;
}

/** A search replica as the search service opens it, on its own Redis connection (as another process would have). */
async function replica(prefix: string, overrides: Partial<EmbeddingsConfig> = {}, log: Logger = capturingLog().log): Promise<FaqSearch> {
  const connection = new Redis(inject('redisUrl'));
  connections.push(connection);
  const search = await openFaqSearch({ redis: connection, keyPrefix: prefix, log, refreshMs: 0, embeddings: embeddingsConfig(overrides) });
  opened.push(search);
  return search;
}

async function allEmbedded(search: FaqSearch): Promise<void> {
  await vi.waitFor(() => expect(search.vectors!.pendingCount).toBe(0), { timeout: 10_000, interval: 10 });
  await search.vectors!.settled();
}

async function find(search: FaqSearch, query: string, topK = 3, language: 'ja' | 'en' | 'auto' = 'auto') {
  return search.retrieve(await search.replica.fresh(), query, { topK, language });
}

async function storedVectors(prefix: string): Promise<Record<string, { model: string; hash: string; vector: string }>> {
  const all = await redis.hgetall(new CorpusStore(redis, prefix).keys.vectors);
  return Object.fromEntries(Object.entries(all).map(([id, raw]) => [id, JSON.parse(raw)]));
}

async function seeded(docs: FaqDocument[] = CORPUS): Promise<{ prefix: string; store: CorpusStore }> {
  const prefix = newPrefix();
  const store = new CorpusStore(redis, prefix);
  await store.upsert(docs, 100);
  return { prefix, store };
}

describe('hybrid retrieval', () => {
  it('finds by meaning a document the lexical engine misses (a word only the embeddings relate), and marks the search hybrid', async () => {
    const { prefix } = await seeded();
    const search = await replica(prefix);
    await allEmbedded(search);
    const index = await search.replica.fresh();
    expect(index.search('wuxtrel', { topK: 3 })).toEqual([]);

    const found = await find(search, 'wuxtrel');
    expect(found).toMatchObject({ retrieval: 'hybrid' });
    expect(found.warning).toBeUndefined();
    expect(found.hits.map((h) => h.id)).toEqual(['zorblax']);
    expect(found.hits[0]).toMatchObject({ question: 'Can I recharge the zorblax?', tags: ['device'], language: 'en' });

    // Where both sides agree the document is first with the best possible fused score.
    const both = await find(search, 'zorblax recharge');
    expect(both.hits[0]).toMatchObject({ id: 'zorblax', score: 1 });
    // A query nothing matches, lexically or by meaning, still finds nothing (the similarity floor).
    expect(index.search('quibbet', { topK: 3 })).toEqual([]);
    expect((await find(search, 'quibbet')).hits).toEqual([]);
  });

  it('ranks a document without a vector by its lexical rank alone: one the server refuses stays out of its batch and is embedded once it changes', async () => {
    const { prefix, store } = await seeded();
    const kite = doc('kite', 'Can I fly a kite in the rain?', 'Only our waterproof kites.');
    await store.upsert([kite], 100);
    const { log, lines } = capturingLog();
    fake.refuseInputs((text) => text.includes('waterproof kites'));
    const search = await replica(prefix, { batchSize: 3 }, log);
    await allEmbedded(search);
    expect(search.vectors!.dense.has('kite')).toBe(false);
    expect(search.vectors!.dense.size).toBe(CORPUS.length);
    expect(lines.filter((l) => l.level === 40).map((l) => [l.msg, l.docId])).toEqual([
      [expect.stringMatching(/refused an faq document/), 'kite'],
    ]);

    const found = await find(search, 'kite rain');
    expect(found.retrieval).toBe('hybrid');
    expect(found.hits[0]).toMatchObject({ id: 'kite' });
    expect(found.hits[0]!.score).toBeLessThan(1);

    fake.reset();
    await store.upsert([{ ...kite, answer: 'Only our waterproof kites, in light rain.' }], 100);
    await search.replica.fresh();
    await allEmbedded(search);
    expect(fake.inputs()).toEqual(['Can I fly a kite in the rain?\nOnly our waterproof kites, in light rain.']);
    expect(search.vectors!.dense.has('kite')).toBe(true);
  });
});

describe('embedding the corpus', () => {
  it('embeds every document once on the first sync, in batches of EMBEDDINGS_BATCH_SIZE, and stores unit vectors tagged with model and text hash next to the corpus', async () => {
    const { prefix } = await seeded();
    const search = await replica(prefix, { batchSize: 2 });
    await allEmbedded(search);
    expect(fake.requests.map((r) => r.input.length)).toEqual([2, 2, 1]);
    expect(fake.requests.every((r) => r.model === 'fake-embed-a' && r.encodingFormat === 'float')).toBe(true);
    expect(fake.inputs()).toHaveLength(CORPUS.length);
    expect(fake.inputs()).toContain('Can I recharge the zorblax?\nYes: plug the zorblax into any USB port.\ndevice');

    const stored = await storedVectors(prefix);
    expect(Object.keys(stored).sort()).toEqual(CORPUS.map((d) => d.id).sort());
    for (const record of Object.values(stored)) {
      expect(record.model).toBe('fake-embed-a');
      expect(record.hash).toMatch(/^[0-9a-f]{40}$/);
      const vector = decodeVector(record.vector)!;
      expect(vector).toHaveLength(64);
      expect(Math.hypot(...vector)).toBeCloseTo(1, 5);
    }
    // Same hash tag as the corpus: one Redis Cluster slot.
    expect(new CorpusStore(redis, prefix).keys.vectors).toBe(`${prefix}:faq:{corpus}:vec`);
  });

  it('re-embeds only changed documents; a language-only edit embeds nothing; a second replica reuses the stored vectors without calling the server', async () => {
    const { prefix, store } = await seeded();
    const first = await replica(prefix);
    await allEmbedded(first);
    fake.reset();

    await store.upsert(
      [
        { ...CORPUS[0]!, answer: 'Standard shipping is $6, free over $60.' },
        doc('kite', 'Can I fly a kite in the rain?', 'Only our waterproof kites.'),
      ],
      100,
    );
    await first.replica.fresh();
    await allEmbedded(first);
    expect(fake.inputs().sort()).toEqual([
      'Can I fly a kite in the rain?\nOnly our waterproof kites.',
      'How much does shipping cost?\nStandard shipping is $6, free over $60.',
    ]);

    fake.reset();
    await store.upsert([{ ...CORPUS[1]!, language: 'ja' }], 100);
    await first.replica.fresh();
    await allEmbedded(first);
    expect(fake.requests).toEqual([]);

    const second = await replica(prefix);
    await allEmbedded(second);
    expect(fake.requests).toEqual([]);
    expect(second.vectors!.dense.size).toBe(CORPUS.length + 1);
    // Searching embeds the query only.
    const found = await find(second, 'wuxtrel');
    expect(found.hits[0]?.id).toBe('zorblax');
    expect(fake.inputs()).toEqual(['wuxtrel']);
  });

  it('deletes a removed document’s vector with it, and drops it from the dense side', async () => {
    const { prefix, store } = await seeded();
    const search = await replica(prefix);
    await allEmbedded(search);
    await store.remove(['zorblax']);
    expect(Object.keys(await storedVectors(prefix))).not.toContain('zorblax');
    await search.replica.fresh();
    expect(search.vectors!.dense.has('zorblax')).toBe(false);
    expect((await find(search, 'wuxtrel')).hits).toEqual([]);
  });

  it('re-embeds every document when the model changes, and then keeps the new model’s vectors', async () => {
    const { prefix } = await seeded();
    await allEmbedded(await replica(prefix));
    fake.reset();
    const replicaB = await replica(prefix, { model: 'fake-embed-b' });
    await allEmbedded(replicaB);
    expect(fake.inputs()).toHaveLength(CORPUS.length);
    expect(fake.requests.every((r) => r.model === 'fake-embed-b')).toBe(true);
    expect(new Set(Object.values(await storedVectors(prefix)).map((r) => r.model))).toEqual(new Set(['fake-embed-b']));
    // Asking for shorter vectors is another model key too.
    fake.reset();
    const short = await replica(prefix, { model: 'fake-embed-b', dimensions: 16 });
    await allEmbedded(short);
    expect(fake.requests.every((r) => r.dimensions === 16)).toBe(true);
    expect(fake.inputs()).toHaveLength(CORPUS.length);
    expect(Object.values(await storedVectors(prefix))[0]).toMatchObject({ model: 'fake-embed-b@16' });
  });

  it('splits the work between replicas that start together: every document is embedded once', async () => {
    const many = Array.from({ length: 24 }, (_, i) => doc(`d${i}`, `Question number ${i} about topic ${i}?`, `Answer ${i}.`));
    const { prefix } = await seeded(many);
    const replicas = await Promise.all([
      replica(prefix, { batchSize: 4 }),
      replica(prefix, { batchSize: 4 }),
      replica(prefix, { batchSize: 4 }),
    ]);
    await Promise.all(replicas.map(allEmbedded));
    expect(fake.inputs()).toHaveLength(many.length);
    expect(new Set(fake.inputs()).size).toBe(many.length);
    for (const r of replicas) expect(r.vectors!.dense.size).toBe(many.length);
  });
});

describe('when the embeddings server fails', () => {
  it('answers queries lexically with a warning on a 500, leaves the server alone during the pause, warns once for the outage, and is hybrid again after recovery', async () => {
    const { prefix } = await seeded();
    const { log, lines } = capturingLog();
    const search = await replica(prefix, { retryMs: 50 }, log);
    await allEmbedded(search);

    fake.setMode({ kind: 'status', status: 500 });
    const failed = await find(search, 'gift wrapping');
    expect(failed).toMatchObject({ retrieval: 'lexical', hits: [expect.objectContaining({ id: 'gift' })] });
    expect(failed.warning).toMatch(/^embeddings unavailable \(.*500.*\); lexical results only$/);
    // During the pause after a failure the server is not asked at all.
    const asked = fake.requests.length;
    expect((await find(search, 'wuxtrel')).retrieval).toBe('lexical');
    expect(fake.requests.length).toBe(asked);
    // After the pause it is asked again, and fails again: still one warning for the whole outage.
    await vi.waitFor(async () => {
      await find(search, 'gift wrapping');
      expect(fake.requests.length).toBeGreaterThan(asked);
    });
    const warnings = lines.filter((l) => l.level === 40);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({
      msg: expect.stringMatching(/^embeddings server failed/),
      phase: 'query',
      tool: 'search_faq',
      embeddingsModel: 'fake-embed-a',
    });

    fake.setMode({ kind: 'ok' });
    await vi.waitFor(async () => expect((await find(search, 'wuxtrel')).retrieval).toBe('hybrid'), { timeout: 5_000, interval: 20 });
    expect((await find(search, 'wuxtrel')).hits[0]?.id).toBe('zorblax');
    expect(lines.filter((l) => String(l.msg).startsWith('embeddings server recovered'))).toHaveLength(1);
  });

  it('counts for operators what it embedded, what is pending and how searches were answered', async () => {
    const { prefix } = await seeded();
    const registry = new Registry();
    const connection = new Redis(inject('redisUrl'));
    connections.push(connection);
    const search = await openFaqSearch({
      redis: connection,
      keyPrefix: prefix,
      log: capturingLog().log,
      refreshMs: 0,
      embeddings: embeddingsConfig({ retryMs: 10_000 }),
      registry,
    });
    opened.push(search);
    await allEmbedded(search);
    await find(search, 'gift wrapping');
    fake.setMode({ kind: 'status', status: 500 });
    await find(search, 'gift wrapping');
    const text = await registry.metrics();
    expect(text).toContain(`convo_faq_embedded_documents_total ${CORPUS.length}`);
    expect(text).toContain('convo_faq_embeddings_pending_documents 0');
    expect(text).toMatch(/convo_faq_searches_total\{retrieval="hybrid"\} 1/);
    expect(text).toMatch(/convo_faq_searches_total\{retrieval="lexical"\} 1/);
    expect(text).toMatch(/convo_faq_embeddings_requests_total\{purpose="query",outcome="error"\} 1/);
  });

  it('answers lexically within the query timeout when the server hangs', async () => {
    const { prefix } = await seeded();
    const search = await replica(prefix, { queryTimeoutMs: 300, timeoutMs: 10_000 });
    await allEmbedded(search);
    fake.setMode({ kind: 'hang' });
    const started = performance.now();
    const retrieval = await find(search, 'gift wrapping');
    const ms = performance.now() - started;
    expect(retrieval).toMatchObject({
      retrieval: 'lexical',
      hits: [expect.objectContaining({ id: 'gift' })],
      warning: expect.stringMatching(/timed out/i),
    });
    expect(ms).toBeGreaterThanOrEqual(250);
    expect(ms).toBeLessThan(1_500);
  });

  it('falls back to lexical when the query vector has the wrong dimension', async () => {
    const { prefix } = await seeded();
    const search = await replica(prefix);
    await allEmbedded(search);
    fake.setMode({ kind: 'dimensions', dimensions: 32 });
    const retrieval = await find(search, 'gift wrapping');
    expect(retrieval).toMatchObject({ retrieval: 'lexical', hits: [expect.objectContaining({ id: 'gift' })] });
    expect(retrieval.warning).toMatch(/dimension 32/);
  });

  it('keeps lexical search current while documents cannot be embedded, and embeds them once the server is back', async () => {
    const { prefix, store } = await seeded();
    const search = await replica(prefix, { retryMs: 50 });
    await allEmbedded(search);

    fake.setMode({ kind: 'status', status: 503 });
    await store.upsert([doc('case', 'Is there a carrying case?', 'A padded case fits the device.', { tags: ['accessory'] })], 100);
    await search.replica.fresh();
    await vi.waitFor(() => expect(fake.requests.length).toBeGreaterThan(0));
    const during = await find(search, 'carrying case');
    expect(during.hits[0]?.id).toBe('case');
    expect(during.retrieval).toBe('lexical');
    expect(search.vectors!.pendingCount).toBe(1);
    expect(await storedVectors(prefix)).not.toHaveProperty('case');

    fake.setMode({ kind: 'ok' });
    await allEmbedded(search);
    expect(await storedVectors(prefix)).toHaveProperty('case');
    expect(search.vectors!.dense.has('case')).toBe(true);
    expect((await find(search, 'carrying case')).retrieval).toBe('hybrid');
  });
});

describe('the search agent', () => {
  function deps(search: FaqSearch): SearchDeps {
    const log = capturingLog().log;
    return {
      replica: search.replica,
      retrieve: search.retrieve,
      llm: offlineProvider({ latencyMs: 0 }),
      model: 'offline',
      config: { faq: { topK: 3, abstainBelow: 0.3 } as SearchDeps['config']['faq'] },
      log,
    };
  }

  it('answers /agent.search jobs from hybrid hits, and says in the step when it answered lexically instead of failing', async () => {
    const { prefix } = await seeded();
    const search = await replica(prefix);
    await allEmbedded(search);

    const ok = answered(await runSearchQuery({ v: 1, query: 'wuxtrel', topK: 3, language: 'en' }, deps(search)));
    expect(ok.answer).toBe('Yes: plug the zorblax into any USB port.');
    expect(ok.steps[0]).toMatchObject({ type: 'search', query: 'wuxtrel', retrieval: 'hybrid' });
    expect(ok.steps[0]).not.toHaveProperty('warning');

    fake.setMode({ kind: 'status', status: 500 });
    const down = answered(await runSearchQuery({ v: 1, query: 'wuxtrel', topK: 3, language: 'en' }, deps(search)));
    expect(down.answer).toBeNull();
    expect(down.steps[0]).toMatchObject({ retrieval: 'lexical', warning: expect.stringMatching(/lexical results only/) });
    const gift = answered(await runSearchQuery({ v: 1, query: 'gift wrapping', topK: 3, language: 'en' }, deps(search)));
    expect(gift.hits[0]?.id).toBe('gift');
  });
});
