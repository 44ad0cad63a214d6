import type { AgentName } from '../agents-list.js';
import type { Config } from '../config.js';
import { enqueueStep, type AgentQueues } from '../queues/catalog.js';
import type { Step } from '../schemas/session.js';
import type { CommitMode, LoadedSession, SessionStore } from '../store/session-store.js';
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
  const res = await deps.store.commit({
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
  if (!res.ok) return null;
  // The sweeper's mark and the next job at the same time: their round trips overlap.
  if (res.step) await Promise.all([deps.store.markPending(sessionId), dispatch(deps, sessionId, res.step)]);
  return { version: res.version, next: res.step };
}
