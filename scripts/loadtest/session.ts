import { performance } from 'node:perf_hooks';
import { ApiError, createClient, describeError, newIdempotencyKey, type ConvoClient, type StreamEvent } from '@convo/client';
import type { LoadtestOptions } from './options.js';
import type { Scenario } from './scenarios.js';
import type { RunStats } from './stats.js';
import { StreamCheck } from './stream-check.js';
import { TurnEnds } from './turn-ends.js';

/** What every session of a run shares. Times are performance.now() values. */
export interface RunContext {
  options: LoadtestOptions;
  scenario: Scenario;
  stats: RunStats;
  /** No session and no turn starts after it (--duration, or earlier when the caller stops the run). */
  softDeadline: number;
  /** softDeadline + grace: every wait ends by then. */
  hardCutoff: number;
  /** Aborted at the hard cutoff, which cancels requests and waits still running. */
  hardSignal: AbortSignal;
}

type CreatedSession = { sessionId: string; token: string };

type PostOutcome<T> = { kind: 'answered'; value: T; startedAt: number } | { kind: 'shed' } | { kind: 'error'; message: string };

/**
 * The run's client: it retries nothing itself (one attempt per call), since
 * the run counts every shed answer and applies its own policy (--retry-shed).
 */
function clientOf(ctx: RunContext): ConvoClient {
  return createClient({ baseUrl: ctx.options.url, retry: { maxAttempts: 1 } });
}

/**
 * One session from creation to its last turn: create it, open its stream,
 * wait for the greeting (interviews), then post its turns one after another,
 * each after the previous one ended. Never throws: every problem is counted
 * in `ctx.stats`. A turn that does not end in time stops the session, since
 * the turns behind it would only queue behind it.
 */
export async function runSession(ctx: RunContext): Promise<void> {
  const client = clientOf(ctx);
  const session = await createSession(ctx, client);
  if (session === null) return;
  const check = new StreamCheck();
  const ends = new TurnEnds();
  const stream = client.sessions.events(session.sessionId, { token: session.token, signal: ctx.hardSignal });
  const reading = (async () => {
    try {
      for await (const ev of stream) onStreamEvent(ctx, check, ends, ev);
    } catch (err) {
      ctx.stats.error(`GET /v1/sessions/:id/events: ${describeError(err)}`);
      ends.fail(err instanceof Error ? err : new Error(String(err)));
    }
  })();
  try {
    if (ctx.scenario.hasGreeting && !(await awaitGreeting(ctx, ends))) return;
    for (let i = 0; i < ctx.options.turns && performance.now() < ctx.softDeadline; i++) {
      if (!(await runTurn(ctx, client, session, ends, i))) return;
    }
  } finally {
    stream.close();
    await reading;
    ctx.stats.addStream(check, stream);
  }
}

function onStreamEvent(ctx: RunContext, check: StreamCheck, ends: TurnEnds, ev: StreamEvent): void {
  const at = performance.now();
  check.observe(ev.id, ev.type);
  if (ev.type !== 'turn.completed' && ev.type !== 'turn.failed') return;
  // The client does not validate event data: a server that left the turnId out is caught here.
  const turnId: unknown = ev.data.turnId;
  if (typeof turnId !== 'string') {
    ctx.stats.error(`a ${ev.type} event without a turnId (id ${ev.id})`);
    return;
  }
  ends.record(turnId, { at, failed: ev.type === 'turn.failed' });
}

async function createSession(ctx: RunContext, client: ConvoClient): Promise<CreatedSession | null> {
  const { stats } = ctx;
  const route = 'POST /v1/sessions';
  const outcome = await post(
    ctx,
    route,
    (signal) => client.sessions.create(ctx.scenario.createBody, { signal }),
    () => stats.sessionsShed++,
  );
  if (outcome.kind !== 'answered') {
    if (outcome.kind === 'error') stats.error(outcome.message);
    return null;
  }
  const { sessionId, token } = outcome.value;
  if (typeof sessionId !== 'string' || typeof token !== 'string') {
    stats.error(`${route} answered 201 without sessionId and token`);
    return null;
  }
  stats.sessionsCreated++;
  return { sessionId, token };
}

/** The greeting run is not a measured turn, but one that never ends counts as unfinished. */
async function awaitGreeting(ctx: RunContext, ends: TurnEnds): Promise<boolean> {
  const timeoutMs = Math.min(performance.now() + ctx.options.turnTimeoutMs, ctx.hardCutoff) - performance.now();
  const end = await ends.wait(null, timeoutMs, ctx.hardSignal);
  if (end.kind === 'ended') return true;
  if (end.kind === 'timeout') ctx.stats.unfinished++;
  return false;
}

/** Posts turn `index` and waits for its end; false when the session should stop. */
async function runTurn(ctx: RunContext, client: ConvoClient, session: CreatedSession, ends: TurnEnds, index: number): Promise<boolean> {
  const { stats } = ctx;
  const route = 'POST /v1/sessions/:id/turns';
  // One key for the turn: a retry after a shed answer is the same turn, never a second one.
  const turn = { message: ctx.scenario.message(index), idempotencyKey: newIdempotencyKey() };
  const outcome = await post(
    ctx,
    route,
    (signal) => client.sessions.postTurn(session.sessionId, turn, { token: session.token, signal }),
    (status) => stats.shed[status]++,
  );
  if (outcome.kind !== 'answered') {
    if (outcome.kind === 'error') stats.error(outcome.message);
    return true; // shed or failed: move on to the next turn
  }
  const { turnId } = outcome.value;
  if (typeof turnId !== 'string') {
    stats.error(`${route} answered 202 without a turnId`);
    return false; // nothing to wait for, and the next turn would queue behind it
  }
  stats.accepted++;
  const timeoutMs = Math.min(outcome.startedAt + ctx.options.turnTimeoutMs, ctx.hardCutoff) - performance.now();
  const end = await ends.wait(turnId, timeoutMs, ctx.hardSignal);
  if (end.kind !== 'ended') {
    stats.unfinished++;
    return false;
  }
  stats.turnEnded(outcome.startedAt, end.at, end.failed);
  return true;
}

/**
 * One call with the run's shed policy: a 429/503 is counted through `onShed`
 * and, with --retry-shed, retried once after its Retry-After if that still
 * falls before the deadline. `startedAt` is taken just before the attempt
 * that got the answer, so it is where a turn's latency starts.
 */
async function post<T>(
  ctx: RunContext,
  route: string,
  call: (signal: AbortSignal) => Promise<T>,
  onShed: (status: 429 | 503) => void,
): Promise<PostOutcome<T>> {
  for (let attempt = 0; ; attempt++) {
    const startedAt = performance.now();
    try {
      const signal = AbortSignal.any([ctx.hardSignal, AbortSignal.timeout(ctx.options.turnTimeoutMs)]);
      return { kind: 'answered', value: await call(signal), startedAt };
    } catch (err) {
      if (!(err instanceof ApiError) || (err.status !== 429 && err.status !== 503)) {
        const answered = err instanceof ApiError && err.status !== 0;
        return { kind: 'error', message: answered ? `${route} answered ${err.status} ${err.code}` : `${route}: ${describeError(err)}` };
      }
      onShed(err.status);
      if (!ctx.options.retryShed || attempt > 0) return { kind: 'shed' };
      const waitMs = err.retryAfterMs ?? 1000;
      if (performance.now() + waitMs >= ctx.softDeadline || !(await pause(waitMs, ctx.hardSignal))) return { kind: 'shed' };
    }
  }
}

/** Waits `ms` as the server asked (Retry-After); false when the run was cut short meanwhile. */
function pause(ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
