/**
 * `npm run chaos`: the system on a private Redis under load while workers,
 * the gateway and Redis fail (scripts/chaos/run.ts says how), then an audit
 * of every session. Prints what was injected, what the clients and Redis
 * saw, and how long the running turns took to recover per fault kind.
 * Exit code 0 only when no accepted turn was lost or duplicated, no stream
 * had a gap or a repeat, and no session was left stuck.
 *
 * Knobs (env): CHAOS_ROUNDS (2: each fault kind is injected that many
 * times), CHAOS_MAX_SECONDS (600: cap on the injection phase; a run that
 * cannot inject every planned fault by then fails and says which are
 * missing), CHAOS_SESSIONS (100000: an upper bound, the faults end the run),
 * CHAOS_CONCURRENCY (100), CHAOS_TURNS (4), CHAOS_FAULT_EVERY_MS (4000),
 * CHAOS_FAULTS (worker,gateway,redis-restart,redis-pause). Anything else in
 * the environment that the services read (JOB_LOCK_MS, …) is passed to them.
 */
import { findOnPath } from './ensure-redis.js';
import { formatChaos } from './chaos/report.js';
import { FAULT_KINDS, runChaos, type FaultKind } from './chaos/run.js';

const num = (name: string, def: number) => {
  const value = Number(process.env[name] ?? '');
  return Number.isFinite(value) && value > 0 ? value : def;
};

async function main(): Promise<number> {
  if (!findOnPath('redis-server')) {
    process.stderr.write('chaos: needs a redis-server binary (it restarts its own Redis); install redis-server\n');
    return 2;
  }
  const kinds = (process.env.CHAOS_FAULTS ?? FAULT_KINDS.join(','))
    .split(',')
    .map((k) => k.trim())
    .filter((k): k is FaultKind => (FAULT_KINDS as readonly string[]).includes(k));
  const report = await runChaos({
    rounds: num('CHAOS_ROUNDS', 2),
    maxSeconds: num('CHAOS_MAX_SECONDS', 600),
    sessions: num('CHAOS_SESSIONS', 100_000),
    concurrency: num('CHAOS_CONCURRENCY', 100),
    turns: num('CHAOS_TURNS', 4),
    faultEveryMs: num('CHAOS_FAULT_EVERY_MS', 4000),
    kinds: kinds.length > 0 ? kinds : FAULT_KINDS,
    log: (line) => process.stderr.write(`chaos: ${line}\n`),
  });
  process.stdout.write(`${formatChaos(report)}\n`);
  return report.ok ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
