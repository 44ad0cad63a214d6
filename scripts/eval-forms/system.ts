import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { HARNESS_ENV, REPO_ROOT, startStack } from '../../test/support/processes.js';
import { dropPrefixes } from '../bench/redis-info.js';
import { ensureRedis } from '../ensure-redis.js';

/**
 * The system under evaluation: a running gateway given with --url, or one of
 * our own (gateway + the form and application agents as separate processes,
 * offline model, fresh key and queue prefixes), stopped and wiped at the end.
 */

export const EVAL_AGENTS = ['greeter', 'architect', 'interviewer', 'reviewer', 'checker', 'auditor'];

export interface SystemUnderTest {
  url: string;
  /** What the report says about where the figures came from. */
  description: string;
  stop(): Promise<void>;
}

/** Only loopback: the eval sends tokens and form data, and is not meant to load someone else's server. */
export function checkLoopback(url: string): string {
  const parsed = new URL(url);
  if (!['127.0.0.1', 'localhost', '[::1]', '::1'].includes(parsed.hostname)) {
    throw new Error(`--url must point at a loopback gateway (127.0.0.1, localhost, ::1), got ${parsed.hostname}`);
  }
  return parsed.origin;
}

export async function useRunning(url: string): Promise<SystemUnderTest> {
  const base = checkLoopback(url);
  const res = await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(5_000) });
  if (!res.ok) throw new Error(`${base}/healthz answered ${res.status}`);
  return { url: base, description: `running system at ${base}`, stop: async () => undefined };
}

export async function startOwn(log: (msg: string) => void, opts: { name?: string; services?: string[] } = {}): Promise<SystemUnderTest> {
  const services = opts.services ?? EVAL_AGENTS;
  const redis = await ensureRedis({ repoRoot: REPO_ROOT, log });
  const id = randomUUID().slice(0, 8);
  const keyPrefix = `${opts.name ?? 'eval-forms'}-${id}`;
  // Braces make every queue key hash to one slot, as the bench's prefixes do.
  const queuePrefix = `{${keyPrefix}}`;
  log(`starting gateway + ${services.join(', ')} (LLM_PROVIDER=offline, prefix ${keyPrefix})`);
  let stack;
  try {
    stack = await startStack({
      env: {
        REDIS_URL: redis.url,
        KEY_PREFIX: keyPrefix,
        QUEUE_PREFIX: queuePrefix,
        LLM_PROVIDER: 'offline',
        LOG_LEVEL: 'info',
        // No sample FAQ corpus to load, and no per-client rate limit: every request comes from this one address.
        FAQ_SEED_FILE: '',
        ...HARNESS_ENV,
      },
      services,
    });
  } catch (err) {
    await redis.stop();
    throw err;
  }
  const running = stack;
  return {
    url: running.url,
    description: `own stack at ${running.url} (offline model, redis ${redis.source})`,
    async stop() {
      await running.stop();
      const client = new Redis(redis.url);
      await dropPrefixes(client, [keyPrefix, queuePrefix]).catch(() => 0);
      client.disconnect();
      await redis.stop();
    },
  };
}
