import { performance } from 'node:perf_hooks';
import { describeError, errorCode, postJson, type JsonResponse } from './http.js';
import type { LoadtestOptions } from './options.js';
import type { Scenario } from './scenarios.js';
import type { SseMessage } from '../client/sse-parser.js';
import { SseReader } from '../client/sse-reader.js';
import type { RunStats } from './stats.js';
import { StreamCheck } from './stream-check.js';
import { TurnEnds } from './turn-ends.js';

/** What every session of a run shares. Times are performance.now() values. */
export interface RunContext {
  options: LoadtestOptions;
  scenario: Scenario;
  stats: RunStats;
  /** No session and no turn starts after it (--duration). */
  softDeadline: number;
  /** softDeadline + grace: every wait ends by then. */
  hardCutoff: number;
  /** Aborted at the hard cutoff, which cancels requests and waits still running. */
  hardSignal: AbortSignal;
}

type CreatedSession = { sessionId: string; token: string };

type PostOutcome =
  | { kind: 'answered'; res: JsonResponse; startedAt: number }
  | { kind: 'shed' }
  | { kind: 'error'; message: string };

/**
 * One session from creation to its last turn: create it, open its stream,
 * wait for the greeting (interviews), then post its turns one after another,
 * each after the previous one ended. Never throws: every problem is counted
 * in `ctx.stats`. A turn that does not end in time stops the session, since
 * the turns behind it would only queue behind it.
 */
export async function runSession(ctx: RunContext): Promise<void> {
  const session = await createSession(ctx);
  if (session === null) return;
  const check = new StreamCheck();
  const ends = new TurnEnds();
  const reader = new SseReader({
    url: `${ctx.options.url}/v1/sessions/${encodeURIComponent(session.sessionId)}/events`,
    token: session.token,
    resumeFrom: () => check.lastId,
    onEvent: (message) => onStreamEvent(ctx, check, ends, message),
    onFatal: (error) => {
      ctx.stats.error(`GET /v1/sessions/:id/events: ${error.message}`);
      ends.fail(error);
    },
  });
  reader.start();
  try {
    if (ctx.scenario.hasGreeting && !(await awaitGreeting(ctx, ends))) return;
    for (let i = 0; i < ctx.options.turns && performance.now() < ctx.softDeadline; i++) {
      if (!(await runTurn(ctx, session, ends, i))) return;
    }
  } finally {
    reader.close();
    ctx.stats.addStream(check, reader.reconnects);
  }
}

function onStreamEvent(ctx: RunContext, check: StreamCheck, ends: TurnEnds, message: SseMessage): void {
  const at = performance.now();
  check.observe(message.id, message.type);
  if (message.type !== 'turn.completed' && message.type !== 'turn.failed') return;
  let turnId: unknown;
  try {
    turnId = (JSON.parse(message.data) as Record<string, unknown>).turnId;
  } catch {
    turnId = undefined;
  }
  if (typeof turnId !== 'string') {
    ctx.stats.error(`a ${message.type} event without a turnId (id ${message.id})`);
    return;
  }
  ends.record(turnId, { at, failed: message.type === 'turn.failed' });
}

async function createSession(ctx: RunContext): Promise<CreatedSession | null> {
  const { stats } = ctx;
  const outcome = await post(ctx, '/v1/sessions', 'POST /v1/sessions', ctx.scenario.createBody, undefined, () => stats.sessionsShed++);
  if (outcome.kind !== 'answered') {
    if (outcome.kind === 'error') stats.error(outcome.message);
    return null;
  }
  const { status, body } = outcome.res;
  if (status !== 201 || typeof body.sessionId !== 'string' || typeof body.token !== 'string') {
    stats.error(`POST /v1/sessions answered ${status} ${status === 201 ? 'without sessionId and token' : errorCode(body)}`.trim());
    return null;
  }
  stats.sessionsCreated++;
  return { sessionId: body.sessionId, token: body.token };
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
async function runTurn(ctx: RunContext, session: CreatedSession, ends: TurnEnds, index: number): Promise<boolean> {
  const { stats } = ctx;
  const path = `/v1/sessions/${encodeURIComponent(session.sessionId)}/turns`;
  const route = 'POST /v1/sessions/:id/turns';
  const outcome = await post(ctx, path, route, { message: ctx.scenario.message(index) }, session.token, (status) => stats.shed[status]++);
  if (outcome.kind !== 'answered') {
    if (outcome.kind === 'error') stats.error(outcome.message);
    return true; // shed or failed: move on to the next turn
  }
  const { status, body } = outcome.res;
  if (status !== 202) {
    stats.error(`${route} answered ${status} ${errorCode(body)}`.trim());
    return true;
  }
  if (typeof body.turnId !== 'string') {
    stats.error(`${route} answered 202 without a turnId`);
    return false; // nothing to wait for, and the next turn would queue behind it
  }
  stats.accepted++;
  const timeoutMs = Math.min(outcome.startedAt + ctx.options.turnTimeoutMs, ctx.hardCutoff) - performance.now();
  const end = await ends.wait(body.turnId, timeoutMs, ctx.hardSignal);
  if (end.kind !== 'ended') {
    stats.unfinished++;
    return false;
  }
  stats.turnEnded(outcome.startedAt, end.at, end.failed);
  return true;
}

/**
 * POSTs with the run's shed policy: a 429/503 is counted through `onShed`
 * and, with --retry-shed, retried once after its Retry-After if that still
 * falls before the deadline. `startedAt` is taken just before the POST that
 * got the answer, so it is where a turn's latency starts.
 */
async function post(
  ctx: RunContext,
  path: string,
  route: string,
  body: unknown,
  token: string | undefined,
  onShed: (status: 429 | 503) => void,
): Promise<PostOutcome> {
  for (let attempt = 0; ; attempt++) {
    const startedAt = performance.now();
    let res: JsonResponse;
    try {
      const signal = AbortSignal.any([ctx.hardSignal, AbortSignal.timeout(ctx.options.turnTimeoutMs)]);
      res = await postJson(`${ctx.options.url}${path}`, body, { token, signal });
    } catch (err) {
      return { kind: 'error', message: `${route}: ${describeError(err)}` };
    }
    if (res.status !== 429 && res.status !== 503) return { kind: 'answered', res, startedAt };
    onShed(res.status);
    if (!ctx.options.retryShed || attempt > 0) return { kind: 'shed' };
    const waitMs = (res.retryAfterS ?? 1) * 1000;
    if (performance.now() + waitMs >= ctx.softDeadline || !(await pause(waitMs, ctx.hardSignal))) return { kind: 'shed' };
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
