import type { RedisClient } from '@convo/runtime';
import type { Logger } from '@convo/runtime';
import type { EmbeddingsConfig } from '../config.js';
import { createRpmGate } from '@convo/agent-kit';
import { CorpusReplica } from '../corpus-replica.js';
import { CorpusStore } from '../corpus-store.js';
import type { Registry } from 'prom-client';
import { createOpenAiEmbedder, type Embedder } from './embedder.js';
import { EmbeddingsHealth } from './health.js';
import { createEmbeddingsMetrics, measuredEmbedder, measuredRetriever } from './metrics.js';
import { createHybridRetriever, lexicalRetriever, type Retriever } from './retriever.js';
import { VectorStore } from './vector-store.js';
import { VectorSync } from './vector-sync.js';

export type { Retrieval, Retriever } from './retriever.js';

/** The search service's FAQ retrieval: the corpus replica, how to search it, and (hybrid) the vectors kept beside it. */
export type FaqSearch = {
  replica: CorpusReplica;
  retrieve: Retriever;
  /** Present with an embedding model. */
  vectors?: VectorSync;
  close(): void;
};

export type FaqSearchDeps = {
  redis: RedisClient;
  keyPrefix: string;
  log: Logger;
  refreshMs: number;
  /** How long a job waits for a newer corpus version being indexed (FAQ_INDEX_WAIT_MS). */
  indexWaitMs?: number;
  synonymGroups?: readonly (readonly string[])[];
  /** Undefined: lexical search only, exactly as without hybrid retrieval. */
  embeddings: EmbeddingsConfig | undefined;
  /** Where hybrid retrieval's figures are registered (the worker's registry); none when absent. */
  registry?: Registry;
};

/** How long an indexing batch may wait for the rate limit (the embedder's bound) plus slack for backoffs. */
const RATE_WAIT_AND_SLACK_MS = 71_000;

/**
 * Opens the corpus replica and, when an embedding model is configured, the
 * vectors that follow it: every corpus change the replica sees is handed to
 * a VectorSync that embeds in the background, and searches fuse both sides.
 */
export async function openFaqSearch(deps: FaqSearchDeps): Promise<FaqSearch> {
  const store = new CorpusStore(deps.redis, deps.keyPrefix);
  const cfg = deps.embeddings;
  if (!cfg) {
    const replica = await CorpusReplica.open(store, deps.log, {
      refreshMs: deps.refreshMs,
      waitMs: deps.indexWaitMs,
      synonymGroups: deps.synonymGroups,
    });
    return { replica, retrieve: lexicalRetriever, close: () => replica.close() };
  }
  let pendingDocuments = () => 0;
  const metrics = deps.registry ? createEmbeddingsMetrics(deps.registry, () => pendingDocuments()) : undefined;
  const rawEmbedder = createEmbedder(deps, cfg);
  const embedder = metrics ? measuredEmbedder(rawEmbedder, metrics) : rawEmbedder;
  const log = deps.log.child({ tool: 'search_faq', embeddingsModel: embedder.modelKey });
  const health = new EmbeddingsHealth(log, cfg.retryMs);
  const vectors = new VectorSync({
    store: new VectorStore(deps.redis, store.keys),
    embedder,
    health,
    log,
    batchSize: cfg.batchSize,
    maxInputChars: cfg.maxInputChars,
    documentPrefix: cfg.documentPrefix,
    // Long enough for a batch that waits for the rate window and uses every retry; a crashed holder's lease runs out after it.
    leaseMs: RATE_WAIT_AND_SLACK_MS + cfg.timeoutMs * (cfg.maxRetries + 1),
  });
  const replica = await CorpusReplica.open(store, deps.log, {
    refreshMs: deps.refreshMs,
    waitMs: deps.indexWaitMs,
    synonymGroups: deps.synonymGroups,
    onChange: (change) => vectors.update(change),
  });
  const hybrid = createHybridRetriever(
    { dense: vectors.dense, embedder, health, log },
    {
      candidates: cfg.candidates,
      rrfK: cfg.rrfK,
      denseWeight: cfg.denseWeight,
      minSimilarity: cfg.minSimilarity,
      maxInputChars: cfg.maxInputChars,
      queryPrefix: cfg.queryPrefix,
    },
  );
  const retrieve = metrics ? measuredRetriever(hybrid, metrics) : hybrid;
  pendingDocuments = () => vectors.pendingCount;
  log.info({ batchSize: cfg.batchSize, rpm: cfg.rpm, pending: vectors.pendingCount }, 'hybrid faq retrieval on');
  return {
    replica,
    retrieve,
    vectors,
    close: () => {
      replica.close();
      vectors.close();
    },
  };
}

function createEmbedder(deps: FaqSearchDeps, cfg: EmbeddingsConfig): Embedder {
  const rateGate = createRpmGate(deps.redis, {
    rpm: cfg.rpm,
    maxWaitMs: 0,
    prefix: deps.keyPrefix,
    what: 'embeddings requests',
    setting: 'EMBEDDINGS_RPM',
  });
  return createOpenAiEmbedder({
    model: cfg.model,
    apiKey: cfg.apiKey,
    baseUrl: cfg.baseUrl,
    dimensions: cfg.dimensions,
    timeoutMs: cfg.timeoutMs,
    maxRetries: cfg.maxRetries,
    queryTimeoutMs: cfg.queryTimeoutMs,
    rateGate,
    log: deps.log,
  });
}
