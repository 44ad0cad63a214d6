import type { Logger } from '@convo/runtime';
import type { FaqDocument, SearchHit } from '@convo/contract';
import type { DenseIndex } from '../search/dense.js';
import { preferLanguage, reciprocalRankFusion } from '../search/fusion.js';
import type { FaqSearchIndex, SearchOptions } from '../search/index.js';
import { detectLanguage } from '@convo/text';
import { EmbeddingsError, type Embedder } from './embedder.js';
import type { EmbeddingsHealth } from './health.js';
import { truncate } from './vector-sync.js';

/**
 * What one search returned and how. `retrieval` is absent when no embedding
 * model is configured (the lexical engine alone, as before hybrid retrieval
 * existed); `warning` says why a hybrid search answered lexically.
 */
export type Retrieval = {
  hits: SearchHit[];
  /** The lexical best hit's calibrated confidence (FaqSearchIndex.confidence); absent when the index does not calibrate. */
  confidence?: number;
  retrieval?: 'hybrid' | 'lexical';
  warning?: string;
};

/** Searches `index` (already brought up to the corpus version) for `query`; never rejects for an embeddings failure. */
export type Retriever = (index: FaqSearchIndex, query: string, opts: SearchOptions, signal?: AbortSignal) => Promise<Retrieval>;

/** Lexical only: the engine's ranking as it is. */
export const lexicalRetriever: Retriever = async (index, query, opts) => {
  const hits = index.search(query, opts);
  return { hits, ...confidenceOf(index, query, hits) };
};

/**
 * Whether the corpus answers the query at all is judged on the lexical
 * evidence, in hybrid mode too: a dense ranking always has nearest
 * neighbours, and its cosines are not calibrated on the corpus.
 */
function confidenceOf(index: FaqSearchIndex, query: string, lexical: SearchHit[]): { confidence?: number } {
  return index.confidence ? { confidence: index.confidence(query, lexical[0]) } : {};
}

export type HybridOptions = {
  /** Candidates taken from each side before fusion (at least topK). */
  candidates: number;
  rrfK: number;
  /** The dense ranking's weight; the lexical one's is 1. */
  denseWeight: number;
  /** Cosine below which a dense candidate is no match at all: without it every query would "find" its nearest neighbours. */
  minSimilarity: number;
  maxInputChars: number;
  /** Put before the query, for models trained with task prefixes (`query: `, `search_query: `). */
  queryPrefix?: string;
};

export type HybridDeps = { dense: DenseIndex; embedder: Embedder; health: EmbeddingsHealth; log: Logger };

/**
 * Hybrid retrieval: the lexical engine's top candidates and the embeddings'
 * nearest documents, fused by reciprocal rank (see fusion.ts). A document
 * without a vector yet competes on its lexical rank alone. The query is
 * embedded once, within the query timeout; if that fails (or the server is
 * in its pause after a failure) the lexical ranking is returned, marked
 * `lexical` with a warning.
 */
export function createHybridRetriever(deps: HybridDeps, opts: HybridOptions): Retriever {
  return async (index, query, searchOpts, signal) => {
    const wanted = Math.max(opts.candidates, searchOpts.topK);
    const lexical = index.search(query, { ...searchOpts, topK: wanted });
    const lexicalOnly = (warning: string): Retrieval => ({
      hits: lexical.slice(0, searchOpts.topK),
      ...confidenceOf(index, query, lexical),
      retrieval: 'lexical',
      warning,
    });
    if (!deps.health.available()) return lexicalOnly(deps.health.warning());

    let vector: Float32Array;
    try {
      vector = await embedQuery(deps, query, opts, signal);
    } catch (err) {
      // A cancelled job is not an outage of the embeddings server.
      if (signal?.aborted) throw err;
      return lexicalOnly(deps.health.failed(err, 'query'));
    }
    deps.health.succeeded();

    const preferred = searchOpts.language === 'ja' || searchOpts.language === 'en' ? searchOpts.language : detectLanguage(query);
    const nearest = deps.dense.search(vector, wanted, opts.minSimilarity).filter((hit) => index.has(hit.id));
    // For tuning EMBEDDINGS_MIN_SIMILARITY to a model: how close the best documents came (ids and cosines, no query text).
    deps.log.debug(
      { dense: nearest.slice(0, 3).map((hit) => [hit.id, Math.round(hit.similarity * 1000) / 1000]), lexical: lexical.length },
      'hybrid faq search',
    );
    const denseIds = preferLanguage(
      nearest.map((hit) => hit.id),
      (id) => index.get(id)?.language === preferred,
    );
    const fused = reciprocalRankFusion(
      [
        { ids: lexical.map((hit) => hit.id), weight: 1 },
        { ids: denseIds, weight: opts.denseWeight },
      ],
      opts.rrfK,
    );
    const lexicalHits = new Map(lexical.map((hit) => [hit.id, hit]));
    const hits: SearchHit[] = [];
    for (const { id, score } of fused.slice(0, searchOpts.topK)) {
      const doc = lexicalHits.get(id) ?? index.get(id);
      if (doc) hits.push(toHit(doc, round(score)));
    }
    return { hits, ...hybridConfidence(index, query, lexical, hits[0], nearest, opts.minSimilarity), retrieval: 'hybrid' };
  };
}

/**
 * In hybrid mode a document the embeddings found may answer a query that
 * shares no word with it, so the best hit's confidence is the higher of the
 * lexical one and its cosine placed between EMBEDDINGS_MIN_SIMILARITY (0) and
 * 1 (1). Unlike the lexical confidence this is the model's own scale, not
 * calibrated on the corpus: raise EMBEDDINGS_MIN_SIMILARITY for a model whose
 * unrelated texts are close.
 */
function hybridConfidence(
  index: FaqSearchIndex,
  query: string,
  lexical: SearchHit[],
  best: SearchHit | undefined,
  nearest: { id: string; similarity: number }[],
  minSimilarity: number,
): { confidence?: number } {
  const lexicalConfidence = confidenceOf(index, query, lexical).confidence;
  if (lexicalConfidence === undefined) return {};
  const similarity = nearest.find((hit) => hit.id === best?.id)?.similarity;
  if (similarity === undefined) return { confidence: lexicalConfidence };
  const dense = Math.min(1, Math.max(0, (similarity - minSimilarity) / Math.max(1e-9, 1 - minSimilarity)));
  return { confidence: Math.max(lexicalConfidence, Math.round(dense * 1000) / 1000) };
}

async function embedQuery(deps: HybridDeps, query: string, opts: HybridOptions, signal?: AbortSignal): Promise<Float32Array> {
  const [vector] = await deps.embedder.embed([truncate(`${opts.queryPrefix ?? ''}${query}`, opts.maxInputChars)], {
    purpose: 'query',
    signal,
  });
  const dim = deps.dense.dimensions;
  if (!vector) throw new EmbeddingsError('the embeddings server returned no vector for the query');
  if (dim !== undefined && vector.length !== dim)
    throw new EmbeddingsError(`the query vector has dimension ${vector.length}, the documents' have ${dim}`);
  return vector;
}

function toHit(doc: FaqDocument | SearchHit, score: number): SearchHit {
  return { id: doc.id, question: doc.question, answer: doc.answer, score, tags: [...doc.tags], language: doc.language };
}

/** Scores as the engine reports them, to six places. */
function round(score: number): number {
  return Math.round(score * 1e6) / 1e6;
}
