import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '@convo/runtime';
import { loadFaqConfig } from '@convo/faq';
import { EmbeddingsHealth } from '@convo/faq/internal/hybrid/health';
import { embeddingText, truncate } from '@convo/faq/internal/hybrid/vector-sync';
import { DenseIndex, decodeVector, encodeVector, normalize } from '@convo/faq/internal/search/dense';
import { preferLanguage, reciprocalRankFusion } from '@convo/faq/internal/search/fusion';

/** The pure parts of hybrid FAQ retrieval: rank fusion, the dense index, vector encoding, outage bookkeeping. */

describe('reciprocal rank fusion', () => {
  it('ranks a document that both rankings place well above one that only one ranking places first', () => {
    const fused = reciprocalRankFusion([{ ids: ['a', 'b', 'c'] }, { ids: ['b', 'd', 'a'] }]);
    expect(fused.map((f) => f.id)).toEqual(['b', 'a', 'd', 'c']);
  });

  it('scores 1 for first in every ranking and sums weight / (k + rank) otherwise, as a share of that', () => {
    const fused = reciprocalRankFusion([{ ids: ['a', 'b'] }, { ids: ['a'] }], 60);
    expect(fused[0]).toEqual({ id: 'a', score: 1 });
    expect(fused[1]!.score).toBeCloseTo(1 / 62 / (2 / 61), 12);
  });

  it('breaks ties by the earlier ranking, then by id, so the order never depends on insertion', () => {
    // a is first lexically, z first densely: equal sums; the first ranking decides.
    expect(reciprocalRankFusion([{ ids: ['a'] }, { ids: ['z'] }]).map((f) => f.id)).toEqual(['a', 'z']);
    expect(reciprocalRankFusion([{ ids: ['z'] }, { ids: ['a'] }]).map((f) => f.id)).toEqual(['z', 'a']);
    expect(reciprocalRankFusion([{ ids: ['y', 'x'], weight: 0 }]).map((f) => f.id)).toEqual(['y', 'x']);
  });

  it('lets a weight tilt the fusion towards one ranking', () => {
    const rankings = (dense: number) => [{ ids: ['lex', 'both'] }, { ids: ['dense', 'x', 'y', 'both'], weight: dense }];
    expect(reciprocalRankFusion(rankings(1)).map((f) => f.id)).toEqual(['both', 'lex', 'dense', 'x', 'y']);
    expect(reciprocalRankFusion(rankings(2)).map((f) => f.id)).toEqual(['both', 'dense', 'x', 'y', 'lex']);
    expect(reciprocalRankFusion(rankings(0)).map((f) => f.id)).toEqual(['lex', 'both', 'dense', 'x', 'y']);
  });

  it('counts a repeated id once, at its best rank, and lets a small k favour the top ranks', () => {
    expect(reciprocalRankFusion([{ ids: ['a', 'b', 'a'] }]).map((f) => f.id)).toEqual(['a', 'b']);
    // Top of one list vs third of both: k=60 flattens rank differences, k=1 does not.
    const lists = [{ ids: ['top', 'x', 'mid'] }, { ids: ['y', 'z', 'mid'] }];
    expect(reciprocalRankFusion(lists, 60)[0]!.id).toBe('mid');
    expect(reciprocalRankFusion(lists, 1)[0]!.id).toBe('top');
    expect(() => reciprocalRankFusion(lists, 0)).toThrow(RangeError);
  });

  it('keeps only preferred-language dense candidates when there are any, else all of them', () => {
    const lang: Record<string, string> = { ja1: 'ja', en1: 'en', ja2: 'ja' };
    expect(preferLanguage(['en1', 'ja1', 'ja2'], (id) => lang[id] === 'ja')).toEqual(['ja1', 'ja2']);
    expect(preferLanguage(['en1'], (id) => lang[id] === 'ja')).toEqual(['en1']);
  });
});

describe('dense index', () => {
  const vector = (...xs: number[]) => Float32Array.from(xs);

  it('returns the nearest documents by cosine, best first, above the similarity floor', () => {
    const dense = new DenseIndex();
    dense.set('east', vector(1, 0, 0));
    dense.set('north-east', vector(1, 1, 0));
    dense.set('north', vector(0, 5, 0));
    dense.set('west', vector(-1, 0, 0));
    expect(dense.search(vector(2, 0, 0), 3).map((h) => h.id)).toEqual(['east', 'north-east', 'north']);
    const hits = dense.search(vector(1, 0, 0), 10, 0.5);
    expect(hits.map((h) => h.id)).toEqual(['east', 'north-east']);
    expect(hits[1]!.similarity).toBeCloseTo(Math.SQRT1_2, 6);
  });

  it('stays searchable after removals (the last row fills the hole) and replaces a vector in place', () => {
    const dense = new DenseIndex();
    for (let i = 0; i < 40; i++) dense.set(`d${i}`, vector(Math.cos(i / 10), Math.sin(i / 10)));
    for (let i = 0; i < 40; i += 2) dense.remove(`d${i}`);
    dense.remove('unknown');
    expect(dense.size).toBe(20);
    expect(dense.has('d0')).toBe(false);
    expect(dense.search(vector(Math.cos(3.9), Math.sin(3.9)), 1)[0]!.id).toBe('d39');
    dense.set('d39', vector(1, 0));
    expect(dense.search(vector(1, 0), 1)[0]).toMatchObject({ id: 'd39' });
    expect(dense.size).toBe(20);
  });

  it('refuses a vector of another dimension, and a query of another dimension finds nothing', () => {
    const dense = new DenseIndex();
    expect(dense.dimensions).toBeUndefined();
    expect(dense.set('a', vector(1, 0, 0))).toBe(true);
    expect(dense.set('b', vector(1, 0))).toBe(false);
    expect(dense.has('b')).toBe(false);
    expect(dense.search(vector(1, 0), 5)).toEqual([]);
    // Emptied, it takes any dimension again.
    dense.remove('a');
    expect(dense.set('b', vector(1, 0))).toBe(true);
    expect(dense.dimensions).toBe(2);
  });

  it('encodes vectors as little-endian float32 base64 and back, and normalises to unit length', () => {
    const normalized = normalize(vector(3, 4));
    expect([...normalized]).toEqual([Math.fround(0.6), Math.fround(0.8)]);
    expect(decodeVector(encodeVector(normalized))).toEqual(normalized);
    expect(encodeVector(vector(1))).toBe(Buffer.from([0, 0, 0x80, 0x3f]).toString('base64'));
    expect(decodeVector('AAA=')).toBeNull();
    expect([...normalize(vector(0, 0))]).toEqual([0, 0]);
  });
});

describe('embedded text', () => {
  it('is question, answer and tags behind the document prefix, cut without splitting a character', () => {
    const doc = { id: 'x', question: 'Q?', answer: 'A.', tags: ['t1', 'region:EU'], language: 'en' as const };
    expect(embeddingText(doc, { maxInputChars: 100 })).toBe('Q?\nA.\nt1, region:EU');
    expect(embeddingText({ ...doc, tags: [] }, { maxInputChars: 100, documentPrefix: 'passage: ' })).toBe('passage: Q?\nA.');
    expect(truncate('ab😀', 3)).toBe('ab');
  });
});

describe('embeddings outage bookkeeping', () => {
  function setup() {
    const lines: Array<{ level: number; msg: string }> = [];
    const log = pino({ level: 'debug' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
    let now = 1_000;
    const health = new EmbeddingsHealth(log, 100, () => now);
    return { health, lines, advance: (ms: number) => void (now += ms) };
  }

  it('warns once per outage, pauses 100, 200, 400 ms between attempts, and logs the recovery once', () => {
    const { health, lines, advance } = setup();
    let recovered = 0;
    health.onRecovered(() => recovered++);
    expect(health.available()).toBe(true);
    expect(health.failed(new Error('boom'), 'query')).toMatch(/embeddings unavailable \(boom\); lexical results only/);
    expect(health.available()).toBe(false);
    expect(health.retryInMs()).toBe(100);
    advance(100);
    health.failed(new Error('boom again'), 'index');
    expect(health.retryInMs()).toBe(200);
    advance(200);
    health.failed(new Error('boom'), 'query');
    expect(health.retryInMs()).toBe(400);
    expect(lines.filter((l) => l.level === 40)).toHaveLength(1);
    advance(400);
    health.succeeded();
    health.succeeded();
    expect(recovered).toBe(1);
    expect(health.failing).toBe(false);
    expect(lines.filter((l) => l.msg.includes('recovered'))).toHaveLength(1);
    // A new outage warns again.
    health.failed(new Error('down'), 'query');
    expect(lines.filter((l) => l.level === 40)).toHaveLength(2);
  });
});

describe('embeddings configuration', () => {
  it('is off without EMBEDDINGS_MODEL (lexical only, as before), and falls back to the chat provider’s server and key', () => {
    expect(loadFaqConfig({}).embeddings).toBeUndefined();
    expect(loadFaqConfig({ EMBEDDINGS_MODEL: ' ' }).embeddings).toBeUndefined();
    const viaOpenAi = loadFaqConfig({ EMBEDDINGS_MODEL: 'text-embedding-3-small', OPENAI_API_KEY: 'sk-chat' }).embeddings;
    expect(viaOpenAi).toMatchObject({
      model: 'text-embedding-3-small',
      apiKey: 'sk-chat',
      baseUrl: undefined,
      batchSize: 64,
      rpm: 0,
      rrfK: 60,
      minSimilarity: 0.3,
    });
    const local = loadFaqConfig({
      EMBEDDINGS_MODEL: 'nomic-embed-text',
      EMBEDDINGS_BASE_URL: 'http://localhost:11434/v1',
      OPENAI_BASE_URL: 'http://chat.internal/v1',
      EMBEDDINGS_QUERY_PREFIX: 'search_query: ',
      EMBEDDINGS_DIMENSIONS: '',
    }).embeddings;
    expect(local).toMatchObject({
      baseUrl: 'http://localhost:11434/v1',
      apiKey: undefined,
      dimensions: undefined,
      queryPrefix: 'search_query: ',
    });
    expect(loadFaqConfig({ EMBEDDINGS_MODEL: 'm', EMBEDDINGS_API_KEY: 'sk-emb', OPENAI_API_KEY: 'sk-chat' }).embeddings?.apiKey).toBe(
      'sk-emb',
    );
  });

  it('refuses to start with a model but no way to reach a server, or with invalid numbers', () => {
    expect(() => loadFaqConfig({ EMBEDDINGS_MODEL: 'text-embedding-3-small' })).toThrow(ConfigError);
    expect(() => loadFaqConfig({ EMBEDDINGS_MODEL: 'm', OPENAI_API_KEY: 'k', EMBEDDINGS_BATCH_SIZE: '0' })).toThrow(
      /EMBEDDINGS_BATCH_SIZE/,
    );
    expect(() => loadFaqConfig({ EMBEDDINGS_MODEL: 'm', OPENAI_API_KEY: 'k', EMBEDDINGS_MIN_SIMILARITY: '2' })).toThrow(
      /EMBEDDINGS_MIN_SIMILARITY/,
    );
  });
});
