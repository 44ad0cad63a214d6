import { Counter, Gauge, type Registry } from 'prom-client';
import type { Embedder } from './embedder.js';
import type { Retriever } from './retriever.js';

/**
 * What hybrid retrieval does, for operators: embeddings requests and their
 * outcome, documents embedded, documents still waiting for a vector, and how
 * often a search fell back to lexical. Registered in the worker's registry, so
 * the gateway's /metrics adds up every search replica's.
 */
export type EmbeddingsMetrics = {
  requests: Counter<'purpose' | 'outcome'>;
  embedded: Counter;
  pending: Gauge;
  searches: Counter<'retrieval'>;
};

/** `pendingDocuments` is read whenever the metrics are collected. */
export function createEmbeddingsMetrics(registry: Registry, pendingDocuments: () => number): EmbeddingsMetrics {
  const registers = [registry];
  return {
    requests: new Counter({
      name: 'convo_faq_embeddings_requests_total',
      help: 'Requests to the embeddings server, by purpose (index, query) and outcome',
      labelNames: ['purpose', 'outcome'],
      registers,
    }),
    embedded: new Counter({ name: 'convo_faq_embedded_documents_total', help: 'FAQ documents embedded (each version once)', registers }),
    pending: new Gauge({
      name: 'convo_faq_embeddings_pending_documents',
      help: 'FAQ documents still without a vector for the current model (searched lexically only)',
      registers,
      collect() {
        this.set(pendingDocuments());
      },
    }),
    searches: new Counter({
      name: 'convo_faq_searches_total',
      help: 'FAQ searches by how they were answered: hybrid, or lexical after an embeddings failure',
      labelNames: ['retrieval'],
      registers,
    }),
  };
}

/** The embedder, counting its requests and the documents it embedded. */
export function measuredEmbedder(embedder: Embedder, metrics: EmbeddingsMetrics): Embedder {
  return {
    modelKey: embedder.modelKey,
    async embed(texts, opts) {
      try {
        const vectors = await embedder.embed(texts, opts);
        metrics.requests.inc({ purpose: opts.purpose, outcome: 'ok' });
        if (opts.purpose === 'index') metrics.embedded.inc(vectors.length);
        return vectors;
      } catch (err) {
        metrics.requests.inc({ purpose: opts.purpose, outcome: 'error' });
        throw err;
      }
    },
  };
}

/** The retriever, counting how each search was answered. */
export function measuredRetriever(retrieve: Retriever, metrics: EmbeddingsMetrics): Retriever {
  return async (index, query, opts, signal) => {
    const result = await retrieve(index, query, opts, signal);
    if (result.retrieval) metrics.searches.inc({ retrieval: result.retrieval });
    return result;
  };
}
