import type OpenAI from 'openai';
import { AppError, ProviderError } from '@convo/runtime';
import { createOpenAiClient, type ProviderLog, type RetryPolicy, type RpmGate, withRetries } from '@convo/agent-kit';
import { isFiniteVector, normalize } from '../search/dense.js';

/**
 * Turns texts into vectors. `index` calls are the background embedding of
 * documents: they may wait for the rate limit and are retried; `query` calls
 * have a user waiting: one attempt within a short timeout, and no waiting
 * for the rate limit.
 */
export interface Embedder {
  /** Stored with every vector: a vector made under another key (model or dimensions changed) is re-made. */
  readonly modelKey: string;
  /** One unit-length vector per text, in order, all of one dimension. */
  embed(texts: string[], opts: { purpose: 'index' | 'query'; signal?: AbortSignal }): Promise<Float32Array[]>;
}

/**
 * The embeddings server failed or answered something unusable. Never shown to
 * a user as an error: search falls back to lexical results.
 */
export class EmbeddingsError extends AppError {
  /**
   * The server answered and refused these inputs (400, 413, 422): the
   * server works, something in the texts does not (too long for the model's
   * context, say). Other failures mean the server is unavailable.
   */
  readonly refused: boolean;

  constructor(message: string, cause?: unknown) {
    super('embeddings_unavailable', message, { status: 502, retryable: true, cause });
    this.refused = cause instanceof ProviderError && cause.upstreamStatus !== null && REFUSALS.has(cause.upstreamStatus);
  }
}

/** Statuses that depend on the input rather than on the server, the key or the model. */
const REFUSALS = new Set([400, 413, 422]);

export type OpenAiEmbedderOptions = {
  model: string;
  apiKey?: string;
  baseUrl?: string;
  /** Asked of models that can shorten their output (text-embedding-3-*), and checked on every answer. */
  dimensions?: number;
  /** Per attempt while indexing. */
  timeoutMs: number;
  maxRetries: number;
  /** The single attempt of a query. */
  queryTimeoutMs: number;
  retryBaseMs?: number;
  /** The provider's request budget (EMBEDDINGS_RPM), shared by every replica; absent = unlimited. */
  rateGate?: RpmGate | null;
  log?: ProviderLog;
};

/** How long an indexing batch may wait for the next rate window: a one-minute window always opens within it. */
const INDEX_RATE_WAIT_MS = 61_000;

/**
 * The OpenAI embeddings API through the official SDK, against OpenAI or any
 * compatible server (Ollama, llama.cpp, vLLM, LM Studio …). Vectors are asked
 * for as JSON floats, which every compatible server speaks (the SDK's default
 * base64 is not universal). Retries and their classification are the chat
 * provider's (`withRetries`); every failure is an `EmbeddingsError`, except
 * an abort, which rejects with the caller's reason.
 */
export function createOpenAiEmbedder(opts: OpenAiEmbedderOptions): Embedder {
  const client = createOpenAiClient({ apiKey: opts.apiKey, baseUrl: opts.baseUrl, timeoutMs: opts.timeoutMs });
  const indexPolicy: RetryPolicy = { maxRetries: opts.maxRetries, baseMs: opts.retryBaseMs ?? 500, maxMs: 8_000 };
  const queryPolicy: RetryPolicy = { maxRetries: 0, baseMs: 0, maxMs: 0 };
  const modelKey = opts.dimensions ? `${opts.model}@${opts.dimensions}` : opts.model;
  return {
    modelKey,
    async embed(texts, { purpose, signal }) {
      if (texts.length === 0) return [];
      const query = purpose === 'query';
      try {
        await opts.rateGate?.(`embeddings:${modelKey}`, { signal, maxWaitMs: query ? 0 : INDEX_RATE_WAIT_MS });
        const call = { model: opts.model, signal, what: 'embeddings call' };
        const timeout = query ? opts.queryTimeoutMs : opts.timeoutMs;
        const res = await withRetries(
          () => request(client, opts, texts, timeout, signal),
          query ? queryPolicy : indexPolicy,
          call,
          opts.log,
        );
        return toVectors(res, texts.length, opts.dimensions);
      } catch (err) {
        if (signal?.aborted) throw signal.reason;
        if (err instanceof EmbeddingsError) throw err;
        throw new EmbeddingsError(err instanceof Error ? err.message : String(err), err);
      }
    },
  };
}

function request(client: OpenAI, opts: OpenAiEmbedderOptions, texts: string[], timeout: number, signal?: AbortSignal) {
  return client.embeddings.create(
    { model: opts.model, input: texts, encoding_format: 'float', ...(opts.dimensions ? { dimensions: opts.dimensions } : {}) },
    { signal, timeout },
  );
}

/** The answer's vectors in input order, checked: one per input, finite numbers, one dimension (the configured one, if any). */
function toVectors(res: OpenAI.Embeddings.CreateEmbeddingResponse, count: number, dimensions?: number): Float32Array[] {
  const data = Array.isArray(res?.data) ? res.data : [];
  if (data.length !== count) throw new EmbeddingsError(`the embeddings server returned ${data.length} vectors for ${count} inputs`);
  const out: Float32Array[] = new Array(count);
  for (const [i, item] of data.entries()) {
    const at = Number.isInteger(item.index) ? item.index : i;
    const values = item.embedding as unknown;
    if (at < 0 || at >= count || out[at] || !Array.isArray(values) || !isFiniteVector(values as number[])) {
      throw new EmbeddingsError(`the embeddings server returned an unusable vector for input ${at}`);
    }
    out[at] = normalize(Float32Array.from(values as number[]));
  }
  const dim = dimensions ?? out[0]!.length;
  const wrong = out.find((v) => v.length !== dim);
  if (wrong) throw new EmbeddingsError(`the embeddings server returned a vector of dimension ${wrong.length}, expected ${dim}`);
  return out;
}
