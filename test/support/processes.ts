import { spawn, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { appendFileSync, existsSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { buildAll, serviceArgs, serviceEntry } from '../../scripts/build/compile.js';
import { acquireStartSlot } from './start-slots.js';

/**
 * Runs services as real, separate processes for integration tests, exactly as
 * `npm start` does: their compiled JavaScript, `node --conditions=compiled
 * services/<name>/dist/main.js` (scripts/build/compile.ts; vitest's global setup builds it
 * before any test runs). A service is ready when it logs a JSON line with `msg: "ready"`;
 * the gateway's carries `port`.
 *
 * Readiness is awaited, not guessed: a start waits for that line for up to
 * SERVICE_READY_TIMEOUT_MS (default 120 s, far above what a start costs even on a
 * loaded 2-core machine, so only a hung or broken start hits it), and fails at once
 * when the process exits first. A start first takes one of the run's
 * SERVICE_START_CONCURRENCY start slots (default: the machine's cores; see
 * start-slots.ts), in the order they were asked for. The tests, the bench, the
 * chaos run and the forms eval all start services here.
 */

/** Repo root, found from this file so tests work from any cwd. */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

export const DEFAULT_AGENTS = ['greeter', 'architect', 'interviewer', 'reviewer'] as const;

/**
 * The per-client limits off: every request of a test harness, the bench, the
 * chaos run or an eval comes from 127.0.0.1, so one "client" is all of them.
 * The operator key opens /metrics for the harnesses that read it.
 */
export const HARNESS_ENV = {
  RATE_LIMIT_MAX: '0',
  CLIENT_MAX_SESSIONS: '0',
  CLIENT_MAX_WORKSHEETS: '0',
  CLIENT_MAX_STREAMS: '0',
  OPERATOR_KEY: 'harness-operator-key-0123456789abcdef',
} as const;

/** One parsed pino line; `raw` keeps non-JSON output (stack traces, tsx errors). */
export type LogLine = { raw: string; json: Record<string, unknown> | undefined };

export interface ServiceProcess {
  name: string;
  pid: number;
  /** Set from the `ready` line when it carries one (the gateway's does). */
  port?: number;
  /** Every stdout and stderr line so far, in arrival order. */
  lines: string[];
  /** Resolves with the exit code (null when ended by a signal). */
  exited: Promise<number | null>;
  /** undefined while the process runs; then its exit code (null when ended by a signal). */
  readonly exitCode: number | null | undefined;
  /** Sends `signal` (SIGTERM by default) and waits for exit; SIGKILL after `graceMs`. */
  kill(signal?: NodeJS.Signals, graceMs?: number): Promise<void>;
  /**
   * Resolves with the first line (already seen or future) matching `match`;
   * rejects on exit or after `timeoutMs`. Lets tests wait on a log event, not a sleep.
   */
  waitForLine(match: (line: LogLine) => boolean, timeoutMs?: number): Promise<LogLine>;
}

export interface StartServiceOptions {
  /** How long to wait for `ready` once the process is spawned (default: serviceReadyTimeoutMs()). */
  readyTimeoutMs?: number;
}

const DEFAULT_READY_TIMEOUT_MS = 120_000;

/** The bound on one start: SERVICE_READY_TIMEOUT_MS, else 120 s. */
export function serviceReadyTimeoutMs(env: NodeJS.ProcessEnv = process.env): number {
  return positiveInt(env.SERVICE_READY_TIMEOUT_MS, 'SERVICE_READY_TIMEOUT_MS') ?? DEFAULT_READY_TIMEOUT_MS;
}

function positiveInt(raw: string | undefined, name: string): number | undefined {
  if (raw === undefined || raw === '') return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive integer, got ${JSON.stringify(raw)}`);
  return value;
}

/**
 * With SERVICE_START_LOG set to a file, every start appends one JSON line
 * (service, ms, ok) to it; the test run's global setup sets it and prints a
 * summary at the end, so a run says what a start cost on its machine.
 */
function recordStart(name: string, ms: number, ok: boolean, prefix?: string): void {
  const file = process.env.SERVICE_START_LOG;
  if (!file) return;
  try {
    mkdirSync(dirname(file), { recursive: true });
    appendFileSync(file, `${JSON.stringify({ service: name, ms: Math.round(ms), ok, prefix })}\n`);
  } catch {
    // The record is a report, not part of the test: never fail a start over it.
  }
}

/** How many of a failed start's last output lines its error shows. */
const OUTPUT_TAIL_LINES = 60;

/** Set TEST_SERVICE_LOGS=1 to see every service's output while debugging a test. */
const ECHO = process.env.TEST_SERVICE_LOGS === '1';

/** Every process started here, so a crashing test runner still takes them down. */
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

export function parseLine(raw: string): LogLine {
  if (!raw.startsWith('{')) return { raw, json: undefined };
  try {
    const json: unknown = JSON.parse(raw);
    return { raw, json: typeof json === 'object' && json !== null ? (json as Record<string, unknown>) : undefined };
  } catch {
    return { raw, json: undefined };
  }
}

/**
 * Starts `services/<name>/dist/main.js` with process.env plus `env`; resolves once it
 * logs `ready`. Waits for a start slot first (see the gate above); the ready bound
 * counts from the spawn, not from the wait for a slot.
 */
export async function startService(name: string, env: Record<string, string>, opts: StartServiceOptions = {}): Promise<ServiceProcess> {
  const timeoutMs = opts.readyTimeoutMs ?? serviceReadyTimeoutMs();
  await builtOnce();
  const release = await acquireStartSlot();
  try {
    return await spawnUntilReady(name, env, timeoutMs);
  } finally {
    release();
  }
}

let building: Promise<unknown> | undefined;

/**
 * The services' JavaScript as of the sources now: built once per process by the bench, the chaos
 * run and the evals; a test run's global setup has built it already (SERVICES_BUILT), so its test
 * files, running side by side, never rewrite dist/ under each other's starts.
 */
function builtOnce(): Promise<unknown> {
  if (process.env.SERVICES_BUILT === '1') return Promise.resolve();
  building ??= buildAll();
  return building;
}

async function spawnUntilReady(name: string, env: Record<string, string>, timeoutMs: number): Promise<ServiceProcess> {
  // SERVICE_NODE_ARGS: extra Node flags for every service, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to profile a bench run.
  const nodeArgs = (process.env.SERVICE_NODE_ARGS ?? '').split(' ').filter(Boolean);
  if (!existsSync(serviceEntry(name))) throw new Error(`${name} is not built: ${serviceEntry(name)} is missing (npm run build)`);
  const started = performance.now();
  const child = spawn(process.execPath, [...nodeArgs, ...serviceArgs(name)], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (child.pid === undefined) throw new Error(`could not spawn ${name}`);
  running.add(child);
  const proc = wrap(name, child, child.pid);
  try {
    const ready = await proc.waitForLine((l) => l.json?.msg === 'ready', timeoutMs);
    recordStart(name, performance.now() - started, true, env.KEY_PREFIX);
    const port = ready.json?.port;
    if (typeof port === 'number') proc.port = port;
    return proc;
  } catch (err) {
    const elapsed = Math.round(performance.now() - started);
    recordStart(name, elapsed, false, env.KEY_PREFIX);
    const state = child.exitCode !== null || child.signalCode !== null ? 'it exited' : 'it was still running';
    await proc.kill('SIGKILL');
    const tail = proc.lines.slice(-OUTPUT_TAIL_LINES);
    const omitted = proc.lines.length - tail.length;
    throw new Error(
      `${name} did not become ready: ${(err as Error).message}; ${state} ${elapsed} ms after it was spawned ` +
        `(bound: ${timeoutMs} ms, SERVICE_READY_TIMEOUT_MS)\n--- ${name} output${omitted > 0 ? ` (last ${tail.length} of ${proc.lines.length} lines)` : ''} ---\n${tail.join('\n')}`,
    );
  }
}

function wrap(name: string, child: ChildProcess, pid: number): ServiceProcess {
  const lines: string[] = [];
  const events = new EventEmitter();
  const onLine = (raw: string) => {
    lines.push(raw);
    if (ECHO) process.stderr.write(`[${name}] ${raw}\n`);
    events.emit('line', parseLine(raw));
  };
  if (child.stdout) createInterface({ input: child.stdout }).on('line', onLine);
  if (child.stderr) createInterface({ input: child.stderr }).on('line', onLine);

  let exitCode: number | null | undefined;
  const exited = new Promise<number | null>((resolveExit) => {
    child.once('exit', (code) => {
      running.delete(child);
      exitCode = code;
      // Let readline deliver the last buffered lines before waiters hear about the exit.
      setImmediate(() => {
        events.emit('exit', code);
        resolveExit(code);
      });
    });
  });

  const proc: ServiceProcess = {
    name,
    pid,
    lines,
    exited,
    get exitCode() {
      return exitCode;
    },
    async kill(signal = 'SIGTERM', graceMs = 15_000) {
      if (exitCode === undefined) {
        child.kill(signal);
        const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
        await exited;
        clearTimeout(timer);
      }
      await exited;
    },
    waitForLine(match, timeoutMs = 30_000) {
      return waitForLine(lines, events, () => exitCode, match, timeoutMs);
    },
  };
  return proc;
}

function waitForLine(
  lines: readonly string[],
  events: EventEmitter,
  exitCode: () => number | null | undefined,
  match: (line: LogLine) => boolean,
  timeoutMs: number,
): Promise<LogLine> {
  const seen = lines.map(parseLine).find(match);
  if (seen) return Promise.resolve(seen);
  if (exitCode() !== undefined) return Promise.reject(new Error(`exited with code ${exitCode()}`));
  return new Promise((resolveLine, reject) => {
    const onLine = (line: LogLine) => {
      if (!match(line)) return;
      cleanup();
      resolveLine(line);
    };
    const onExit = (code: number | null) => {
      cleanup();
      reject(new Error(`exited with code ${code}`));
    };
    const timer = setTimeout(() => {
      cleanup();
      reject(new Error(`no matching line after ${timeoutMs} ms`));
    }, timeoutMs);
    const cleanup = () => {
      clearTimeout(timer);
      events.off('line', onLine);
      events.off('exit', onExit);
    };
    events.on('line', onLine);
    events.once('exit', onExit);
  });
}

export interface Stack {
  /** Base URL of the gateway, e.g. `http://127.0.0.1:41234`. */
  url: string;
  procs: Record<string, ServiceProcess>;
  /** SIGTERMs every process and waits for all of them to exit. */
  stop(): Promise<void>;
  /**
   * Stops the gateway (SIGTERM, as a deploy does) and starts a new one on the
   * same port, so clients see a dropped connection and then the same URL again.
   */
  restartGateway(): Promise<void>;
}

export interface StartStackOptions {
  /** Given to every process; REDIS_URL defaults to TEST_REDIS_URL from the global setup. */
  env: Record<string, string>;
  /** Agent services besides the gateway (default: greeter, architect, interviewer, reviewer). */
  services?: string[];
  readyTimeoutMs?: number;
}

/**
 * Starts the gateway (PORT=0, loopback only) and the agents, through the start
 * gate in that order. If any of them fails to start, the ones that did are
 * stopped before the error is thrown.
 */
export async function startStack(opts: StartStackOptions): Promise<Stack> {
  const redisUrl = opts.env.REDIS_URL ?? process.env.TEST_REDIS_URL;
  const env = { ...(redisUrl === undefined ? {} : { REDIS_URL: redisUrl }), ...opts.env };
  const names = ['gateway', ...(opts.services ?? DEFAULT_AGENTS)];
  const startOpts = { readyTimeoutMs: opts.readyTimeoutMs };
  const results = await Promise.allSettled(
    names.map((name) => startService(name, name === 'gateway' ? { ...env, PORT: '0', HOST: '127.0.0.1' } : env, startOpts)),
  );
  const procs: Record<string, ServiceProcess> = {};
  const errors: unknown[] = [];
  results.forEach((r, i) => (r.status === 'fulfilled' ? (procs[names[i] ?? ''] = r.value) : errors.push(r.reason)));
  const stop = async () => void (await Promise.all(Object.values(procs).map((p) => p.kill())));
  const gateway = procs.gateway;
  if (errors.length > 0 || gateway?.port === undefined) {
    await stop();
    if (errors.length === 0) errors.push(new Error('gateway logged ready without a port'));
    throw new AggregateError(errors, errors.map((e) => (e as Error).message).join('\n\n'));
  }
  const port = gateway.port;
  const restartGateway = async () => {
    await procs.gateway?.kill();
    procs.gateway = await startService('gateway', { ...env, PORT: String(port), HOST: '127.0.0.1' }, startOpts);
  };
  return { url: `http://127.0.0.1:${port}`, procs, stop, restartGateway };
}
