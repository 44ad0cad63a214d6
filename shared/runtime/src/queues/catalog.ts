import { Queue, type ConnectionOptions, type Job, type JobsOptions } from 'bullmq';
import { z } from 'zod';
import { AGENT_NAMES, type AgentName } from '@convo/contract';
import type { Config } from '../config.js';
import calculateSlot from 'cluster-key-slot';
import { stableHash } from '../redis/hash.js';
import { JOB_SCHEMA_VERSION, JobSchemaVersion, JobTrace } from '@convo/contract';
import { AgentName as AgentNameSchema, type Step } from '@convo/contract';
import { injectTrace } from '../tracing/propagation.js';

/**
 * The job catalog: each agent's queue, split into `<AGENT>_PARTITIONS`
 * partitions, and two kinds of job: `step` (one step of a session's turn, on
 * every agent's queue) and requests (single-shot jobs a request waits for,
 * whose names and payloads a product defines as a RequestJobKind).
 * `enqueueStep` and `enqueueRequest` are the only ways a job reaches a queue,
 * so queue names and job ids are never spelled anywhere else.
 *
 * Every partition's name is its own hash tag, so on a Redis Cluster the
 * partitions spread over the shards (BullMQ keeps each queue's keys in one
 * slot). A session's steps always go to the same partition of an agent, so
 * its jobs never race each other across partitions (the session's compare-
 * and-set commits keep them exactly-once either way).
 */
export const STEP_JOB_NAME = 'step';

export const StepJob = z.object({
  v: JobSchemaVersion,
  sessionId: z.string().min(1),
  seq: z.number().int().min(1),
  agent: AgentNameSchema,
  turnId: z.string().min(1),
  /** The trace the step continues (propagation.ts): the dispatching step's span, or the request that accepted the turn. */
  trace: JobTrace,
});
export type StepJob = z.infer<typeof StepJob>;

/** What operators see (metrics, logs): the agent's queue, whatever its partitions. */
export function queueLabel(agent: AgentName): string {
  return `agent-${agent}`;
}

const SLOTS = 16_384;
const names = new Map<string, string>();

/**
 * The BullMQ queue name of partition `partition` of `partitions`: a hash tag of
 * its own, `{agent-<agent>-<partition>.<k>}`, with k the first number that
 * puts the tag's slot in the partition's share of the slot space (partition p
 * of N gets the p-th N-th). A cluster's slots are split among its masters in
 * contiguous ranges, so N partitions on a multiple of N shards (or N a
 * multiple of the shards) land on different shards instead of wherever a
 * hash of the names happens to fall. Every process computes the same names.
 */
export function queueName(agent: AgentName, partition: number, partitions: number): string {
  const cacheKey = `${agent}/${partition}/${partitions}`;
  let name = names.get(cacheKey);
  if (!name) {
    const [low, high] = [Math.floor((partition * SLOTS) / partitions), Math.floor(((partition + 1) * SLOTS) / partitions)];
    for (let k = 0; ; k++) {
      const tag = `${queueLabel(agent)}-${partition}.${k}`;
      const slot = calculateSlot(tag);
      if (slot >= low && slot < high) {
        name = `{${tag}}`;
        break;
      }
    }
    names.set(cacheKey, name);
  }
  return name;
}

/** The partition of a session among `count`: FNV-1a of its id, so every process routes it alike. */
export function partitionOf(sessionId: string, count: number): number {
  return count <= 1 ? 0 : stableHash(sessionId) % count;
}

/** Deterministic: the same step is enqueued at most once however often it is dispatched. */
export function stepJobId(sessionId: string, seq: number): string {
  return `step-${sessionId}-${seq}`;
}

export function stepJobOptions(config: Config): JobsOptions {
  return {
    attempts: config.jobs.attempts,
    backoff: { type: 'exponential', delay: config.jobs.backoffMs, jitter: 0.5 },
    // Keep finished jobs a while so a re-dispatch of a finished step is a no-op, but bounded.
    removeOnComplete: { age: 3600, count: 10_000 },
    removeOnFail: { age: 24 * 3600, count: 10_000 },
  };
}

export type AgentQueues = {
  /** One partition's queue (the first by default). */
  get(agent: AgentName, partition?: number): Queue;
  /** The partition that holds a session's steps for this agent. */
  forSession(agent: AgentName, sessionId: string): Queue;
  /** Every partition of the agent, in order. */
  all(agent: AgentName): Queue[];
  closeAll(): Promise<void>;
};

/** Lazily creates one producer Queue per agent partition on a shared connection. */
export function createAgentQueues(
  connection: ConnectionOptions,
  prefix: string,
  partitions: Readonly<Record<AgentName, number>>,
): AgentQueues {
  const queues = new Map<string, Queue>();
  const get = (agent: AgentName, partition = 0): Queue => {
    const name = queueName(agent, partition, partitions[agent]);
    let queue = queues.get(name);
    if (!queue) {
      queue = new Queue(name, { connection, prefix });
      queues.set(name, queue);
    }
    return queue;
  };
  return {
    get,
    forSession: (agent, sessionId) => get(agent, partitionOf(sessionId, partitions[agent])),
    all: (agent) => Array.from({ length: partitions[agent] }, (_, partition) => get(agent, partition)),
    async closeAll() {
      await Promise.all([...queues.values()].map((queue) => queue.close()));
      queues.clear();
    },
  };
}

/** The job carries the active trace context, so the step's span continues the trace of whatever dispatched it. */
export async function enqueueStep(queues: AgentQueues, config: Config, sessionId: string, step: Step): Promise<void> {
  const payload: StepJob = {
    v: JOB_SCHEMA_VERSION,
    sessionId,
    seq: step.seq,
    agent: step.agent,
    turnId: step.turnId,
    trace: injectTrace(),
  };
  await queues
    .forSession(step.agent, sessionId)
    .add(STEP_JOB_NAME, payload, { ...stepJobOptions(config), jobId: stepJobId(sessionId, step.seq) });
}

/**
 * What a request job needs: a name on the agent's queue, the schema of its payload (with its `trace`), and
 * its attempts (a read-only job may be retried; a deterministic one would only fail again). A product
 * defines its request jobs with this (a single-shot query, an analysis a page waits for).
 */
export type RequestJobKind<T extends { trace?: unknown }> = {
  agent: AgentName;
  name: string;
  schema: z.ZodType<T>;
  options: Pick<JobsOptions, 'attempts' | 'backoff'>;
};

/** A finished request is kept only as long as a waiting request may still read its result. */
const REQUEST_RETENTION: JobsOptions = { removeOnComplete: { age: 60, count: 1000 }, removeOnFail: { age: 3600, count: 1000 } };

/**
 * A single-shot job a request waits for, beside the session steps on an agent's queue. Requests all go to the
 * agent's first partition, so one QueueEvents stream tells every waiting request; the job carries the active
 * trace context unless the payload names one.
 */
export async function enqueueRequest<T extends { trace?: unknown }>(
  queues: AgentQueues,
  kind: RequestJobKind<T>,
  payload: T,
): Promise<Job> {
  return queues
    .get(kind.agent)
    .add(kind.name, kind.schema.parse({ ...payload, trace: payload.trace ?? injectTrace() }), { ...REQUEST_RETENTION, ...kind.options });
}

export const ALL_AGENTS: readonly AgentName[] = AGENT_NAMES;
