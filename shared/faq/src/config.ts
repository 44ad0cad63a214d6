import { z } from 'zod';
import { ConfigError, envFlag, envInt, keyList, readEnv } from '@convo/runtime';

/** The FAQ product's variables (docs/configuration.md): the dialog's waits, the corpus, crew mode, hybrid retrieval. */
const FaqEnv = {
  /** FAQ dialog: default topK, how long /agent.dialog and /agent.search wait for the queue work (then 504). */
  FAQ_TOP_K: envInt(3, 1),
  DIALOG_TIMEOUT_MS: envInt(20_000, 100),
  SEARCH_TIMEOUT_MS: envInt(10_000, 100),
  /** The sample corpus loaded on first start (relative to the working directory); empty disables. */
  FAQ_SEED_FILE: z.string().default('examples/faq/ec-faq.json'),
  FAQ_MAX_DOCS: envInt(50_000, 1),
  /** How often a planner/search process checks the corpus version in the background (0: only before each job). */
  FAQ_REFRESH_MS: envInt(1_000, 0),
  /** How long a search or plan waits for a newer corpus version being indexed before answering from the previous one. */
  FAQ_INDEX_WAIT_MS: envInt(2_000, 0),
  FAQ_MAX_UPLOAD_BYTES: envInt(10 * 1024 * 1024, 1024),
  /**
   * Answer or abstain: a search whose best hit's confidence (in [0, 1],
   * calibrated on the corpus, see docs/products/faq.md) is below this answers
   * nothing and says so; 0 always answers.
   */
  FAQ_ABSTAIN_BELOW: z.coerce.number().min(0).max(1).default(0.3),
  /** Where to turn when the FAQ has no answer (a phone number, a page, a desk), added to the abstention's message; empty for none. */
  FAQ_CONTACT: z.string().max(500).default(''),
  /** A deployment's own synonym groups for FAQ search: one group per line, words separated by commas; empty for none. The default goes with the sample corpus. */
  FAQ_SYNONYMS_FILE: z.string().default('examples/faq/ec-synonyms.txt'),
  /** When set, POST and DELETE /faq/documents need `Authorization: Bearer <key>`; two keys separated by a comma during a rotation. */
  FAQ_WRITE_KEY: z.string().min(1).optional(),
  /** Development only: corpus writes without any key. Without it and without a key, writes are refused. */
  FAQ_OPEN_WRITES: envFlag(),
  /** External orchestrator for `mode: "crew"` (docs/seeds/002 §4.2.1); unset → crew requests get 400. */
  CREW_URL: z.string().url().optional(),
  CREW_TIMEOUT_MS: envInt(10_000, 100),
  /** The chat provider's server and key, which embeddings fall back to. */
  OPENAI_API_KEY: z.string().optional(),
  OPENAI_BASE_URL: z.string().url().optional(),
  /** Hybrid FAQ retrieval: the embedding model; unset or empty = lexical search only. */
  EMBEDDINGS_MODEL: z.string().optional(),
  /** OpenAI-compatible server for embeddings; falls back to OPENAI_BASE_URL, then OpenAI. */
  EMBEDDINGS_BASE_URL: z.string().url().optional(),
  /** Falls back to OPENAI_API_KEY; a local server usually needs none. */
  EMBEDDINGS_API_KEY: z.string().optional(),
  /** Output size asked of models that can shorten their vectors (text-embedding-3-*); unset = the model's own. */
  EMBEDDINGS_DIMENSIONS: z.preprocess((value) => (value === '' ? undefined : value), z.coerce.number().int().min(1).optional()),
  /** Documents per embeddings request while indexing. */
  EMBEDDINGS_BATCH_SIZE: envInt(64, 1),
  /** Embeddings requests per minute per model across every replica (Redis); 0 = unlimited. */
  EMBEDDINGS_RPM: envInt(0, 0),
  /** Per attempt while indexing; retries as LLM calls are retried. */
  EMBEDDINGS_TIMEOUT_MS: envInt(30_000, 100),
  EMBEDDINGS_MAX_RETRIES: envInt(2),
  /** A query's embedding, one attempt: past this the search answers lexically. */
  EMBEDDINGS_QUERY_TIMEOUT_MS: envInt(2_000, 50),
  /** After a failure the server is left alone this long (doubling per failure up to 60 s) before queries and indexing try it again. */
  EMBEDDINGS_RETRY_MS: envInt(5_000, 10),
  /** Text sent per document (question, answer, tags) is cut to this many characters. */
  EMBEDDINGS_MAX_INPUT_CHARS: envInt(8_000, 100),
  /** Task prefixes some models are trained with (e5: `query: ` / `passage: `; nomic-embed-text: `search_query: ` / `search_document: `). */
  EMBEDDINGS_QUERY_PREFIX: z.string().default(''),
  EMBEDDINGS_DOCUMENT_PREFIX: z.string().default(''),
  /** Cosine below which a dense candidate is not a match at all (model-dependent). */
  EMBEDDINGS_MIN_SIMILARITY: z.coerce.number().min(-1).max(1).default(0.3),
  /** Candidates taken from each side before fusion (at least topK). */
  EMBEDDINGS_CANDIDATES: envInt(50, 1),
  /** Reciprocal rank fusion: k, and the dense ranking's weight against the lexical one's 1. */
  EMBEDDINGS_RRF_K: envInt(60, 1),
  EMBEDDINGS_DENSE_WEIGHT: z.coerce.number().min(0).max(10).default(1),
};

export type EmbeddingsConfig = Readonly<{
  model: string;
  apiKey: string | undefined;
  baseUrl: string | undefined;
  dimensions: number | undefined;
  batchSize: number;
  rpm: number;
  timeoutMs: number;
  maxRetries: number;
  queryTimeoutMs: number;
  retryMs: number;
  maxInputChars: number;
  queryPrefix: string;
  documentPrefix: string;
  minSimilarity: number;
  candidates: number;
  rrfK: number;
  denseWeight: number;
}>;

export type FaqConfig = Readonly<{
  topK: number;
  dialogTimeoutMs: number;
  searchTimeoutMs: number;
  seedFile: string;
  maxDocs: number;
  refreshMs: number;
  /** How long a job waits for a newer corpus version being indexed (then answers from the previous one). */
  indexWaitMs: number;
  maxUploadBytes: number;
  synonymsFile: string | undefined;
  /** Confidence below which a search abstains. */
  abstainBelow: number;
  /** Where to turn when the FAQ has no answer; undefined for nowhere. */
  contact: string | undefined;
  /** FAQ_WRITE_KEY split at commas (a rotation keeps two). */
  writeKeys: readonly string[];
  /** Corpus writes with no key at all (development). */
  openWrites: boolean;
  crewUrl: string | undefined;
  crewTimeoutMs: number;
  /** Hybrid FAQ retrieval; undefined when EMBEDDINGS_MODEL is unset (lexical only). */
  embeddings: EmbeddingsConfig | undefined;
}>;

/** The FAQ product's section of the configuration, read from the environment; throws a readable ConfigError. */
export function loadFaqConfig(env: NodeJS.ProcessEnv = process.env): FaqConfig {
  const vars = readEnv(FaqEnv, env);
  return Object.freeze({
    topK: vars.FAQ_TOP_K,
    dialogTimeoutMs: vars.DIALOG_TIMEOUT_MS,
    searchTimeoutMs: vars.SEARCH_TIMEOUT_MS,
    seedFile: vars.FAQ_SEED_FILE,
    maxDocs: vars.FAQ_MAX_DOCS,
    refreshMs: vars.FAQ_REFRESH_MS,
    indexWaitMs: vars.FAQ_INDEX_WAIT_MS,
    maxUploadBytes: vars.FAQ_MAX_UPLOAD_BYTES,
    synonymsFile: vars.FAQ_SYNONYMS_FILE || undefined,
    abstainBelow: vars.FAQ_ABSTAIN_BELOW,
    contact: vars.FAQ_CONTACT.trim() || undefined,
    writeKeys: keyList(vars.FAQ_WRITE_KEY),
    openWrites: vars.FAQ_OPEN_WRITES,
    crewUrl: vars.CREW_URL,
    crewTimeoutMs: vars.CREW_TIMEOUT_MS,
    embeddings: embeddingsConfig(vars),
  });
}

/** The embeddings client falls back to the chat provider's server and key, so one local server can serve both. */
function embeddingsConfig(env: ReturnType<typeof readEnv<typeof FaqEnv>>): EmbeddingsConfig | undefined {
  const model = env.EMBEDDINGS_MODEL?.trim();
  if (!model) return undefined;
  const apiKey = env.EMBEDDINGS_API_KEY || env.OPENAI_API_KEY || undefined;
  const baseUrl = env.EMBEDDINGS_BASE_URL ?? env.OPENAI_BASE_URL;
  if (!apiKey && !baseUrl) {
    throw new ConfigError(
      'EMBEDDINGS_MODEL needs EMBEDDINGS_API_KEY or OPENAI_API_KEY (or EMBEDDINGS_BASE_URL for a local compatible server)',
    );
  }
  return Object.freeze({
    model,
    apiKey,
    baseUrl,
    dimensions: env.EMBEDDINGS_DIMENSIONS,
    batchSize: env.EMBEDDINGS_BATCH_SIZE,
    rpm: env.EMBEDDINGS_RPM,
    timeoutMs: env.EMBEDDINGS_TIMEOUT_MS,
    maxRetries: env.EMBEDDINGS_MAX_RETRIES,
    queryTimeoutMs: env.EMBEDDINGS_QUERY_TIMEOUT_MS,
    retryMs: env.EMBEDDINGS_RETRY_MS,
    maxInputChars: env.EMBEDDINGS_MAX_INPUT_CHARS,
    queryPrefix: env.EMBEDDINGS_QUERY_PREFIX,
    documentPrefix: env.EMBEDDINGS_DOCUMENT_PREFIX,
    minSimilarity: env.EMBEDDINGS_MIN_SIMILARITY,
    candidates: env.EMBEDDINGS_CANDIDATES,
    rrfK: env.EMBEDDINGS_RRF_K,
    denseWeight: env.EMBEDDINGS_DENSE_WEIGHT,
  });
}
