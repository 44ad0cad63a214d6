import { FAULT_KINDS, type ChaosReport } from './run.js';

/** The chaos run as a table: what was injected, what Redis and the clients saw, recovery per fault kind. */
export function formatChaos(report: ChaosReport): string {
  const { load, audit } = report;
  const rows: Array<[string, string]> = [
    ['duration of the load', `${(load.durationMs / 1000).toFixed(1)} s`],
    [
      'faults injected / planned',
      `${report.faults.length} / ${report.faultsPlanned.length} (${FAULT_KINDS.map((kind) => `${kind} ${report.faults.filter((f) => f.kind === kind).length}`).join(', ')})`,
    ],
    ...(report.faultsMissing.length > 0
      ? [['faults missing (time cap reached)', report.faultsMissing.join(', ')] as [string, string]]
      : []),
    ['sessions (in Redis)', String(audit.sessions)],
    ['turns in Redis (greetings included) / accepted by clients', `${audit.acceptedTurns} / ${load.accepted}`],
    ['turns completed / failed', `${audit.completedTurns} / ${audit.failedTurns}`],
    ['turns lost', String(audit.lostTurns)],
    ['turns duplicated', String(audit.duplicatedTurns)],
    ['sessions stuck', String(audit.stuckSessions)],
    ['stored streams: gaps or repeats', String(audit.streamGaps)],
    [
      'client streams: lost / duplicated / out of order',
      `${load.streams.lost} / ${load.streams.duplicated} / ${load.streams.outOfOrder} (${load.streams.reconnects} reconnects)`,
    ],
    ['client turns unfinished / request errors / shed', `${load.unfinished} / ${load.errors} / ${load.shed[429] + load.shed[503]}`],
    ['turn latency p50 / p95 / p99', `${load.latencyMs.p50 ?? '—'} / ${load.latencyMs.p95 ?? '—'} / ${load.latencyMs.p99 ?? '—'} ms`],
    ...Object.entries(report.recovery).map(([kind, r]): [string, string] => [
      `recovery after ${kind} (${r.faults} faults, ${r.turns} turns hit)`,
      r.p50 === null ? 'no turn was running' : `p50 ${r.p50} ms, p99 ${r.p99} ms, max ${r.max} ms`,
    ]),
    ['ok', report.ok ? 'yes' : 'NO'],
  ];
  const width = Math.max(...rows.map(([what]) => what.length));
  const lines = rows.map(([what, value]) => `${what.padEnd(width)} | ${value}`);
  if (audit.samples.length > 0) lines.push('', 'what was wrong:', ...audit.samples.map((s) => `  - ${s}`));
  if (load.errorSamples.length > 0) lines.push('', 'client errors (samples):', ...load.errorSamples.map((s) => `  - ${s}`));
  return lines.join('\n');
}
