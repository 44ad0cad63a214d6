import { enqueueRequest, type AgentQueues, type RequestJobKind } from '@convo/runtime';
import { SearchQueryJob } from '@convo/contract';

/**
 * Job `query` on the search agent's queue: a single-shot /agent.search; its return value is the
 * AgentSearchResponse. A search is read-only, so one retry is harmless.
 */
export const SEARCH_QUERY_JOB: RequestJobKind<SearchQueryJob> = {
  agent: 'search',
  name: 'query',
  schema: SearchQueryJob,
  options: {
    attempts: 2,
    backoff: { type: 'fixed', delay: 100 },
  },
};

export function enqueueSearchQuery(queues: AgentQueues, payload: SearchQueryJob): ReturnType<typeof enqueueRequest> {
  return enqueueRequest(queues, SEARCH_QUERY_JOB, payload);
}
