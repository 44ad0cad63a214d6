import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Queue, Worker, type JobsOptions } from 'bullmq';
import { Redis } from 'ioredis';
import { type CpuPerUnit, cpuWindow } from './common.js';

/**
 * The reference for the pipeline: a bare BullMQ chain with the same queue
 * hops as an interview answer turn (interviewer → reviewer → interviewer,
 * so two queues, the first visited twice), the same job options as the
 * pipeline's step jobs, one Worker per queue with the agents' concurrency,
 * and the same number of chains in flight. Each job only enqueues the next
 * one (deterministic id); the last resolves an in-process promise. Workers
 * and producer share this one process.
 */
export const HOP_AGENTS = ['interviewer', 'reviewer', 'interviewer'] as const;
export const HOPS = HOP_AGENTS.length;

const JOB_OPTIONS: JobsOptions = {
  attempts: 3,
  backoff: { type: 'exponential', delay: 500, jitter: 0.5 },
  removeOnComplete: { age: 3600, count: 10_000 },
  removeOnFail: { age: 24 * 3600, count: 10_000 },
};

export type BareOptions = {
  /** Sequential samples (one chain in flight) for the 3-hop and the 1-hop figures. */
  turns: number;
  /** Chains in flight for the throughput figure (the pipeline's parallel sessions). */
  inFlight: number;
  /** Chains each in-flight lane runs one after another. */
  perLane: number;
  /** Worker concurrency per queue (the agents' `<AGENT>_CONCURRENCY`). */
  concurrency: number;
};

export type BareResult = {
  single: number[];
  seq: number[];
  loaded: number[];
  throughput: number;
  chains: number;
  /** CPU per chain with `inFlight` in flight: this process (producer and workers) as the services, and Redis. */
  cpu: CpuPerUnit;
};

export async function bareChain(url: string, options: BareOptions): Promise<BareResult> {
  const prefix = `{bench-bare-${randomUUID().slice(0, 6)}}`;
  const connection = new Redis(url, { maxRetriesPerRequest: null, connectionName: 'bench-bare-producer' });
  const names = [...new Set(HOP_AGENTS)];
  const queues = new Map(names.map((n) => [n, new Queue(`agent-${n}`, { connection, prefix })]));
  const queueOf = (hop: number) => queues.get(HOP_AGENTS[hop]!)!;
  const done = new Map<string, () => void>();
  const workerConns = names.map((n) => new Redis(url, { maxRetriesPerRequest: null, connectionName: `bench-bare-${n}` }));
  const workers = names.map(
    (agentName, i) =>
      new Worker(
        `agent-${agentName}`,
        async (job) => {
          const { id, hop } = job.data as { id: string; hop: number };
          if (hop + 1 < HOPS) await queueOf(hop + 1).add('step', { id, hop: hop + 1 }, { ...JOB_OPTIONS, jobId: `step-${id}-${hop + 1}` });
          else done.get(id)?.();
        },
        { connection: workerConns[i]!, prefix, concurrency: options.concurrency },
      ),
  );
  try {
    await Promise.all(workers.map((w) => w.waitUntilReady()));
    const run = async (hops: number) => {
      const id = randomUUID();
      const first = HOPS - hops;
      const t0 = performance.now();
      await new Promise<void>((resolve) => {
        done.set(id, resolve);
        void queueOf(first).add('step', { id, hop: first }, { ...JOB_OPTIONS, jobId: `step-${id}-${first}` });
      });
      done.delete(id);
      return performance.now() - t0;
    };
    for (let i = 0; i < 20; i++) await run(HOPS); // warm-up
    const seq: number[] = [];
    for (let i = 0; i < options.turns; i++) seq.push(await run(HOPS));
    const single: number[] = [];
    for (let i = 0; i < options.turns; i++) single.push(await run(1));
    const loaded: number[] = [];
    const cpu = cpuWindow(url, () => ({}));
    await cpu.start();
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: options.inFlight }, async () => {
        for (let i = 0; i < options.perLane; i++) loaded.push(await run(HOPS));
      }),
    );
    const throughput = loaded.length / ((performance.now() - t0) / 1000);
    await cpu.end();
    // Producer and workers are this process: its CPU is the chain's own, not a client's.
    const used = cpu.perUnit(loaded.length);
    return {
      single,
      seq,
      loaded,
      throughput,
      chains: loaded.length,
      cpu: { services: used.client, redis: used.redis, client: 0, byService: {} },
    };
  } finally {
    await Promise.all(workers.map((w) => w.close()));
    await Promise.all([...queues.values()].map((q) => q.obliterate({ force: true }).then(() => q.close())));
    for (const c of workerConns) c.disconnect();
    connection.disconnect();
  }
}
