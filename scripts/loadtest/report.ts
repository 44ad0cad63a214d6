import type { LoadtestOptions, SessionKind } from './options.js';
import type { RunStats } from './stats.js';

/** Latency summary in milliseconds; null when no turn ended. */
export interface LatencySummary {
  p50: number | null;
  p95: number | null;
  p99: number | null;
  max: number | null;
  mean: number | null;
}

/** The result of a run: what `--json` prints. */
export interface LoadtestReport {
  kind: SessionKind;
  url: string;
  sessions: number;
  concurrency: number;
  turnsPerSession: number;
  durationMs: number;
  sessionsCreated: number;
  sessionsShed: number;
  accepted: number;
  shed: { 429: number; 503: number };
  errors: number;
  completed: number;
  failedTurns: number;
  /** Accepted turns, and greeting runs, with no turn.completed/turn.failed within --turn-timeout or by the end of the grace. */
  unfinished: number;
  latencyMs: LatencySummary;
  turnsPerSecond: number;
  streams: { events: number; lost: number; duplicated: number; outOfOrder: number; resyncs: number; reconnects: number };
  /** Up to ten error messages, to say what the `errors` were. */
  errorSamples: string[];
  /** No event lost, duplicated or out of order, and every accepted turn ended. */
  ok: boolean;
}

export function buildReport(options: LoadtestOptions, stats: RunStats, durationMs: number): LoadtestReport {
  const streams = { ...stats.streams };
  return {
    kind: options.kind,
    url: options.url,
    sessions: options.sessions,
    concurrency: options.concurrency,
    turnsPerSession: options.turns,
    durationMs: Math.round(durationMs),
    sessionsCreated: stats.sessionsCreated,
    sessionsShed: stats.sessionsShed,
    accepted: stats.accepted,
    shed: { ...stats.shed },
    errors: stats.errors,
    completed: stats.completed,
    failedTurns: stats.failedTurns,
    unfinished: stats.unfinished,
    latencyMs: summarize(stats.latenciesMs),
    turnsPerSecond: durationMs > 0 ? round(stats.completed / (durationMs / 1000), 2) : 0,
    streams,
    errorSamples: [...stats.errorSamples],
    ok: streams.lost === 0 && streams.duplicated === 0 && streams.outOfOrder === 0 && stats.unfinished === 0,
  };
}

/** Nearest-rank percentiles (p of n samples is the ⌈p·n⌉-th smallest), rounded to 0.1 ms. */
export function summarize(samples: readonly number[]): LatencySummary {
  if (samples.length === 0) return { p50: null, p95: null, p99: null, max: null, mean: null };
  const sorted = Float64Array.from(samples).sort();
  const at = (p: number) => round(sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)] as number, 1);
  const sum = sorted.reduce((a, b) => a + b, 0);
  return { p50: at(0.5), p95: at(0.95), p99: at(0.99), max: at(1), mean: round(sum / sorted.length, 1) };
}

/** The human table printed without `--json`. */
export function formatTable(report: LoadtestReport): string {
  const ms = (n: number | null) => (n === null ? '-' : `${n.toFixed(1)}`);
  const rows: Array<[string, string]> = [
    ['target', `${report.url} (kind ${report.kind})`],
    ['plan', `${report.sessions} sessions × ${report.turnsPerSession} turns, ${report.concurrency} at once`],
    ['wall time', `${(report.durationMs / 1000).toFixed(1)} s`],
    ['sessions', `${report.sessionsCreated} created, ${report.sessionsShed} shed`],
    ['turns accepted', String(report.accepted)],
    ['turns shed', `${report.shed[429] + report.shed[503]} (429: ${report.shed[429]}, 503: ${report.shed[503]})`],
    ['errors', String(report.errors)],
    ['turns completed', String(report.completed)],
    ['turns failed', String(report.failedTurns)],
    ['turns unfinished', String(report.unfinished)],
    [
      'latency ms',
      `p50 ${ms(report.latencyMs.p50)}  p95 ${ms(report.latencyMs.p95)}  p99 ${ms(report.latencyMs.p99)}  max ${ms(report.latencyMs.max)}  mean ${ms(report.latencyMs.mean)}`,
    ],
    ['throughput', `${report.turnsPerSecond.toFixed(2)} turns/s`],
    ['stream events', String(report.streams.events)],
    ['lost / dup / order', `${report.streams.lost} / ${report.streams.duplicated} / ${report.streams.outOfOrder}`],
    ['resyncs', String(report.streams.resyncs)],
    ['reconnects', String(report.streams.reconnects)],
    ['result', report.ok ? 'OK' : 'FAILED (events lost, duplicated or out of order, or turns unfinished)'],
  ];
  const width = Math.max(...rows.map(([k]) => k.length));
  const lines = rows.map(([k, v]) => `${k.padEnd(width)}  ${v}`);
  for (const sample of report.errorSamples) lines.push(`${'error'.padEnd(width)}  ${sample}`);
  return lines.join('\n');
}

function round(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
