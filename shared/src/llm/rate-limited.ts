import type { Redis } from 'ioredis';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { ProviderError } from '../errors.js';
import type { RuntimeMetrics } from '../metrics/runtime-metrics.js';
import type { LlmProvider } from './types.js';

export type LlmRateOptions = {
  /** Calls per minute per provider and model, shared by every worker on this Redis. */
  rpm: number;
  /** A call that would wait longer than this fails as retryable instead (the job's backoff takes over). */
  maxWaitMs: number;
  prefix: string;
};

/**
 * Keeps a flood of turns from becoming a storm of upstream 429s: every model
 * call takes a token from a per-provider-and-model budget in Redis (a fixed
 * one-minute window, rate-limiter-flexible), so the limit holds across all
 * workers and replicas. A call over budget waits for the next window, up to
 * `maxWaitMs`, then fails with a retryable ProviderError.
 */
export function rateLimitProvider(provider: LlmProvider, redis: Redis, opts: LlmRateOptions, metrics?: RuntimeMetrics): LlmProvider {
  if (opts.rpm <= 0) return provider;
  const limiter = new RateLimiterRedis({ storeClient: redis, keyPrefix: `${opts.prefix}:llm-rpm`, points: opts.rpm, duration: 60 });
  return {
    name: provider.name,
    async chat(req) {
      const key = `${provider.name}:${req.model}`;
      const started = Date.now();
      let waited = false;
      for (;;) {
        try {
          await limiter.consume(key, 1);
          break;
        } catch (res) {
          if (!(res instanceof RateLimiterRes)) throw res;
          if (Date.now() - started + res.msBeforeNext > opts.maxWaitMs) {
            throw new ProviderError(`model calls to ${key} are over LLM_RPM=${opts.rpm}; retry in ${Math.ceil(res.msBeforeNext / 1000)} s`, 429, true);
          }
          waited = true;
          await sleep(res.msBeforeNext + Math.random() * 50, req.signal);
        }
      }
      if (waited) metrics?.llmRateWait.observe({ provider: provider.name, model: req.model }, (Date.now() - started) / 1000);
      return provider.chat(req);
    },
  };
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
