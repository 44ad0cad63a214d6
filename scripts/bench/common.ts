import { Redis } from 'ioredis';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRedis, nodesOf, parseClusterNodes, waitReady } from '@convo/runtime';
import { HARNESS_ENV, startStack, type Stack } from '../../test/support/processes.js';
import { dropPrefixes } from './redis-info.js';

/** Small shared pieces of `npm run bench`: env knobs, percentiles, formatting, report rows. */

/** A positive number from the environment, or `def` when unset or not a number. */
export function envNum(name: string, def: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return def;
  const value = Number(raw);
  return Number.isFinite(value) && value >= 0 ? value : def;
}

/** Sections of the bench; BENCH_SKIP takes these names (a = bare,pipeline; b = sse; c = flood; d = usage; e = growth; f = cluster; g = tracing; h = peers). */
export const SECTIONS = ['ping', 'bare', 'pipeline', 'sse', 'flood', 'usage', 'growth', 'cluster', 'tracing', 'peers'] as const;
export type Section = (typeof SECTIONS)[number];
const ALIASES: Record<string, Section[]> = {
  a: ['bare', 'pipeline'],
  b: ['sse'],
  c: ['flood'],
  d: ['usage'],
  e: ['growth'],
  f: ['cluster'],
  g: ['tracing'],
  h: ['peers'],
  overhead: ['bare', 'pipeline'],
};

export function skippedSections(raw = process.env.BENCH_SKIP ?? ''): Set<Section> {
  const out = new Set<Section>();
  for (const word of raw
    .split(',')
    .map((w) => w.trim().toLowerCase())
    .filter(Boolean)) {
    if ((SECTIONS as readonly string[]).includes(word)) out.add(word as Section);
    else for (const s of ALIASES[word] ?? []) out.add(s);
  }
  return out;
}

/** Nearest-rank percentile; NaN for an empty sample. */
export function pct(xs: readonly number[], percentile: number): number {
  if (xs.length === 0) return NaN;
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((percentile / 100) * sorted.length) - 1))]!;
}

export const ms = (n: number): string => (Number.isFinite(n) ? `${n.toFixed(2)} ms` : 'n/a');
export const p50p99 = (xs: readonly number[]): string => `p50 ${ms(pct(xs, 50))}, p99 ${ms(pct(xs, 99))} (n=${xs.length})`;
export const kb = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KB`;
export const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
export const secs = (msValue: number): string => `${(msValue / 1000).toFixed(1)} s`;

export const sleep = (msValue: number) => new Promise<void>((r) => setTimeout(r, msValue));

/** One line of the final table. `met` is empty when the row has no goal. */
export type Row = { what: string; value: string; goal: string; met: '' | 'yes' | 'NO' | 'n/a' };

export function row(what: string, value: string, goal = '', ok?: boolean | null): Row {
  const met = goal === '' ? '' : ok === null || ok === undefined ? 'n/a' : ok ? 'yes' : 'NO';
  return { what, value, goal, met };
}

/** What every section hands back: table rows plus free-text detail lines. */
export type SectionResult = { rows: Row[]; details: string[] };

export function printTable(rows: readonly Row[]): void {
  const head: Row = { what: 'what', value: 'value', goal: 'goal', met: 'met' as Row['met'] };
  const all = [head, ...rows];
  const widthOf = (k: keyof Row) => Math.max(...all.map((r) => r[k].length));
  const [ww, wv, wg] = [widthOf('what'), widthOf('value'), widthOf('goal')];
  const line = (r: Row) => `${r.what.padEnd(ww)} | ${r.value.padEnd(wv)} | ${r.goal.padEnd(wg)} | ${r.met}`;
  console.log(line(head));
  console.log(`${'-'.repeat(ww)}-+-${'-'.repeat(wv)}-+-${'-'.repeat(wg)}-+-----`);
  for (const r of rows) console.log(line(r));
}

/** Progress on stderr-like stdout, prefixed so it stands apart from the report. */
export function log(msg: string): void {
  console.log(`· ${msg}`);
}

/** Where a bench stack keeps its data: one Redis (a URL), or a Redis Cluster (its `host:port,…` seed nodes). */
export type BenchTarget = string | { clusterNodes: string };

function targetEnv(target: BenchTarget): Record<string, string> {
  return typeof target === 'string' ? { REDIS_URL: target } : { REDIS_CLUSTER_NODES: target.clusterNodes };
}

/** Key and queue prefixes of one stack, so its Redis data can be removed afterwards; no hash tag in a cluster's queue prefix. */
function benchPrefixes(tag: string, target: BenchTarget): { keyPrefix: string; queuePrefix: string } {
  const id = `${tag}-${randomUUID().slice(0, 6)}`;
  return { keyPrefix: `bench-${id}`, queuePrefix: typeof target === 'string' ? `{bench-${id}}` : `bench-${id}-q` };
}

/** Removes a stack's keys from every node of the target. */
export async function dropBenchData(target: BenchTarget, prefixes: readonly string[]): Promise<void> {
  const client = createRedis(
    typeof target === 'string' ? { url: target, clusterNodes: null } : { url: '', clusterNodes: parseClusterNodes(target.clusterNodes) },
    'worker',
    'bench-cleanup',
  );
  try {
    await waitReady(client);
    for (const node of nodesOf(client)) await dropPrefixes(node, prefixes).catch(() => 0);
  } finally {
    client.disconnect();
  }
}

/** What a section measures around its timed part (per-shard command counts, CPU). */
export type MeasureWindow = { start(): Promise<unknown>; end(): Promise<unknown> };

/**
 * A stack of the bench's own, under fresh prefixes: no sample corpus, and no
 * per-client limits (all the bench's requests come from one address).
 */
export async function startBenchStack(
  target: BenchTarget,
  tag: string,
  env: Record<string, string> = {},
  services?: string[],
): Promise<{ stack: Stack; keyPrefix: string; queuePrefix: string }> {
  const { keyPrefix, queuePrefix } = benchPrefixes(tag, target);
  const stack = await startStack({
    env: {
      ...targetEnv(target),
      KEY_PREFIX: keyPrefix,
      QUEUE_PREFIX: queuePrefix,
      LOG_LEVEL: 'info',
      FAQ_SEED_FILE: '',
      ...HARNESS_ENV,
      ...env,
    },
    ...(services ? { services } : {}),
  });
  return { stack, keyPrefix, queuePrefix };
}

/** Soft limit of open files of a process (Linux /proc), or null where it cannot be read. */
export function openFilesLimit(pid: number | 'self' = 'self'): number | null {
  try {
    const line = readFileSync(`/proc/${pid}/limits`, 'utf8')
      .split('\n')
      .find((l) => l.startsWith('Max open files'));
    const soft = line?.split(/\s{2,}/)[1];
    return soft === undefined || soft === 'unlimited' ? null : Number(soft);
  } catch {
    return null;
  }
}

/** Runs `fn` over `items` with at most `limit` at once; results in input order. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T, i: number) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, async () => {
      for (let i = next++; i < items.length; i = next++) out[i] = await fn(items[i]!, i);
    }),
  );
  return out;
}

/** A form with `fields` short-answer fields, as the interview benches use. */
export function benchForm(fields: number) {
  return {
    title: 'bench',
    fields: Array.from({ length: fields }, (_, i) => ({
      id: `f${i}`,
      fieldId: `field_${i}`,
      label: `Question ${i}`,
      intent: 'Collect a short description',
      required: true,
      sortOrder: i,
    })),
    facts: [],
  };
}

const CLOCK_TICKS = 100;

/** User + system CPU seconds a process has used so far (Linux /proc), 0 where unknown. */
export function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return 0;
  }
}

/** CPU seconds a Redis server has used so far (INFO cpu: used_cpu_user + used_cpu_sys). */
export async function redisCpuSeconds(url: string): Promise<number> {
  const client = new Redis(url, { maxRetriesPerRequest: 1 });
  try {
    const info = await client.info('cpu');
    const read = (name: string) => Number(new RegExp(`^${name}:([\\d.]+)`, 'm').exec(info)?.[1] ?? 0);
    return read('used_cpu_user') + read('used_cpu_sys');
  } finally {
    client.disconnect();
  }
}

/** CPU this bench process has used so far, in seconds. */
export function ownCpuSeconds(): number {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1e6;
}

/** Milliseconds of CPU per unit of work (a turn, a chain), by who used it. */
export type CpuPerUnit = { services: number; redis: number; client: number; byService: Record<string, number> };

/**
 * A window over which the CPU of the given processes, of the Redis server at `redisUrl` (the bench
 * runs alone on it) and of this process is counted; `perUnit(n)` divides it by the work done.
 */
export function cpuWindow(
  redisUrl: string | null,
  processes: () => Record<string, number>,
): MeasureWindow & { perUnit(units: number): CpuPerUnit } {
  type Sample = { byService: Record<string, number>; redis: number; client: number };
  const sample = async (): Promise<Sample> => ({
    byService: Object.fromEntries(Object.entries(processes()).map(([name, pid]) => [name, cpuSeconds(pid)])),
    redis: redisUrl ? await redisCpuSeconds(redisUrl) : Number.NaN,
    client: ownCpuSeconds(),
  });
  let before: Sample | null = null;
  let after: Sample | null = null;
  return {
    start: async () => (before = await sample()),
    end: async () => (after = await sample()),
    perUnit(units) {
      if (!before || !after) throw new Error('cpuWindow: perUnit before end');
      const [b, a] = [before, after];
      const byService = Object.fromEntries(
        Object.keys(a.byService).map((name) => [name, ((a.byService[name]! - (b.byService[name] ?? 0)) * 1000) / units]),
      );
      return {
        services: Object.values(byService).reduce((sum, v) => sum + v, 0),
        redis: ((a.redis - b.redis) * 1000) / units,
        client: ((a.client - b.client) * 1000) / units,
        byService,
      };
    },
  };
}
