import { enqueueSearchQuery } from '@convo/faq';
import { UnavailableError } from '@convo/runtime';
import {
  type AgentSearchResponse,
  JOB_SCHEMA_VERSION,
  type AgentSearchRequest,
  SearchJobResult,
  type SearchQueryJob,
} from '@convo/contract';
import type { GatewayDeps } from '../deps.js';
import { awaitJob } from '../jobs/await-job.js';

/** POST /agent.search: one search job on the search agent's queue, awaited without polling. */
export async function searchOnce(
  deps: Pick<GatewayDeps, 'queues' | 'config' | 'queueEvents'>,
  body: AgentSearchRequest,
): Promise<AgentSearchResponse> {
  const payload: SearchQueryJob = {
    v: JOB_SCHEMA_VERSION,
    query: body.query,
    topK: body.topK,
    language: body.language,
    ...(body.minCorpusVersion !== undefined ? { minCorpusVersion: body.minCorpusVersion } : {}),
  };
  // Listening before the job exists, so its completion cannot be missed.
  const events = await deps.queueEvents('search');
  const job = await enqueueSearchQuery(deps.queues, payload);
  const result = await awaitJob(deps.queues.get('search'), job, events, {
    timeoutMs: deps.config.faq.searchTimeoutMs,
    what: 'the search',
    failedCode: 'search_failed',
  });
  const parsed = SearchJobResult.parse(result);
  if ('notReady' in parsed)
    throw new UnavailableError(
      `corpus version ${parsed.notReady.wanted} is still being indexed (the search answers from version ${parsed.notReady.corpusVersion}); retry after Retry-After seconds`,
      CORPUS_RETRY_AFTER_S,
      'corpus_not_ready',
    );
  return parsed;
}

/** A large upload indexes in seconds (docs/benchmarks.md): a client that asked for it comes back after this. */
const CORPUS_RETRY_AFTER_S = 2;
