import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Worker } from 'bullmq';
import {
  createAgentQueues,
  createLogger,
  createRedis,
  dispatch,
  loadConfig,
  queueName,
  type RedisClient,
  runStep,
  SessionStore,
  type StepHandler,
  type StepRunnerDeps,
  storeOptions,
} from '@convo/runtime';
import { SessionForm, type AgentName } from '@convo/contract';
import { newFormSession } from '@convo/forms';
import { type BareOptions, type BareResult, HOP_AGENTS, HOPS } from './bare-chain.js';
import { cpuWindow, dropBenchData } from './common.js';

/**
 * The runtime's own floor: the bare chain's three hops (interviewer → reviewer → interviewer), but
 * each one a real step of the runtime on a real session: the turn accepted by the store's script,
 * and every step run by `runStep` (load the session, record the turn's start on its first step,
 * commit with compare-and-set, mark it for the sweeper, add the next job). The agents do nothing
 * (a hand-off, then `ask`), and everything runs in this one process, with no HTTP, SSE or model:
 * what is left above the bare chain is the price of durable, exactly-once steps.
 */
export async function durableChain(url: string, options: BareOptions & { fields: number }): Promise<BareResult> {
  const tag = `bench-floor-${randomUUID().slice(0, 6)}`;
  const config = loadConfig({ REDIS_URL: url, KEY_PREFIX: tag, QUEUE_PREFIX: `{${tag}}`, LOG_LEVEL: 'silent' });
  const log = createLogger('bench', 'silent');
  const redis = createRedis(config.redis, 'worker', 'bench-floor-store');
  const store = new SessionStore(redis, storeOptions(config));
  const queues = createAgentQueues(redis, config.queuePrefix, config.partitions);
  // The hop a turn's step is at (its steps run one after another), and the turns waiting for their end.
  const hopOf = new Map<string, number>();
  const ended = new Map<string, () => void>();
  const handler: StepHandler = async ({ step }) => {
    const hop = hopOf.get(step.turnId) ?? 0;
    hopOf.set(step.turnId, hop + 1);
    return hop + 1 < HOPS ? { kind: 'continue', to: HOP_AGENTS[hop + 1]! } : { kind: 'await_user' };
  };
  const agents = [...new Set(HOP_AGENTS)] as AgentName[];
  const connections: RedisClient[] = [];
  const workers = agents.map((agent) => {
    const deps: StepRunnerDeps = { agent, handler, store, queues, config, log };
    const connection = createRedis(config.redis, 'worker', `bench-floor-${agent}`);
    connections.push(connection);
    return new Worker(
      queueName(agent, 0, config.partitions[agent]),
      async (job) => {
        const result = await runStep(job, deps);
        const { turnId } = job.data as { turnId: string };
        if (hopOf.get(turnId) === HOPS) {
          hopOf.delete(turnId);
          ended.get(turnId)?.();
        }
        return result;
      },
      { connection, prefix: config.queuePrefix, concurrency: options.concurrency },
    );
  });
  const form = SessionForm.parse({
    title: 'bench',
    fields: Array.from({ length: options.fields }, (_, i) => ({
      id: `f${i}`,
      fieldId: `field_${i}`,
      label: `Question ${i}`,
      intent: 'Collect a short description',
      required: true,
      sortOrder: i,
    })),
  });
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
    await Promise.all(workers.map((w) => w.waitUntilReady()));
    const one = await newSession();
    for (let i = 0; i < 20; i++) await turn(one); // warm-up
    const seq: number[] = [];
    const sequential = await newSession();
    for (let i = 0; i < options.turns; i++) seq.push(await turn(sequential));
    const lanes = await Promise.all(Array.from({ length: options.inFlight }, newSession));
    const loaded: number[] = [];
    const cpu = cpuWindow(url, () => ({}));
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
    return {
      single: [],
      seq,
      loaded,
      throughput,
      chains: loaded.length,
      cpu: { services: used.client, redis: used.redis, client: 0, byService: {} },
    };
  } finally {
    await Promise.all(workers.map((w) => w.close()));
    await Promise.all(agents.map((agent) => queues.get(agent).obliterate({ force: true })));
    for (const agent of agents) await queues.get(agent).close();
    for (const c of connections) c.disconnect();
    redis.disconnect();
    await dropBenchData(url, [tag, `{${tag}}`]);
  }
}
