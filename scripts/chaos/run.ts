import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { spawnRedisServer, type RedisServerProcess } from '../ensure-redis.js';
import { runLoadtest, type LoadtestReport } from '../loadtest/run.js';
import { freePort } from '../../test/support/free-port.js';
import { HARNESS_ENV, startService, type ServiceProcess } from '../../test/support/processes.js';
import { auditSessions, type SessionAudit } from './audit.js';

/**
 * The chaos run behind `npm run chaos`: the system on a private Redis (AOF
 * on, `appendfsync everysec`), flooded by the load generator's clients (HTTP
 * + SSE, reconnecting with Last-Event-ID, retrying shed requests) while
 * faults are injected one after another: a worker or the gateway killed with
 * SIGKILL and started again, Redis killed and restarted on its AOF, Redis
 * paused for 5 s with CLIENT PAUSE. Then every session is audited in Redis
 * (audit.ts): each accepted turn ended exactly once, no session stuck.
 *
 * The run is bounded by its faults, not by a clock: every kind asked for is
 * injected `rounds` times, one after another, while the load runs; the load
 * stops one pause after the last fault's recovery. `maxSeconds` caps the
 * whole injection phase; a run that hits the cap reports the faults it could
 * not inject (`faultsMissing`) and is not ok, so a slow machine fails clearly
 * instead of passing with fewer faults than it names.
 *
 * Recovery time of a fault: for each turn that was running when the fault
 * hit, the time from the fault to that turn's end as its client saw it.
 */
export const FAULT_KINDS = ['worker', 'gateway', 'redis-restart', 'redis-pause'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export type ChaosOptions = {
  /** How many times each kind is injected (kinds in turn: worker, gateway, …, worker, …). */
  rounds: number;
  /** Cap on the injection phase; faults not injected by then are reported missing. */
  maxSeconds: number;
  /** Upper bound on the sessions the clients start (the faults end the run, not this). */
  sessions: number;
  concurrency: number;
  turns: number;
  /** Pause between one fault's recovery and the next fault. */
  faultEveryMs: number;
  kinds: readonly FaultKind[];
  /** Extra environment of every service (e.g. the job lock settings under test). */
  env?: Record<string, string>;
  log?: (line: string) => void;
};

export type FaultRecord = { kind: FaultKind; target: string; at: number; restartMs: number };

export type ChaosReport = {
  options: Omit<ChaosOptions, 'log'>;
  /** The faults the run was asked to inject, in order. */
  faultsPlanned: FaultKind[];
  faults: FaultRecord[];
  /** Planned faults not injected before `maxSeconds` (empty in a complete run). */
  faultsMissing: FaultKind[];
  load: LoadtestReport;
  audit: SessionAudit;
  /** Per fault kind: how long the turns running at a fault took to end after it. */
  recovery: Record<string, { faults: number; turns: number; p50: number | null; p99: number | null; max: number | null }>;
  ok: boolean;
};

const AGENTS = ['greeter', 'architect', 'interviewer', 'reviewer'] as const;

export async function runChaos(options: ChaosOptions): Promise<ChaosReport> {
  const log = options.log ?? (() => undefined);
  const dir = mkdtempSync(join(tmpdir(), 'chaos-redis-'));
  const redisPort = await freePort();
  const redisArgs = ['--appendonly', 'yes', '--appendfsync', 'everysec', '--dir', dir, '--save', '', '--maxmemory-policy', 'noeviction'];
  let redis: RedisServerProcess = await spawnRedisServer({ port: redisPort, args: redisArgs });
  const prefix = `chaos-${randomUUID().slice(0, 8)}`;
  const gatewayPort = await freePort();
  const env = {
    REDIS_URL: redis.url,
    KEY_PREFIX: prefix,
    QUEUE_PREFIX: `{${prefix}}`,
    // Each model call takes a little time, so faults hit turns in the middle of their steps.
    OFFLINE_LATENCY_MS: '30',
    ...HARNESS_ENV,
    ...options.env,
  };
  const gatewayEnv = { ...env, PORT: String(gatewayPort), HOST: '127.0.0.1' };
  const procs = new Map<string, ServiceProcess>();
  const start = async (name: string) => procs.set(name, await startService(name, name === 'gateway' ? gatewayEnv : env));
  const faults: FaultRecord[] = [];
  const spans: Array<{ start: number; end: number }> = [];
  try {
    await Promise.all(['gateway', ...AGENTS].map(start));
    const url = `http://127.0.0.1:${gatewayPort}`;
    log(`system up: gateway ${url}, Redis ${redis.url} (AOF in ${dir})`);

    const planned = Array.from({ length: options.rounds * options.kinds.length }, (_, i) => options.kinds[i % options.kinds.length]!);
    const deadline = performance.now() + options.maxSeconds * 1000;
    const stopLoad = new AbortController();
    let loadEnded = false;
    const load = runLoadtest(
      {
        kind: 'form',
        url,
        sessions: options.sessions,
        concurrency: options.concurrency,
        turns: options.turns,
        durationMs: options.maxSeconds * 1000,
        // A turn may wait out a fault and its recovery; the run's ending waits for every accepted turn.
        turnTimeoutMs: 90_000,
        graceMs: 90_000,
        retryShed: true,
      },
      { onTurnEnded: (startedAt, endedAt) => void spans.push({ start: startedAt, end: endedAt }), stop: stopLoad.signal },
    ).finally(() => {
      loadEnded = true;
    });

    const inject = async (kind: FaultKind, index: number): Promise<FaultRecord> => {
      const at = performance.now();
      switch (kind) {
        case 'worker': {
          const target = AGENTS[index % AGENTS.length]!;
          await procs.get(target)!.kill('SIGKILL', 0);
          await start(target);
          return { kind, target, at, restartMs: performance.now() - at };
        }
        case 'gateway':
          await procs.get('gateway')!.kill('SIGKILL', 0);
          await start('gateway');
          return { kind, target: 'gateway', at, restartMs: performance.now() - at };
        case 'redis-restart':
          redis.child.kill('SIGKILL');
          await redis.exited;
          redis = await spawnRedisServer({ port: redisPort, args: redisArgs, readyTimeoutMs: 30_000 });
          return { kind, target: 'redis', at, restartMs: performance.now() - at };
        case 'redis-pause': {
          const admin = new Redis(redis.url, { maxRetriesPerRequest: 1 });
          await admin.client('PAUSE', 5000, 'ALL');
          admin.disconnect();
          await new Promise((resolve) => setTimeout(resolve, 5000));
          return { kind, target: 'redis', at, restartMs: 5000 };
        }
      }
    };

    for (const [i, kind] of planned.entries()) {
      await new Promise((resolve) => setTimeout(resolve, options.faultEveryMs));
      if (loadEnded || performance.now() > deadline) break;
      const fault = await inject(kind, Math.floor(i / options.kinds.length));
      faults.push(fault);
      log(`fault ${faults.length}/${planned.length}: ${kind} ${fault.target} (back after ${Math.round(fault.restartMs)} ms)`);
    }
    const faultsMissing = planned.slice(faults.length);
    if (faultsMissing.length > 0)
      log(`cap of ${options.maxSeconds} s reached: ${faultsMissing.length} planned faults not injected (${faultsMissing.join(', ')})`);
    // Turns keep running through the last fault's recovery before the load stops.
    await new Promise((resolve) => setTimeout(resolve, options.faultEveryMs));
    stopLoad.abort();
    const report = await load;
    log(`load done: ${report.accepted} turns accepted, ${report.completed} completed`);
    const audit = await auditSessions(redis.url, prefix, { settleMs: 30_000 });
    const recovery = recoveryByKind(faults, spans);
    const ok =
      faultsMissing.length === 0 &&
      audit.lostTurns === 0 &&
      audit.duplicatedTurns === 0 &&
      audit.stuckSessions === 0 &&
      audit.streamGaps === 0 &&
      report.streams.lost === 0 &&
      report.streams.duplicated === 0 &&
      report.streams.outOfOrder === 0 &&
      report.unfinished === 0;
    const { log: _log, ...rest } = options;
    return { options: rest, faultsPlanned: planned, faults, faultsMissing, load: report, audit, recovery, ok };
  } finally {
    await Promise.all([...procs.values()].map((proc) => proc.kill('SIGTERM', 5_000)));
    await redis.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

function recoveryByKind(faults: FaultRecord[], spans: Array<{ start: number; end: number }>): ChaosReport['recovery'] {
  const out: ChaosReport['recovery'] = {};
  for (const kind of FAULT_KINDS) {
    const ofKind = faults.filter((fault) => fault.kind === kind);
    if (ofKind.length === 0) continue;
    const waits = ofKind
      .flatMap((fault) => spans.filter((span) => span.start < fault.at && span.end > fault.at).map((span) => span.end - fault.at))
      .sort((a, b) => a - b);
    const pick = (q: number) => (waits.length === 0 ? null : Math.round(waits[Math.min(waits.length - 1, Math.floor(q * waits.length))]!));
    out[kind] = {
      faults: ofKind.length,
      turns: waits.length,
      p50: pick(0.5),
      p99: pick(0.99),
      max: waits.length === 0 ? null : Math.round(waits.at(-1)!),
    };
  }
  return out;
}
