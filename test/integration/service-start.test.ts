import { describe, expect, inject, it } from 'vitest';
import { startService } from '../support/processes.js';

/**
 * The test harness's own promise (test/support/processes.ts): a start waits
 * for the service's `ready` line within a stated bound, and a start that fails
 * says how long it took, whether the process was still running, and what it
 * printed — the facts needed to tell a slow machine from a broken service.
 */
describe('starting a service', () => {
  it('fails at once when the process exits before it is ready, with its exit, the time it took and its output', async () => {
    const started = performance.now();
    const failure = await startService(
      'greeter',
      { REDIS_URL: 'redis://127.0.0.1:6379', LOG_LEVEL: 'not-a-level' },
      { readyTimeoutMs: 100_000 },
    ).then(
      () => undefined,
      (err: Error) => err,
    );
    expect(failure?.message).toMatch(
      /^greeter did not become ready: exited with code 1; it exited \d+ ms after it was spawned \(bound: 100000 ms, SERVICE_READY_TIMEOUT_MS\)/,
    );
    expect(failure?.message).toMatch(/--- greeter output ---\n.*LOG_LEVEL/s);
    // It did not wait for the bound.
    expect(performance.now() - started).toBeLessThan(100_000);
  });

  it('fails after the bound when the process has not printed ready, saying it was still running', async () => {
    const failure = await startService(
      'greeter',
      { REDIS_URL: inject('redisUrl'), KEY_PREFIX: 'start-bound', QUEUE_PREFIX: '{start-bound}' },
      { readyTimeoutMs: 1 },
    ).then(
      () => undefined,
      (err: Error) => err,
    );
    expect(failure?.message).toMatch(
      /^greeter did not become ready: no matching line after 1 ms; it was still running \d+ ms after it was spawned \(bound: 1 ms, SERVICE_READY_TIMEOUT_MS\)/,
    );
  });
});
