import { enqueueSearchQuery } from '@convo/faq';
import { AgentSearchResponse, JOB_SCHEMA_VERSION, type AgentSearchRequest, type SearchQueryJob } from '@convo/contract';
import type { GatewayDeps } from '../deps.js';
import { awaitJob } from '../jobs/await-job.js';

/** POST /agent.search: one search job on the search agent's queue, awaited without polling. */
export async function searchOnce(
  deps: Pick<GatewayDeps, 'queues' | 'config' | 'queueEvents'>,
  body: AgentSearchRequest,
): Promise<AgentSearchResponse> {
  const payload: SearchQueryJob = { v: JOB_SCHEMA_VERSION, query: body.query, topK: body.topK, language: body.language };
  // Listening before the job exists, so its completion cannot be missed.
  const events = await deps.queueEvents('search');
  const job = await enqueueSearchQuery(deps.queues, payload);
  const result = await awaitJob(deps.queues.get('search'), job, events, {
    timeoutMs: deps.config.faq.searchTimeoutMs,
    what: 'the search',
    failedCode: 'search_failed',
  });
  return AgentSearchResponse.parse(result);
}
