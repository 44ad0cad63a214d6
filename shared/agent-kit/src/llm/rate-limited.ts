import type { RedisClient } from '@convo/runtime';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { ProviderError, type RuntimeMetrics } from '@convo/runtime';
import { sleep } from './openai-client.js';
import type { LlmProvider } from './types.js';

export type LlmRateOptions = {
  /** Calls per minute per provider and model, shared by every worker on this Redis. */
  rpm: number;
  /** A call that would wait longer than this fails as retryable instead (the job's backoff takes over). */
  maxWaitMs: number;
  prefix: string;
};

/** Takes one call from a per-key budget; resolves with how long it waited for the next window (0 when it did not). */
export type RpmGate = (key: string, opts?: { signal?: AbortSignal; maxWaitMs?: number }) => Promise<{ waitedMs: number }>;

/**
 * A per-key budget of calls per minute in Redis (a fixed one-minute window,
 * rate-limiter-flexible), so the limit holds across all workers and replicas.
 * A call over budget waits for the next window, up to `maxWaitMs` (the
 * caller may ask for less), then fails with a retryable ProviderError (429).
 * Null when `rpm` is 0: nothing to limit.
 */
export function createRpmGate(redis: RedisClient, opts: LlmRateOptions & { what: string; setting: string }): RpmGate | null {
  if (opts.rpm <= 0) return null;
  const limiter = new RateLimiterRedis({ storeClient: redis, keyPrefix: `${opts.prefix}:llm-rpm`, points: opts.rpm, duration: 60 });
  return async (key, call = {}) => {
    const maxWaitMs = call.maxWaitMs ?? opts.maxWaitMs;
    const started = Date.now();
    let waited = false;
    for (;;) {
      try {
        await limiter.consume(key, 1);
        return { waitedMs: waited ? Date.now() - started : 0 };
      } catch (res) {
        if (!(res instanceof RateLimiterRes)) throw res;
        if (Date.now() - started + res.msBeforeNext > maxWaitMs) {
          throw new ProviderError(
            `${opts.what} to ${key} are over ${opts.setting}=${opts.rpm}; retry in ${Math.ceil(res.msBeforeNext / 1000)} s`,
            429,
            true,
          );
        }
        waited = true;
        await sleep(res.msBeforeNext + Math.random() * 50, call.signal);
      }
    }
  };
}

/**
 * Keeps a flood of turns from becoming a storm of upstream 429s: every model
 * call takes a token from a per-provider-and-model budget (`createRpmGate`,
 * LLM_RPM) before it is sent.
 */
export function rateLimitProvider(provider: LlmProvider, redis: RedisClient, opts: LlmRateOptions, metrics?: RuntimeMetrics): LlmProvider {
  const take = createRpmGate(redis, { ...opts, what: 'model calls', setting: 'LLM_RPM' });
  if (!take) return provider;
  return {
    name: provider.name,
    async chat(req) {
      const { waitedMs } = await take(`${provider.name}:${req.model}`, { signal: req.signal });
      if (waitedMs > 0) metrics?.llmRateWait.observe({ provider: provider.name, model: req.model }, waitedMs / 1000);
      return provider.chat(req);
    },
  };
}
