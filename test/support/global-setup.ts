import type { TestProject } from 'vitest/node';
import { startTestRedis } from './redis.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** URL of the one Redis every test file shares; tests isolate themselves by key/queue prefix. */
    redisUrl: string;
  }
}

/**
 * Vitest global setup: one Redis for the whole run. The URL reaches tests both
 * through `inject('redisUrl')` and `process.env.TEST_REDIS_URL`, the latter for
 * code (and child processes) that cannot call `inject`.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const redis = await startTestRedis();
  project.provide('redisUrl', redis.url);
  process.env.TEST_REDIS_URL = redis.url;
  return async () => {
    await redis.stop();
  };
}
