import { type AgentQueues, ALL_AGENTS, type Logger, nodesOf, type RedisClient } from '@convo/runtime';
import { type AgentName } from '@convo/contract';

export type Backlog = { queue: AgentName | null; waiting: number; checkedAt: number };

/** Redis's memory as INFO reports it; `maxmemory` 0 means no limit is set. */
type RedisMemory = { used: number; max: number };

/** How often Redis's memory is read (INFO is cheap, but the queues are read more often). */
const MEMORY_READ_MS = 1_000;

/**
 * The agent queues' backlog (jobs waiting for a worker) and Redis's memory,
 * read every SHED_CHECK_MS in the background, so deciding to shed a request
 * reads memory and answers in microseconds however loaded Redis is. The worst
 * queue counts: one slow agent stalls every turn that passes through it. New
 * work is refused too while Redis is close to its maxmemory: with
 * `noeviction` it would refuse the writes of turns already accepted.
 */
export class BacklogMonitor {
  private latest: Backlog = { queue: null, waiting: 0, checkedAt: 0 };
  private memory: RedisMemory = { used: 0, max: 0 };
  private memoryReadAt = 0;
  private timer: NodeJS.Timeout | null = null;
  private reading = false;
  /** Work requests let through since the last reading: each will add a job before the next one. */
  private admitted = 0;

  constructor(
    private readonly queues: AgentQueues,
    private readonly opts: { limit: number; intervalMs: number; redis: RedisClient; memoryRatio: number },
    private readonly log: Logger,
  ) {}

  get current(): Backlog {
    return this.latest;
  }

  /** Whether Redis is past SHED_REDIS_MEMORY_RATIO of its maxmemory (never when no maxmemory is set). */
  get memoryFull(): boolean {
    return this.memory.max > 0 && this.memory.used > this.memory.max * this.opts.memoryRatio;
  }

  /**
   * Whether one more work request may pass, and if not why. Counts the
   * requests let through since the last reading as jobs already waiting, so a
   * sudden flood is cut off at the limit instead of a whole check interval later.
   */
  admit(): 'ok' | 'queue_backlog' | 'redis_memory' {
    if (this.memoryFull) return 'redis_memory';
    if (this.latest.waiting + this.admitted > this.opts.limit) return 'queue_backlog';
    this.admitted++;
    return 'ok';
  }

  start(): void {
    void this.read();
    this.timer = setInterval(() => void this.read(), this.opts.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** One reading now (also what tests call to avoid waiting for the interval). */
  async read(): Promise<Backlog> {
    if (this.reading) return this.latest;
    this.reading = true;
    try {
      // An agent's partitions together: its workers serve them all, so their sum is the agent's backlog.
      const counts = await Promise.all(
        ALL_AGENTS.map(async (agent) => {
          const perPartition = await Promise.all(this.queues.all(agent).map((queue) => queue.getJobCounts('waiting', 'prioritized')));
          return perPartition.reduce((sum, c) => sum + (c.waiting ?? 0) + (c.prioritized ?? 0), 0);
        }),
      );
      let worst: Backlog = { queue: null, waiting: 0, checkedAt: Date.now() };
      counts.forEach((waiting, i) => {
        if (waiting > worst.waiting) worst = { queue: ALL_AGENTS[i]!, waiting, checkedAt: worst.checkedAt };
      });
      this.latest = worst;
      this.admitted = 0;
      if (Date.now() - this.memoryReadAt >= MEMORY_READ_MS) await this.readMemory(this.opts.redis);
    } catch (err) {
      // Redis away: the requests themselves answer 503; keep the last reading.
      this.log.debug({ err: err instanceof Error ? err.message : String(err) }, 'backlog read failed');
    } finally {
      this.reading = false;
    }
    return this.latest;
  }

  private async readMemory(redis: RedisClient): Promise<void> {
    // INFO answers for one server: on a cluster every master has its own maxmemory, and the fullest refuses writes first.
    const readings = await Promise.all(nodesOf(redis).map(async (node) => memoryOf(String(await node.info('memory')))));
    this.memory = readings.reduce((worst, reading) => (fill(reading) > fill(worst) ? reading : worst), { used: 0, max: 0 });
    this.memoryReadAt = Date.now();
  }
}

function memoryOf(info: string): RedisMemory {
  const field = (name: string) => Number(new RegExp(`^${name}:(\\d+)`, 'm').exec(info)?.[1] ?? 0);
  return { used: field('used_memory'), max: field('maxmemory') };
}

/** How full a server is (0 without a maxmemory, which never fills). */
const fill = (memory: RedisMemory) => (memory.max > 0 ? memory.used / memory.max : 0);
