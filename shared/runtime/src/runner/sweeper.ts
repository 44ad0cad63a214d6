import type { Config } from '../config.js';
import { SystemError } from '../errors.js';
import type { Logger } from '../logger.js';
import { stepJobId, type AgentQueues } from '../queues/catalog.js';
import { dispatch } from './commit.js';
import type { SessionStore } from '../store/session-store.js';
import { extractTrace, traceOf } from '../tracing/propagation.js';
import { ATTR, inSpan } from '../tracing/spans.js';
import type { ProductHooks } from './product.js';
import { failTurn } from './step-runner.js';

/**
 * Safety net for the gaps at-least-once delivery leaves: a step whose job was
 * never enqueued (a process died between commit and enqueue) is enqueued, and
 * a step whose job failed for good (e.g. stalled too often) fails its turn so
 * the session is usable again. Idempotent, so every gateway replica may run it.
 */
export async function sweepOnce(deps: {
  store: SessionStore;
  queues: AgentQueues;
  config: Config;
  log: Logger;
  product?: ProductHooks;
}): Promise<number> {
  const ids = await deps.store.listStalePending(deps.config.stepStaleMs);
  let repaired = 0;
  for (const sessionId of ids) {
    const loaded = await deps.store.load(sessionId);
    if (!loaded?.step) {
      await deps.store.clearPending(sessionId);
      continue;
    }
    const step = loaded.step;
    const queue = deps.queues.forSession(step.agent, sessionId);
    const job = await queue.getJob(stepJobId(sessionId, step.seq));
    const state = job ? await job.getState() : 'missing';
    if (state === 'missing' || state === 'completed' || state === 'unknown') {
      if (job) await job.remove().catch(() => undefined);
      // The re-enqueued step stays in its turn's trace: the lost job's own context when the job is still there,
      // else the one kept with the turn record when the gateway accepted the turn (none for a session's bootstrap run).
      const parent = extractTrace(traceOf(job?.data) ?? loaded.stepTurn?.trace);
      const attributes = { [ATTR.sessionId]: sessionId, [ATTR.turnId]: step.turnId, [ATTR.stepSeq]: step.seq, [ATTR.agent]: step.agent };
      await inSpan('sweeper re-enqueue', { parent, attributes }, () => dispatch(deps, sessionId, step));
      deps.log.warn({ sessionId, seq: step.seq, agent: step.agent, jobState: state }, 'sweeper re-enqueued a lost step');
      repaired++;
    } else if (state === 'failed') {
      await failTurn(deps, loaded, step, new SystemError(job?.failedReason ?? 'the step failed', undefined, 'step_failed'));
      deps.log.warn({ sessionId, seq: step.seq, agent: step.agent }, 'sweeper failed the turn of a dead step');
      repaired++;
    }
    await deps.store.markPending(sessionId);
  }
  return repaired;
}

export function startSweeper(deps: Parameters<typeof sweepOnce>[0]): { stop(): void } {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    sweepOnce(deps)
      .catch((err: unknown) => deps.log.warn({ err }, 'sweep failed'))
      .finally(() => {
        running = false;
      });
  }, deps.config.sweepIntervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
