import { randomUUID } from 'node:crypto';
import { type Job, Queue, Worker } from 'bullmq';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  createLogger,
  createRedis,
  createRuntimeMetrics,
  deferNewerJob,
  jobVersion,
  loadConfig,
  type RedisClient,
  runStep,
  type RuntimeMetrics,
  type StepRunnerDeps,
} from '@convo/runtime';
import { JOB_SCHEMA_VERSION } from '@convo/contract';

/**
 * Rolling deploys on a real Redis: a worker that meets a job of a newer
 * schema major leaves it for a newer worker (no attempt used, not failed),
 * and the newer worker then takes it. Each test has its own queue prefix.
 */
const config = loadConfig({ REDIS_URL: inject('redisUrl') });
const DEFERRED = 'job of a newer schema version left for a newer worker';

let connection: RedisClient;
let prefix: string;
let queue: Queue | undefined;
const workers: Worker[] = [];
const workerConnections: RedisClient[] = [];

beforeAll(() => {
  connection = createRedis(config.redis, 'worker', 'job-versions-test');
});
afterAll(() => {
  connection.disconnect();
});
afterEach(async () => {
  await stopWorkers();
  await queue?.obliterate({ force: true });
  await queue?.close();
  queue = undefined;
});

/** BullMQ leaves a connection it was handed open on close. */
async function stopWorkers(): Promise<void> {
  await Promise.all(workers.splice(0).map((worker) => worker.close()));
  for (const worker of workerConnections.splice(0)) worker.disconnect();
}

function newQueue(): Queue {
  prefix = `{jv-${randomUUID().slice(0, 8)}}`;
  const created = new Queue('steps', { connection, prefix });
  queue = created;
  return created;
}

/** A logger whose lines the test can wait on. */
function recordingLog() {
  const lines: Record<string, unknown>[] = [];
  const waiters: Array<{ msg: string; resolve: (line: Record<string, unknown>) => void }> = [];
  const log = createLogger('test', 'info', {
    destination: {
      write(raw: string) {
        const line = JSON.parse(raw) as Record<string, unknown>;
        lines.push(line);
        for (const waiter of waiters.filter((w) => w.msg === line.msg)) waiter.resolve(line);
      },
    },
  });
  const next = (msg: string) => new Promise<Record<string, unknown>>((resolve) => waiters.push({ msg, resolve }));
  return { log, lines, next };
}

/** A worker that knows schema majors up to `known`, as a release's agent service does (agent-service.ts). */
function versionedWorker(
  known: number,
  log: ReturnType<typeof recordingLog>['log'],
  metrics: RuntimeMetrics,
  work: (job: Job) => Promise<unknown>,
): Worker {
  const worker = new Worker(
    'steps',
    async (job, token) => {
      await deferNewerJob(job, token, { known, delayMs: 1_000, log, metrics, agent: 'interviewer' });
      return work(job);
    },
    { connection: workerConnection(), prefix },
  );
  workers.push(worker);
  return worker;
}

function workerConnection(): RedisClient {
  const created = createRedis(config.redis, 'worker', 'job-versions-worker');
  workerConnections.push(created);
  return created;
}

function completed(worker: Worker): Promise<Job> {
  return new Promise((resolve) => worker.on('completed', (job) => resolve(job)));
}

function failed(worker: Worker): Promise<{ job: Job | undefined; err: Error }> {
  return new Promise((resolve) => worker.on('failed', (job, err) => resolve({ job, err })));
}

const payload = (v: number) => ({ v, sessionId: 's-1', seq: 3, agent: 'interviewer', turnId: 't-1', trace: null });

describe('versioned job payloads (rolling deploys)', () => {
  it('reads the major before anything else of the payload', () => {
    expect(JOB_SCHEMA_VERSION).toBe(1);
    expect(jobVersion({ v: 2, anything: true })).toBe(2);
    expect(jobVersion({ hello: 'world' })).toBeNull();
    expect(jobVersion('garbage')).toBeNull();
  });

  it('a job of a newer major is left delayed for a newer worker, with no attempt used, and a worker that knows it then runs it', async () => {
    const queue = newQueue();
    const added = await queue.add('step', payload(2), { attempts: 3 });
    const { log, next } = recordingLog();
    const oldMetrics = createRuntimeMetrics();
    const ranOnOld: string[] = [];
    const deferral = next(DEFERRED);
    versionedWorker(1, log, oldMetrics, async (job) => ranOnOld.push(job.id!));
    const line = await deferral;
    expect(line).toMatchObject({ level: 40, jobId: added.id, jobVersion: 2, knownVersion: 1 });
    await stopWorkers();

    const job = (await queue.getJob(added.id!))!;
    expect(['delayed', 'waiting']).toContain(await job.getState());
    expect(job.attemptsMade).toBe(0);
    expect(job.failedReason).toBeFalsy();
    expect(ranOnOld).toEqual([]);
    const deferred = (await oldMetrics.jobsDeferred.get()).values;
    expect(deferred).toEqual([
      expect.objectContaining({ labels: { agent: 'interviewer', job: 'step', version: '2' }, value: expect.any(Number) }),
    ]);
    expect(deferred[0]!.value).toBeGreaterThanOrEqual(1);

    const newMetrics = createRuntimeMetrics();
    const ranOnNew: unknown[] = [];
    const newer = versionedWorker(2, log, newMetrics, async (job) => ranOnNew.push(job.data));
    const done = await completed(newer);
    expect(done.id).toBe(added.id);
    expect(ranOnNew).toEqual([payload(2)]);
    // The one attempt is the newer worker's: the deferral used none.
    expect(done.attemptsMade).toBe(1);
    expect((await newMetrics.jobsDeferred.get()).values).toEqual([]);
  });

  it('a worker runs a job of an older major it still understands, without deferring it', async () => {
    const queue = newQueue();
    const added = await queue.add('step', payload(1), { attempts: 3 });
    const { log, lines } = recordingLog();
    const metrics = createRuntimeMetrics();
    const worker = versionedWorker(2, log, metrics, async (job) => job.data);
    const done = await completed(worker);
    expect(done.id).toBe(added.id);
    expect(lines.filter((line) => line.msg === DEFERRED)).toEqual([]);
    expect((await metrics.jobsDeferred.get()).values).toEqual([]);
  });

  it('a payload without a readable version still fails at once, unrecoverably, as before', async () => {
    const queue = newQueue();
    const added = await queue.add('step', { hello: 'world' }, { attempts: 3 });
    const { log } = recordingLog();
    const deps = { agent: 'interviewer', log: createLogger('test', 'silent') } as unknown as StepRunnerDeps;
    const worker = versionedWorker(1, log, createRuntimeMetrics(), (job) => runStep(job, deps));
    const { job, err } = await failed(worker);
    expect(job?.id).toBe(added.id);
    expect(err.name).toBe('UnrecoverableError');
    expect(err.message).toMatch(/invalid step payload/);
    expect(await job!.getState()).toBe('failed');
    expect(job!.attemptsMade).toBe(1);
  });
});
