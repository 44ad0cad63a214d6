import { UnrecoverableError } from 'bullmq';
import type { AgentName } from '@convo/contract';
import { SessionDraft } from './draft.js';
import { CORE_PRODUCT, type ProductHooks } from './product.js';
import type { Config } from '../config.js';
import { AppError, CancelledError, SystemError, toErrorJson } from '../errors.js';
import { createLiveChannel, type LiveChannel } from './live.js';
import type { Logger } from '../logger.js';
import type { RuntimeMetrics } from '../metrics/runtime-metrics.js';
import { StepJob, type AgentQueues } from '../queues/catalog.js';
import { commitStep, dispatchNext } from './commit.js';
import { event } from '@convo/contract';
import { NO_TOKENS } from '@convo/contract';
import type { RunStep } from '@convo/contract';
import type { Step } from '@convo/contract';
import type { CommitMode, LoadedSession, SessionStore, TurnRecord } from '../store/session-store.js';
import { plainTurnIntake, type StepHandler, type StepOutcome, type TurnIntake } from './step-handler.js';
import { extractTrace } from '../tracing/propagation.js';
import { ATTR, inSpan, SpanKind } from '../tracing/spans.js';

export type StepRunnerDeps<D extends SessionDraft = SessionDraft> = {
  agent: AgentName;
  handler: StepHandler<D>;
  /** The product whose sessions this worker runs (its draft, intake and repair); the core alone without one. */
  product?: ProductHooks<D>;
  store: SessionStore;
  queues: AgentQueues;
  config: Config;
  log: Logger;
  metrics?: RuntimeMetrics;
};

/** What runStep reads of a BullMQ job; `id` and `queueName` only label its span. */
export type JobLike = { data: unknown; attemptsMade: number; opts: { attempts?: number }; id?: string; queueName?: string };
export type StepRunResult = 'committed' | 'failed_turn' | 'stale' | 'gone';

const MAX_CONFLICT_RETRIES = 8;

/**
 * Runs one step job with exactly-once effect: reload the session, skip the job
 * if the session has moved past its step, run the agent, and commit state and
 * events with a compare-and-set. A duplicate delivery either finds the step
 * already done (stale) or loses the compare-and-set and re-reads.
 */
export async function runStep<D extends SessionDraft>(job: JobLike, deps: StepRunnerDeps<D>, signal?: AbortSignal): Promise<StepRunResult> {
  const parsed = StepJob.safeParse(job.data);
  if (!parsed.success) throw new UnrecoverableError(`invalid step payload: ${parsed.error.message}`);
  const payload = parsed.data;
  if (payload.agent !== deps.agent) throw new UnrecoverableError(`step for ${payload.agent} reached the ${deps.agent} worker`);
  // The step's span continues the trace the job was enqueued in: a child of the span that dispatched it.
  const attributes = {
    [ATTR.sessionId]: payload.sessionId,
    [ATTR.turnId]: payload.turnId,
    [ATTR.agent]: payload.agent,
    [ATTR.stepSeq]: payload.seq,
    [ATTR.jobVersion]: payload.v,
    [ATTR.messagingSystem]: 'bullmq',
    [ATTR.messagingOperationType]: 'process',
    [ATTR.messagingOperationName]: 'process',
    ...(job.queueName ? { [ATTR.messagingDestination]: job.queueName } : {}),
    ...(job.id ? { [ATTR.messagingMessageId]: job.id } : {}),
  };
  return inSpan(`step ${payload.agent}`, { kind: SpanKind.CONSUMER, parent: extractTrace(payload.trace), attributes }, async (span) => {
    const result = await runParsedStep(job, payload, deps, signal);
    span.setAttribute(ATTR.stepResult, result);
    return result;
  });
}

async function runParsedStep<D extends SessionDraft>(
  job: JobLike,
  payload: StepJob,
  deps: StepRunnerDeps<D>,
  signal?: AbortSignal,
): Promise<StepRunResult> {
  const log = deps.log.child({ sessionId: payload.sessionId, turnId: payload.turnId, seq: payload.seq });
  for (let i = 0; i < MAX_CONFLICT_RETRIES; i++) {
    let loaded = await deps.store.load(payload.sessionId);
    if (!loaded) return 'gone';
    const step = loaded.step;
    if (!step || step.seq !== payload.seq) {
      // A rerun after the commit but before the next dispatch: make sure that dispatch happened.
      if (step && step.seq > payload.seq) await dispatchNext(deps, payload.sessionId, payload.turnId, step);
      return 'stale';
    }
    if (isCancelled(loaded, step)) {
      if ((await failCancelled(deps, loaded, step)) === 'conflict') continue;
      return 'failed_turn';
    }
    // Read with the session: the turn as accepted (or as redacted when its first step began).
    const turn = loaded.stepTurn;
    if (loaded.state.startedTurnId !== step.turnId) {
      const begun = await beginTurn(deps, loaded, step, turn);
      if (!begun) continue;
      loaded = begun;
    }
    const result = await executeAndCommit(job, deps, loaded, step, turn, log, signal);
    if (result !== 'conflict') return result;
    log.debug('commit conflict, re-reading the session');
  }
  throw new SystemError(`session ${payload.sessionId}: too many concurrent commits`);
}

/**
 * The product's draft of a loaded state: `owned` when nobody else holds it (a fresh load), a copy otherwise.
 * Without a product, the core's draft (CORE_PRODUCT: the runtime's own tests).
 */
function draftOf<D extends SessionDraft>(deps: { product?: ProductHooks<D> }, loaded: LoadedSession, owned = true): D {
  return (deps.product ?? (CORE_PRODUCT as unknown as ProductHooks<D>)).draft(loaded.state, owned);
}

/** First step of a turn: record `turn.started` and the user's message, once. Returns the session as committed. */
async function beginTurn<D extends SessionDraft>(
  deps: StepRunnerDeps<D>,
  loaded: LoadedSession,
  step: Step,
  turn: TurnRecord | null,
): Promise<LoadedSession | null> {
  const draft = draftOf(deps, loaded);
  draft.beginTurn(step.turnId);
  if (turn?.message != null) {
    const { redactedMessage } = await (deps.product?.intake ?? (plainTurnIntake as TurnIntake<D>))(draft, turn.message, step.turnId);
    // The raw text must not outlive this step either.
    if (redactedMessage !== undefined) await deps.store.redactTurn(loaded.state.sessionId, step.turnId, redactedMessage);
  }
  const committed = await commitStep(deps, { loaded, step, draft, mode: 'none', keepRunSteps: false });
  if (!committed) return null;
  // The draft owns loaded.state (no copy) and has changed it in place.
  return {
    ...loaded,
    version: committed.version,
    state: loaded.state,
    lastEventId: loaded.lastEventId + draft.events.length,
    messageCount: loaded.state.messages.length,
  };
}

async function executeAndCommit<D extends SessionDraft>(
  job: JobLike,
  deps: StepRunnerDeps<D>,
  loaded: LoadedSession,
  step: Step,
  turnRecord: TurnRecord | null,
  log: Logger,
  signal?: AbortSignal,
): Promise<StepRunResult | 'conflict'> {
  const draft = draftOf(deps, loaded);
  const live = createLiveChannel(deps.store, loaded.state.sessionId, step.turnId, log);
  let outcome: StepOutcome;
  try {
    outcome =
      draft.state.status === 'submitted' || draft.state.status === 'failed'
        ? { kind: 'end' }
        : await deps.handler({
            draft,
            step,
            turn: { turnId: step.turnId, message: turnRecord?.message ?? null },
            turnOptions: turnRecord?.options ?? null,
            log,
            signal,
            live,
          });
  } catch (err) {
    // Read once: to see a cancel, and to fail the turn from the session as stored (the handler may have left the draft half-changed).
    const fresh = await deps.store.load(loaded.state.sessionId);
    // A cancel aborts the step's model call: whatever the error says, the turn ends as cancelled.
    if (fresh && isCancelled(fresh, step)) return failCancelled(deps, fresh, step, draft.runSteps, live.streamed);
    const finalAttempt = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
    const retryable = err instanceof AppError ? err.retryable : !(err instanceof UnrecoverableError);
    if (retryable && !finalAttempt) {
      log.warn({ err: toErrorJson(err), attempt: job.attemptsMade + 1 }, 'step failed, will retry');
      throw err;
    }
    log.error({ err: toErrorJson(err) }, 'step failed, failing the turn');
    if (!fresh || fresh.version !== loaded.version) return 'conflict';
    const failed = await failTurn(deps, fresh, step, err, draft.runSteps, live.streamed);
    if (failed === 'conflict') return 'conflict';
    observeTurn(deps, loaded, turnRecord, 'failed');
    return 'failed_turn';
  }
  const committed = await commitOutcome(deps, loaded, step, draft, outcome, log, live);
  // A cancel that arrived while the step ran makes its commit lose: the turn ends as cancelled, keeping the step's audit.
  if (committed === 'conflict') {
    const fresh = await deps.store.load(loaded.state.sessionId);
    return fresh && isCancelled(fresh, step) ? failCancelled(deps, fresh, step, draft.runSteps, live.streamed) : 'conflict';
  }
  if (committed === 'committed' && outcome.kind !== 'continue') observeTurn(deps, loaded, turnRecord, 'completed');
  return committed;
}

/** Whether a cancel of this step's turn is pending, with the step still the session's current one. */
function isCancelled(loaded: LoadedSession, step: Step): boolean {
  return loaded.cancelTurn === step.turnId && loaded.step?.seq === step.seq;
}

/** Ends the turn as cancelled, keeping what the step attempted in the audit and withdrawing what it streamed. */
async function failCancelled<D extends SessionDraft>(
  deps: StepRunnerDeps<D>,
  loaded: LoadedSession,
  step: Step,
  attempted: readonly RunStep[] = [],
  streamed: readonly string[] = [],
): Promise<'failed_turn' | 'conflict'> {
  const failed = await failTurn(deps, loaded, step, new CancelledError(), attempted, streamed);
  if (failed === 'failed_turn') deps.log.info({ sessionId: loaded.state.sessionId, turnId: step.turnId }, 'turn cancelled');
  return failed;
}

/** Turn latency as a client sees it: accepted by the gateway → ended (bootstrap runs have no accepted turn). */
function observeTurn<D extends SessionDraft>(
  deps: StepRunnerDeps<D>,
  loaded: LoadedSession,
  turn: TurnRecord | null,
  outcome: 'completed' | 'failed',
): void {
  if (!deps.metrics || !turn) return;
  const seconds = (Date.now() - Date.parse(turn.acceptedAt)) / 1000;
  if (Number.isFinite(seconds) && seconds >= 0) deps.metrics.turnDuration.observe({ kind: loaded.state.kind, outcome }, seconds);
}

async function commitOutcome<D extends SessionDraft>(
  deps: StepRunnerDeps<D>,
  loaded: LoadedSession,
  step: Step,
  draft: SessionDraft,
  outcome: StepOutcome,
  log: Logger,
  live: LiveChannel,
): Promise<StepRunResult | 'conflict'> {
  // Text streamed for a message that was not sent after all (a refused or unexecuted ask) is withdrawn.
  const unsent = live.streamed.filter((id) => !draft.state.messages.some((message) => message.messageId === id));
  if (unsent.length > 0) draft.emit(event('message.discarded', { turnId: step.turnId, messageIds: unsent }));
  let mode: CommitMode;
  if (outcome.kind === 'continue') {
    draft.setAgent(outcome.to);
    mode = 'continue';
  } else {
    draft.emit(
      event('turn.completed', {
        turnId: step.turnId,
        awaitingUserResponse: outcome.kind === 'await_user',
        usage: { ...(draft.state.turnUsage ?? NO_TOKENS) },
      }),
    );
    mode = 'end_turn';
  }
  const committed = await commitStep(deps, { loaded, step, draft, mode, nextAgent: outcome.kind === 'continue' ? outcome.to : undefined });
  if (!committed) return 'conflict';
  log.info({ outcome: outcome.kind, next: committed.next?.agent ?? null, events: draft.events.length }, 'step committed');
  return 'committed';
}

/**
 * What a failed turn leaves behind: no suspended loop, control back with the
 * agent that owns the conversation, and the product's part put in order by its
 * `repair` (what it means for a product's state to be mid-turn only it knows).
 */
export function resetAfterFailure<D extends SessionDraft>(draft: D, product?: ProductHooks<D>): void {
  const loop = draft.state.loop;
  if (loop) {
    draft.setLoop(null);
    draft.setAgent(loop.agent);
  }
  product?.repair?.(draft);
}

/**
 * Ends the turn with `turn.failed`, discarding the step's partial effects; the
 * session stays usable and the next queued turn starts.
 */
export async function failTurn<D extends SessionDraft>(
  deps: Pick<StepRunnerDeps<D>, 'store' | 'queues' | 'config' | 'product'>,
  loaded: LoadedSession,
  step: Step,
  err: unknown,
  attempted: readonly RunStep[] = [],
  streamed: readonly string[] = [],
): Promise<'failed_turn' | 'conflict'> {
  // A copy: the caller's loaded state stays as it was read.
  const draft = draftOf(deps, loaded, false);
  resetAfterFailure(draft, deps.product);
  const { code, message } = toErrorJson(err);
  // Text clients saw while the model wrote it is withdrawn: those messages will never be sent.
  if (streamed.length > 0) draft.emit(event('message.discarded', { turnId: step.turnId, messageIds: [...streamed] }));
  draft.emit(event('turn.failed', { turnId: step.turnId, error: { code, message } }));
  // The audit keeps what the failed step ran (marked discarded) and the failure itself.
  const now = draft.now();
  draft.runSteps.push(...attempted.map((run) => ({ ...run, discarded: true })), {
    runStepId: `rs-${step.seq}-failed`,
    turnId: step.turnId,
    agent: step.agent,
    toolName: 'turn.failed',
    input: null,
    output: { status: 'error', result: { message, code } },
    startedAt: now,
    finishedAt: now,
    discarded: true,
  });
  const committed = await commitStep(deps, { loaded, step, draft, mode: 'end_turn' });
  return committed ? 'failed_turn' : 'conflict';
}
