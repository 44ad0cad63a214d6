import { parseArgs } from 'node:util';
import { UsageError } from './errors.js';

/** Session kinds of docs/api.md, "2. Sessions and turns", the load generator can drive. */
export const KINDS = ['form', 'application', 'faq'] as const;
export type SessionKind = (typeof KINDS)[number];

/** Hosts a run may target: the generator must never load a machine other than this one. */
export const LOOPBACK_HOSTS = ['127.0.0.1', '[::1]', 'localhost'] as const;

/** A fully validated run; build one with {@link resolveOptions}. */
export interface LoadtestOptions {
  kind: SessionKind;
  /** Base URL of the gateway, without a trailing slash; always loopback. */
  url: string;
  /** Sessions to run in total. */
  sessions: number;
  /** Sessions running at once (never more than `sessions`). */
  concurrency: number;
  /** User turns each session posts, one after another. */
  turns: number;
  /** Wall-time cap: no session or turn starts after it. */
  durationMs: number;
  /** How long one turn (or a greeting) may take from its POST to its end event. */
  turnTimeoutMs: number;
  /** After `durationMs`, how long turns already accepted may still take to end. */
  graceMs: number;
  /** Retry a shed request (429/503) once, after its Retry-After. */
  retryShed: boolean;
}

/** What an in-process caller passes: `kind` and `url` at least, the rest defaults. */
export type LoadtestInput = Partial<LoadtestOptions> & Pick<LoadtestOptions, 'kind' | 'url'>;

export const DEFAULTS = {
  url: 'http://127.0.0.1:8080',
  sessions: 10,
  concurrency: 5,
  turns: 5,
  durationMs: 60_000,
  turnTimeoutMs: 30_000,
  graceMs: 10_000,
  retryShed: false,
} as const;

/** Upper bounds that keep every run finite in time and memory (one latency sample per turn). */
export const LIMITS = {
  sessions: 100_000,
  concurrency: 1_000,
  turns: 1_000,
  totalTurns: 1_000_000,
  seconds: 3_600,
} as const;

export const USAGE = `Usage: npm run loadtest -- --kind form|application|faq [options]

Drives real HTTP + SSE sessions against a running gateway (loopback only) and
reports accepted/shed turns, turn latency, throughput and event-stream integrity.

Options:
  --kind K            form | application | faq (required)
  --sessions N        sessions in total (default ${DEFAULTS.sessions}, max ${LIMITS.sessions})
  --concurrency C     sessions at once (default ${DEFAULTS.concurrency}, capped at --sessions)
  --turns T           user turns per session (default ${DEFAULTS.turns}, max ${LIMITS.turns})
  --duration S        wall-time cap in seconds (default ${DEFAULTS.durationMs / 1000})
  --turn-timeout S    per-turn wait for turn.completed/turn.failed (default ${DEFAULTS.turnTimeoutMs / 1000})
  --grace S           extra time for accepted turns after --duration (default ${DEFAULTS.graceMs / 1000})
  --url U             gateway base URL (default ${DEFAULTS.url}); host must be 127.0.0.1, ::1 or localhost
  --retry-shed        retry a 429/503 once after its Retry-After (default: count it and move on)
  --json              print one JSON object instead of the table
  -h, --help          print this help

Exit codes: 0 all streams intact and every accepted turn ended; 1 otherwise
(or the gateway is unreachable); 2 bad arguments.`;

/** What the command line asks for. */
export type CliCommand = { help: true } | { help: false; json: boolean; options: LoadtestOptions };

/** Parses `process.argv.slice(2)`; throws {@link UsageError} on anything it cannot run. */
export function parseCli(argv: string[]): CliCommand {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        kind: { type: 'string' },
        sessions: { type: 'string' },
        concurrency: { type: 'string' },
        turns: { type: 'string' },
        duration: { type: 'string' },
        'turn-timeout': { type: 'string' },
        grace: { type: 'string' },
        url: { type: 'string' },
        'retry-shed': { type: 'boolean' },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
  if (values.help === true) return { help: true };
  if (values.kind === undefined) throw new UsageError('--kind is required (form, application or faq)');
  const seconds = (flag: string, raw: string | undefined) => (raw === undefined ? undefined : positiveSeconds(flag, raw) * 1000);
  const options = resolveOptions({
    kind: parseKind(values.kind),
    url: values.url ?? DEFAULTS.url,
    sessions: values.sessions === undefined ? undefined : positiveInt('--sessions', values.sessions, LIMITS.sessions),
    concurrency: values.concurrency === undefined ? undefined : positiveInt('--concurrency', values.concurrency, LIMITS.concurrency),
    turns: values.turns === undefined ? undefined : positiveInt('--turns', values.turns, LIMITS.turns),
    durationMs: seconds('--duration', values.duration),
    turnTimeoutMs: seconds('--turn-timeout', values['turn-timeout']),
    graceMs: seconds('--grace', values.grace),
    retryShed: values['retry-shed'] === true,
  });
  return { help: false, json: values.json === true, options };
}

/**
 * Fills defaults and validates a run, for the CLI and in-process callers alike,
 * so that no caller can aim the generator at a non-loopback host.
 */
export function resolveOptions(input: LoadtestInput): LoadtestOptions {
  const kind = parseKind(input.kind);
  const sessions = checkInt('sessions', input.sessions ?? DEFAULTS.sessions, LIMITS.sessions);
  const turns = checkInt('turns', input.turns ?? DEFAULTS.turns, LIMITS.turns);
  if (sessions * turns > LIMITS.totalTurns) {
    throw new UsageError(`--sessions × --turns is ${sessions * turns}; at most ${LIMITS.totalTurns} turns per run`);
  }
  const concurrency = Math.min(sessions, checkInt('concurrency', input.concurrency ?? DEFAULTS.concurrency, LIMITS.concurrency));
  return {
    kind,
    url: loopbackBaseUrl(input.url),
    sessions,
    concurrency,
    turns,
    durationMs: checkMs('duration', input.durationMs ?? DEFAULTS.durationMs),
    turnTimeoutMs: checkMs('turn-timeout', input.turnTimeoutMs ?? DEFAULTS.turnTimeoutMs),
    graceMs: checkMs('grace', input.graceMs ?? DEFAULTS.graceMs),
    retryShed: input.retryShed ?? DEFAULTS.retryShed,
  };
}

/** Normalises `raw` to `http://host[:port][/path]`; refuses anything that is not plain http on a loopback host. */
export function loopbackBaseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`--url "${raw}" is not a URL (expected e.g. ${DEFAULTS.url})`);
  }
  if (!(LOOPBACK_HOSTS as readonly string[]).includes(url.hostname)) {
    throw new UsageError(
      `refusing --url ${raw}: the load generator only targets this machine (host 127.0.0.1, ::1 or localhost), not "${url.hostname}"`,
    );
  }
  if (url.protocol !== 'http:') throw new UsageError(`--url ${raw}: only http:// is supported`);
  if (url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
    throw new UsageError(`--url ${raw}: give the gateway's base URL only (no credentials, query or fragment)`);
  }
  return `${url.protocol}//${url.host}${url.pathname.replace(/(?<!\/)\/+$/, '')}`;
}

function parseKind(raw: string): SessionKind {
  if ((KINDS as readonly string[]).includes(raw)) return raw as SessionKind;
  throw new UsageError(`--kind must be one of ${KINDS.join(', ')}; got "${raw}"`);
}

function positiveInt(flag: string, raw: string, max: number): number {
  if (!/^\d+$/.test(raw)) throw new UsageError(`${flag} must be a whole number from 1 to ${max}; got "${raw}"`);
  return checkInt(flag.slice(2), Number(raw), max);
}

function checkInt(name: string, value: number, max: number): number {
  if (!Number.isInteger(value) || value < 1 || value > max)
    throw new UsageError(`--${name} must be a whole number from 1 to ${max}; got ${value}`);
  return value;
}

function positiveSeconds(flag: string, raw: string): number {
  if (!/^\d+(\.\d+)?$/.test(raw)) throw new UsageError(`${flag} must be a number of seconds; got "${raw}"`);
  return Number(raw);
}

function checkMs(name: string, ms: number): number {
  if (!Number.isFinite(ms) || ms <= 0 || ms > LIMITS.seconds * 1000) {
    throw new UsageError(`--${name} must be more than 0 and at most ${LIMITS.seconds} seconds; got ${ms / 1000}`);
  }
  return ms;
}
