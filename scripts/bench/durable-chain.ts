import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Worker } from 'bullmq';
import {
  createAgentQueues,
  createLogger,
  createRedis,
  dispatch,
  loadConfig,
  queueName,
  runStep,
  SessionStore,
  type StepHandler,
  type StepRunnerDeps,
  storeOptions,
} from '@convo/runtime';
import { SessionForm, type AgentName } from '@convo/contract';
import { newFormSession } from '@convo/forms';
import { type BareOptions, type BareResult, HOP_AGENTS, HOPS } from './bare-chain.js';
import { benchForm, cpuWindow, dropBenchData } from './common.js';
import { REPO_ROOT } from '../../test/support/processes.js';

/**
 * The runtime's own floor: the bare chain's three hops (interviewer → reviewer → interviewer), but
 * each one a real step of the runtime on a real session: the turn accepted by the store's script,
 * and every step run by `runStep` (load the session, record the turn's start on its first step,
 * commit with compare-and-set, mark it for the sweeper, add the next job). The agents do nothing
 * (a hand-off, then `ask`), with no HTTP, SSE or model: what is left above the bare chain is the
 * price of durable, exactly-once steps. `processes`: each agent's worker in a process of its own
 * (floor-worker.ts), as the services run; else in this one.
 */
export async function durableChain(url: string, options: BareOptions & { fields: number; processes: boolean }): Promise<BareResult> {
  const tag = `bench-floor-${randomUUID().slice(0, 6)}`;
  const config = floorConfig(url, tag);
  const redis = createRedis(config.redis, 'worker', 'bench-floor-store');
  const store = new SessionStore(redis, storeOptions(config));
  const queues = createAgentQueues(redis, config.queuePrefix, config.partitions);
  // The turns waiting for their end.
  const ended = new Map<string, () => void>();
  const onEnded = (turnId: string) => ended.get(turnId)?.();
  const agents = [...new Set(HOP_AGENTS)] as AgentName[];
  const workers: Array<{ pid?: number; close(): Promise<void> }> = [];
  const form = SessionForm.parse(benchForm(options.fields));
  const newSession = async () => {
    const sessionId = randomUUID();
    const state = newFormSession({
      sessionId,
      kind: 'form',
      form,
      language: 'en',
      firstAgent: 'interviewer',
      now: new Date().toISOString(),
    });
    if (!(await store.createIdle({ state, tokenHash: 'bench', agent: 'interviewer' }))) throw new Error('session id taken');
    return sessionId;
  };
  const turn = async (sessionId: string) => {
    const turnId = randomUUID();
    const t0 = performance.now();
    const done = new Promise<void>((resolve) => ended.set(turnId, resolve));
    const accepted = await store.acceptTurn({
      sessionId,
      turnId,
      message: 'I would describe it in a few honest words',
      idempotencyKey: undefined,
      multitask: 'enqueue',
      maxQueued: 10,
      turnLimit: config.sessionTurnLimit,
      acceptedAt: new Date().toISOString(),
    });
    if (accepted.outcome !== 'started') throw new Error(`turn not started: ${accepted.outcome}`);
    await dispatch({ queues, config }, sessionId, accepted.step);
    await done;
    ended.delete(turnId);
    return performance.now() - t0;
  };
  try {
    for (const agent of agents) {
      const worker = { url, tag, agent, concurrency: options.concurrency };
      if (options.processes) workers.push(await spawnFloorWorker(worker, onEnded));
      else {
        const started = floorWorker(worker, onEnded);
        workers.push(started);
        await started.ready;
      }
    }
    const one = await newSession();
    for (let i = 0; i < 20; i++) await turn(one); // warm-up
    const seq: number[] = [];
    const sequential = await newSession();
    for (let i = 0; i < options.turns; i++) seq.push(await turn(sequential));
    const lanes = await Promise.all(Array.from({ length: options.inFlight }, newSession));
    const loaded: number[] = [];
    const cpu = cpuWindow(url, () => Object.fromEntries(workers.flatMap((w, i) => (w.pid ? [[agents[i]!, w.pid]] : []))));
    await cpu.start();
    const t0 = performance.now();
    await Promise.all(
      lanes.map(async (sessionId) => {
        for (let i = 0; i < options.perLane; i++) loaded.push(await turn(sessionId));
      }),
    );
    const throughput = loaded.length / ((performance.now() - t0) / 1000);
    await cpu.end();
    const used = cpu.perUnit(loaded.length);
    // This process accepts and dispatches the turns (the gateway's part) and, in-process, runs the steps too.
    return {
      single: [],
      seq,
      loaded,
      throughput,
      chains: loaded.length,
      cpu: { services: used.services + used.client, redis: used.redis, client: 0, byService: { ...used.byService, producer: used.client } },
    };
  } finally {
    await Promise.all(workers.map((w) => w.close()));
    await Promise.all(agents.map((agent) => queues.get(agent).obliterate({ force: true })));
    for (const agent of agents) await queues.get(agent).close();
    redis.disconnect();
    await dropBenchData(url, [tag, `{${tag}}`]);
  }
}

export type FloorWorkerOptions = { url: string; tag: string; agent: AgentName; concurrency: number };

function floorConfig(url: string, tag: string) {
  return loadConfig({ REDIS_URL: url, KEY_PREFIX: tag, QUEUE_PREFIX: `{${tag}}`, LOG_LEVEL: 'silent' });
}

/**
 * One agent's worker of the floor: every step run by `runStep` with an agent that does nothing. A
 * turn takes the same three steps every time on a session created idle, so a step's hop is its
 * number's place in its turn; the last hop asks (the turn ends) and reports the turn's end.
 */
export function floorWorker(
  options: FloorWorkerOptions,
  onEnded: (turnId: string) => void,
): { ready: Promise<void>; close(): Promise<void> } {
  const config = floorConfig(options.url, options.tag);
  const redis = createRedis(config.redis, 'worker', `bench-floor-${options.agent}-store`);
  const store = new SessionStore(redis, storeOptions(config));
  const queues = createAgentQueues(redis, config.queuePrefix, config.partitions);
  const hopOf = (seq: number) => (seq - 1) % HOPS;
  const handler: StepHandler = async ({ step }) => {
    const hop = hopOf(step.seq);
    if (HOP_AGENTS[hop] !== step.agent) throw new Error(`step ${step.seq} of ${step.agent} is not hop ${hop}'s`);
    return hop + 1 < HOPS ? { kind: 'continue', to: HOP_AGENTS[hop + 1]! } : { kind: 'await_user' };
  };
  const deps: StepRunnerDeps = { agent: options.agent, handler, store, queues, config, log: createLogger('bench', 'silent') };
  const connection = createRedis(config.redis, 'worker', `bench-floor-${options.agent}`);
  const worker = new Worker(
    queueName(options.agent, 0, config.partitions[options.agent]),
    async (job) => {
      const result = await runStep(job, deps);
      const { seq, turnId } = job.data as { seq: number; turnId: string };
      if (result === 'committed' && hopOf(seq) === HOPS - 1) onEnded(turnId);
      return result;
    },
    { connection, prefix: config.queuePrefix, concurrency: options.concurrency },
  );
  return {
    ready: worker.waitUntilReady().then(() => undefined),
    close: async () => {
      await worker.close();
      await Promise.all(HOP_AGENTS.map((agent) => queues.get(agent).close()));
      connection.disconnect();
      redis.disconnect();
    },
  };
}

/** The same worker in a process of its own (floor-worker.ts), which reports each turn's end over IPC. */
async function spawnFloorWorker(
  options: FloorWorkerOptions,
  onEnded: (turnId: string) => void,
): Promise<{ pid: number; close(): Promise<void> }> {
  const child = spawn(
    process.execPath,
    // tsx as a loader, not its CLI (which runs the script in a child of its own): one process, whose CPU is the worker's.
    ['--import', 'tsx', join(REPO_ROOT, 'scripts', 'bench', 'floor-worker.ts'), JSON.stringify(options)],
    {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    },
  );
  await new Promise<void>((resolve, reject) => {
    child.on('message', (message: { ready?: boolean; ended?: string }) => {
      if (message.ready) resolve();
      if (message.ended) onEnded(message.ended);
    });
    child.once('exit', (code) => reject(new Error(`the floor's ${options.agent} worker exited (${code})`)));
  });
  return {
    pid: child.pid!,
    close: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
