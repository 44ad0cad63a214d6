import type { AgentName } from '@convo/contract';
import type { Config } from '../config.js';
import { enqueueStep, type AgentQueues } from '../queues/catalog.js';
import type { Step } from '@convo/contract';
import type { CommitMode, LoadedSession, SessionStore } from '../store/session-store.js';
import { extractTrace } from '../tracing/propagation.js';
import { tracingEnabled } from '../tracing/setup.js';
import { ATTR, inSpan, withTraceContext } from '../tracing/spans.js';
import type { SessionDraft } from './draft.js';

export type CommitDeps = { store: SessionStore; queues: AgentQueues; config: Config };

/**
 * Hands the session's next step to its agent's queue. The job id is the
 * session and step number, so dispatching a step twice (a retried request, a
 * rerun after a crash between commit and dispatch) adds it once.
 */
export async function dispatch(deps: Omit<CommitDeps, 'store'>, sessionId: string, step: Step | null): Promise<void> {
  if (step) await enqueueStep(deps.queues, deps.config, sessionId, step);
}

/**
 * Dispatches the step that follows one of turn `turnId`. Within the turn the
 * job continues the active trace (the dispatching step's span). A step that
 * begins the next queued turn belongs to that turn's own trace: the one its
 * request was accepted in, kept with the turn record (read only when tracing
 * is on).
 */
export async function dispatchNext(deps: CommitDeps, sessionId: string, turnId: string, next: Step): Promise<void> {
  if (next.turnId === turnId || !tracingEnabled()) return dispatch(deps, sessionId, next);
  const turn = await deps.store.getTurn(sessionId, next.turnId);
  await withTraceContext(extractTrace(turn?.trace), () => dispatch(deps, sessionId, next));
}

/**
 * Commits what a step did to the session it loaded (state, events and run
 * steps, compare-and-set on the version and step), then dispatches the step
 * the commit started, if any: the one way a step's effects reach Redis.
 * Returns null when another commit came first.
 */
export async function commitStep(
  deps: CommitDeps,
  input: { loaded: LoadedSession; step: Step; draft: SessionDraft; mode: CommitMode; nextAgent?: AgentName; keepRunSteps?: boolean },
): Promise<{ version: number; next: Step | null } | null> {
  const { loaded, step, draft } = input;
  const sessionId = loaded.state.sessionId;
  const attributes = {
    [ATTR.sessionId]: sessionId,
    [ATTR.turnId]: step.turnId,
    [ATTR.stepSeq]: step.seq,
    [ATTR.commitMode]: input.mode,
    [ATTR.dbSystem]: 'redis',
  };
  const res = await inSpan('commit', { attributes }, async (span) => {
    const committed = await deps.store.commit({
      sessionId,
      expectedVersion: loaded.version,
      expectedSeq: step.seq,
      messagesBefore: loaded.messageCount,
      state: draft.state,
      mode: input.mode,
      nextAgent: input.nextAgent,
      events: draft.events,
      runSteps: input.keepRunSteps === false ? [] : draft.runSteps,
    });
    span.setAttributes({ [ATTR.commitOk]: committed.ok, [ATTR.commitEvents]: draft.events.length });
    return committed;
  });
  if (!res.ok) return null;
  // The sweeper's mark and the next job at the same time: their round trips overlap.
  if (res.step) await Promise.all([deps.store.markPending(sessionId), dispatchNext(deps, sessionId, step.turnId, res.step)]);
  return { version: res.version, next: res.step };
}
