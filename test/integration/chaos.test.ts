import { describe, expect, it } from 'vitest';
import { findOnPath } from '../../scripts/ensure-redis.js';
import { formatChaos } from '../../scripts/chaos/report.js';
import { FAULT_KINDS, runChaos } from '../../scripts/chaos/run.js';

/**
 * The short variant of `npm run chaos` that CI runs: the system on a Redis of
 * its own under load while a worker and the gateway are killed with SIGKILL,
 * Redis is killed and restarted on its AOF, and paused for 5 s — each kind
 * exactly once, however long that takes on the machine (up to a cap that
 * fails the test and names the faults it could not fit). Every accepted turn
 * ends exactly once, no stream has a gap or a repeat, no session is left
 * stuck. Timings are printed, never asserted.
 */
const hasRedisServer = findOnPath('redis-server') !== undefined;

describe.skipIf(!hasRedisServer)('chaos (needs a redis-server binary to restart)', () => {
  it('loses and duplicates no accepted turn through worker, gateway and Redis faults', { timeout: 420_000 }, async () => {
    // More sessions than the run needs: the load lasts until the faults are done, so every fault hits running turns.
    const report = await runChaos({
      rounds: 1,
      maxSeconds: 240,
      sessions: 10_000,
      concurrency: 12,
      turns: 3,
      faultEveryMs: 2_500,
      kinds: FAULT_KINDS,
    });
    console.log(formatChaos(report));
    expect(report.faultsMissing, 'faults the time cap left out').toEqual([]);
    expect(report.faults.map((fault) => fault.kind)).toEqual([...FAULT_KINDS]);
    expect(report.audit.sessions).toBeGreaterThan(0);
    expect(report.audit).toMatchObject({ lostTurns: 0, duplicatedTurns: 0, stuckSessions: 0, streamGaps: 0 });
    expect(report.load.streams).toMatchObject({ lost: 0, duplicated: 0, outOfOrder: 0 });
    expect(report.load.unfinished).toBe(0);
    expect(report.ok).toBe(true);
  });
});
