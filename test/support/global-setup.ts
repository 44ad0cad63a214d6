import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildAll } from '../../scripts/build/compile.js';
import { REPO_ROOT } from './processes.js';
import { startTestRedis } from './redis.js';
import { startStackBroker } from './stack-broker.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** URL of the one Redis every test file shares; tests isolate themselves by key/queue prefix. */
    redisUrl: string;
    /** URL of the shared-stack broker (stack-broker.ts) that sharedStack() asks. */
    stackBroker: string;
  }
}

/**
 * Vitest global setup: one Redis for the whole run and the broker of shared
 * stacks. The Redis URL reaches tests both through `inject('redisUrl')` and
 * `process.env.TEST_REDIS_URL`, the latter for code (and child processes) that
 * cannot call `inject`. The services are built first (scripts/build/compile.ts, about
 * 0.5 s, nothing written when nothing changed): the tests run what `npm start` runs, from
 * the sources as they are now. Every service start of the run is recorded
 * (SERVICE_START_LOG, kept in test-artifacts/ with the run's other artifacts)
 * and summarised at the end.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const startLog = join(REPO_ROOT, 'test-artifacts', `service-starts-${process.pid}.jsonl`);
  rmSync(startLog, { force: true });
  await buildAll();
  // Test workers are forked after this and inherit it: they start what was just built (processes.ts).
  process.env.SERVICES_BUILT = '1';
  process.env.SERVICE_START_LOG = startLog;
  const redis = await startTestRedis();
  project.provide('redisUrl', redis.url);
  process.env.TEST_REDIS_URL = redis.url;
  const broker = await startStackBroker(redis.url);
  project.provide('stackBroker', broker.url);
  // Test workers are forked after this and inherit it: every start of the run shares the broker's slots.
  process.env.SERVICE_START_SLOTS_URL = broker.startSlotsUrl;
  return async () => {
    await broker.close();
    delete process.env.SERVICE_START_SLOTS_URL;
    await redis.stop();
    const summary = summariseStarts(startLog);
    if (summary) console.log(summary);
  };
}

/** One line: how many services the run started and what a start took (median, 95th percentile, max). */
export function summariseStarts(file: string): string | undefined {
  if (!existsSync(file)) return undefined;
  const starts = readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { service: string; ms: number; ok: boolean });
  if (starts.length === 0) return undefined;
  const ms = starts.map((start) => start.ms).sort((a, b) => a - b);
  const at = (q: number) => ms[Math.min(ms.length - 1, Math.floor(q * ms.length))]!;
  const failed = starts.filter((start) => !start.ok).length;
  return `[services] ${starts.length} starts${failed > 0 ? ` (${failed} failed)` : ''}: median ${at(0.5)} ms, p95 ${at(0.95)} ms, max ${ms.at(-1)} ms to "ready"`;
}
