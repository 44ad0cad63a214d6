/**
 * The load generator behind `npm run loadtest`: real HTTP + SSE clients
 * against a running gateway, measuring the public contract (docs/api.md,
 * "2. Sessions and turns") from outside. Decisions where the issue left room:
 *
 * - Target: loopback only (127.0.0.1, ::1, localhost over plain http), for the
 *   CLI and in-process callers alike; anything else is a UsageError (exit 2).
 *   Before the first session, GET /healthz must get any HTTP answer, so a
 *   wrong port fails fast (UnreachableError, exit 1) instead of reporting a
 *   run of errors.
 * - Sessions: POST /v1/sessions with the example form of the kind (faq: no
 *   form), then the stream with `Authorization: Bearer`. Interviews wait for
 *   the greeting run's end before the first user turn; the greeting is not
 *   measured, but one that never ends counts as `unfinished`.
 * - Turns: T per session, strictly one after another; C sessions at once
 *   from a pool of N. A 202 is accepted; 429/503 is shed (counted by status,
 *   the session moves on to its next turn; --retry-shed retries once after
 *   Retry-After if that falls before the deadline); any other answer or a
 *   network failure is an error. Shed session creations count in
 *   `sessionsShed` and that session is skipped.
 * - Latency: performance.now() just before the POST that was accepted, to the
 *   parse of that turnId's turn.completed/turn.failed on the stream. The end
 *   event may arrive before the 202 is read; it is matched by turnId anyway.
 *   `turnsPerSecond` is turn.completed count / the run's wall time.
 * - Bounds: --duration (default 60 s), or an in-process caller's `stop`
 *   signal, whichever comes first, stops new sessions and turns; accepted
 *   turns then get --grace (default 10 s) to end, after which every request
 *   and wait is aborted. Each turn (and greeting) may take --turn-timeout
 *   (default 30 s) from its POST; one that does not end is `unfinished` and
 *   stops its session, since later turns would only queue behind it.
 *   sessions × turns ≤ 1,000,000 bounds the latency samples kept in memory.
 * - Streams: counters and the last id only, never the events (StreamCheck).
 *   A dropped stream reconnects with Last-Event-ID; `reconnects` counts
 *   connections re-established; `resync` events count apart and move the
 *   baseline. A session's stream is closed once its last turn has ended.
 * - Sessions are left on the server (they expire with SESSION_TTL_SECONDS):
 *   deleting them would add load that the run does not measure.
 * - Result: `ok` is exactly lost == duplicated == outOfOrder == unfinished
 *   == 0; errors and shed turns are reported but do not decide `ok`.
 */
import { setMaxListeners } from 'node:events';
import { performance } from 'node:perf_hooks';
import { assertReachable, describeError } from './http.js';
import { resolveOptions, type LoadtestInput } from './options.js';
import { buildReport, type LoadtestReport } from './report.js';
import { scenarioFor } from './scenarios.js';
import { runSession, type RunContext } from './session.js';
import { RunStats } from './stats.js';

export type { LoadtestReport } from './report.js';
export type { LoadtestInput, LoadtestOptions } from './options.js';

/** What an in-process caller (the chaos run) adds: a callback per ended turn, and a signal that ends the run early. */
export type LoadtestHooks = { onTurnEnded?: RunStats['onTurnEnded']; stop?: AbortSignal };

/**
 * Runs one load test and resolves with its report; always ends by
 * duration + grace (or by `hooks.stop` + grace). Throws UsageError for bad
 * options (including a non-loopback url) and UnreachableError when the
 * gateway does not answer.
 */
export async function runLoadtest(input: LoadtestInput, hooks: LoadtestHooks = {}): Promise<LoadtestReport> {
  const options = resolveOptions(input);
  const scenario = scenarioFor(options.kind);
  await assertReachable(options.url);

  const stats = new RunStats();
  stats.onTurnEnded = hooks.onTurnEnded;
  const startedAt = performance.now();
  const softDeadline = startedAt + options.durationMs;
  const hardCutoff = softDeadline + options.graceMs;
  const hard = new AbortController();
  // Each running session listens on it once at most (a turn wait or a Retry-After pause).
  setMaxListeners(options.concurrency + 10, hard.signal);
  let cutoffTimer = setTimeout(() => hard.abort(), hardCutoff - startedAt);
  const ctx: RunContext = { options, scenario, stats, softDeadline, hardCutoff, hardSignal: hard.signal };
  const stopEarly = () => {
    const now = performance.now();
    if (now >= ctx.softDeadline) return;
    ctx.softDeadline = now;
    ctx.hardCutoff = now + options.graceMs;
    clearTimeout(cutoffTimer);
    cutoffTimer = setTimeout(() => hard.abort(), options.graceMs);
  };
  if (hooks.stop?.aborted) stopEarly();
  hooks.stop?.addEventListener('abort', stopEarly, { once: true });

  let started = 0;
  const worker = async () => {
    while (started < options.sessions && performance.now() < ctx.softDeadline) {
      started++;
      try {
        await runSession(ctx);
      } catch (err) {
        stats.error(`session stopped unexpectedly: ${describeError(err)}`); // runSession counts its own problems; a bug lands here
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: options.concurrency }, worker));
  } finally {
    clearTimeout(cutoffTimer);
    hooks.stop?.removeEventListener('abort', stopEarly);
    hard.abort();
  }
  return buildReport(options, stats, performance.now() - startedAt);
}
