import { AgentSearchResponse, AppError, enqueueSearchQuery, JOB_SCHEMA_VERSION, type AgentSearchRequest, type SearchQueryJob } from '@convo/runtime';
import { Job, type Queue, type QueueEvents } from 'bullmq';
import type { GatewayDeps } from '../deps.js';
import { TimeoutError } from './turn-waiter.js';

/** POST /agent.search: one search job on the search agent's queue, awaited without polling. */
export async function searchOnce(deps: Pick<GatewayDeps, 'queues' | 'config' | 'searchEvents'>, body: AgentSearchRequest): Promise<AgentSearchResponse> {
  const payload: SearchQueryJob = { v: JOB_SCHEMA_VERSION, query: body.query, topK: body.topK, language: body.language };
  // Listening before the job exists, so its completion cannot be missed.
  const events = await deps.searchEvents();
  const job = await enqueueSearchQuery(deps.queues, payload);
  return AgentSearchResponse.parse(await awaitSearch(deps.queues.get('search'), job, events, deps.config.faq.searchTimeoutMs));
}

/**
 * The search job's result. BullMQ's completion event is the fast path; a
 * timeout looks at the job once more (an event lost to a trimmed events
 * stream must not turn a finished search into a 504) and withdraws a job no
 * worker has taken yet, so an abandoned request costs no search.
 */
async function awaitSearch(queue: Queue, job: Job, events: QueueEvents, timeoutMs: number): Promise<unknown> {
  try {
    return await job.waitUntilFinished(events, timeoutMs);
  } catch (err) {
    const timedOut = err instanceof Error && /timed out/i.test(err.message);
    if (!timedOut) throw new AppError('search_failed', `the search failed: ${err instanceof Error ? err.message : String(err)}`, { status: 502 });
    const state = await job.getState();
    if (state === 'completed') {
      const fresh = await Job.fromId(queue, job.id!);
      if (fresh) return fresh.returnvalue;
    }
    if (state === 'waiting' || state === 'prioritized' || state === 'delayed') await job.remove().catch(() => undefined);
    throw new TimeoutError(`the search did not finish within ${timeoutMs} ms`);
  }
}
