import { AppError } from '@convo/runtime';
import { Job, type Queue, type QueueEvents } from 'bullmq';
import { TimeoutError } from '../sessions/turn-waiter.js';

/**
 * The result of a request job (a search, a workbench check or PDF) that the
 * gateway enqueued and waits for. BullMQ's completion event is the fast path;
 * a timeout looks at the job once more (an event lost to a trimmed events
 * stream must not turn a finished job into a 504) and withdraws a job no
 * worker has taken yet, so an abandoned request costs no work. A job that
 * failed is `failedCode` (502) with BullMQ's reason.
 */
export async function awaitJob(
  queue: Queue,
  job: Job,
  events: QueueEvents,
  opts: { timeoutMs: number; what: string; failedCode: string },
): Promise<unknown> {
  try {
    return await job.waitUntilFinished(events, opts.timeoutMs);
  } catch (err) {
    const timedOut = err instanceof Error && /timed out/i.test(err.message);
    if (!timedOut)
      throw new AppError(opts.failedCode, `${opts.what} failed: ${err instanceof Error ? err.message : String(err)}`, { status: 502 });
    const state = await job.getState();
    if (state === 'completed') {
      const fresh = await Job.fromId(queue, job.id!);
      if (fresh) return fresh.returnvalue;
    }
    if (state === 'waiting' || state === 'prioritized' || state === 'delayed') await job.remove().catch(() => undefined);
    throw new TimeoutError(`${opts.what} did not finish within ${opts.timeoutMs} ms`);
  }
}
