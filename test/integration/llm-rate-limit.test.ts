import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createRuntimeMetrics, ProviderError } from '@convo/runtime';
import { type ChatRequest, type LlmProvider, rateLimitProvider } from '@convo/agent-kit';

/** The per-model RPM limit on LLM calls, counted in Redis so it holds across every worker. */
let redis: Redis;
let other: Redis;
const prefix = `rpm-${randomUUID().slice(0, 8)}`;

beforeAll(() => {
  redis = new Redis(inject('redisUrl'));
  other = new Redis(inject('redisUrl'));
});
afterAll(async () => {
  const keys = await redis.keys(`${prefix}:*`);
  if (keys.length) await redis.del(...keys);
  redis.disconnect();
  other.disconnect();
});

function countingProvider(): LlmProvider & { calls: number } {
  const provider = {
    name: 'fake',
    calls: 0,
    async chat(req: ChatRequest) {
      provider.calls++;
      return { content: 'ok', toolCalls: [], usage: { promptTokens: 1, completionTokens: 1 }, model: req.model };
    },
  };
  return provider;
}

const req = (model: string): ChatRequest => ({ agent: 'reviewer', model, messages: [], tools: [], context: {} });

describe('LLM RPM limit', () => {
  it('shares one budget per provider and model between workers, and fails as retryable rather than calling upstream over it', async () => {
    const upstream = countingProvider();
    // Two "workers", each with its own Redis connection, share the budget of 3 calls a minute.
    const workerA = rateLimitProvider(upstream, redis, { rpm: 3, maxWaitMs: 0, prefix });
    const workerB = rateLimitProvider(upstream, other, { rpm: 3, maxWaitMs: 0, prefix });
    await workerA.chat(req('m1'));
    await workerB.chat(req('m1'));
    await workerA.chat(req('m1'));
    const over = await workerB.chat(req('m1')).catch((e: unknown) => e);
    expect(over).toBeInstanceOf(ProviderError);
    expect(over).toMatchObject({ retryable: true, code: 'provider_unavailable', upstreamStatus: 429 });
    expect(upstream.calls).toBe(3);
    // Another model has a budget of its own.
    await workerA.chat(req('m2'));
    expect(upstream.calls).toBe(4);
  });

  it('makes a call over budget wait for the next window when allowed to; an abort ends the wait without calling upstream', async () => {
    const upstream = countingProvider();
    const metrics = createRuntimeMetrics();
    const limited = rateLimitProvider(upstream, redis, { rpm: 1, maxWaitMs: 120_000, prefix: `${prefix}-wait` }, metrics);
    await limited.chat(req('m'));
    // The second call would wait for the window: an abort ends the wait without calling upstream.
    const controller = new AbortController();
    const waiting = limited.chat({ ...req('m'), signal: controller.signal });
    controller.abort(new Error('caller gave up'));
    await expect(waiting).rejects.toThrow('caller gave up');
    expect(upstream.calls).toBe(1);
  });

  it('is a no-op with LLM_RPM=0', async () => {
    const upstream = countingProvider();
    expect(rateLimitProvider(upstream, redis, { rpm: 0, maxWaitMs: 0, prefix })).toBe(upstream);
  });
});
