import { Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { AgentName } from '../agents-list.js';
import { loadConfig, type Config } from '../config.js';
import { createProvider } from '../llm/index.js';
import type { LlmProvider } from '../llm/types.js';
import { createLogger, type Logger } from '../logger.js';
import { createAgentQueues, queueName } from '../queues/catalog.js';
import { createRedis } from '../redis/connection.js';
import { SessionStore } from '../store/session-store.js';
import type { StepHandler } from './step-handler.js';
import { runStep } from './step-runner.js';

export type ServiceDeps = { config: Config; llm: LlmProvider; log: Logger; redis: Redis };

/** A service's step handler plus handlers of other job names on its queue (the search agent's single-shot queries). */
export type ServiceHandlers = { step: StepHandler; jobs?: Record<string, (data: unknown, signal?: AbortSignal) => Promise<unknown>> };

/**
 * The whole worker entry of an agent service: one BullMQ Worker on the
 * agent's queue, `<AGENT>_CONCURRENCY` jobs at a time, stopped gracefully on
 * SIGTERM/SIGINT within SHUTDOWN_TIMEOUT_MS (active jobs not finished by then
 * are handed back to the queue through the stalled-job check).
 */
export async function runAgentService(
  agent: AgentName,
  build: (deps: ServiceDeps) => StepHandler | ServiceHandlers | Promise<StepHandler | ServiceHandlers>,
): Promise<void> {
  const config = loadConfig();
  const log = createLogger(agent, config.logLevel).child({ agent });
  const llm = createProvider(config, log);
  const redis = createRedis(config.redisUrl, 'worker', `${agent}-store`);
  const built = await build({ config, llm, log, redis });
  const { step: handler, jobs = {} } = typeof built === 'function' ? { step: built } : built;
  const store = new SessionStore(redis, {
    prefix: config.keyPrefix,
    ttlSeconds: config.sessionTtlSeconds,
    eventsMaxLen: config.eventsMaxLen,
  });
  const queues = createAgentQueues(redis, config.queuePrefix);
  const deps = { agent, handler, store, queues, config, log };
  const worker = new Worker(
    queueName(agent),
    (job, _token, signal) => {
      const other = jobs[job.name];
      return other ? other(job.data, signal) : runStep(job, deps, signal);
    },
    {
      connection: createRedis(config.redisUrl, 'worker', `${agent}-worker`),
      prefix: config.queuePrefix,
      concurrency: config.concurrency[agent],
      lockDuration: config.jobs.lockMs,
      stalledInterval: config.jobs.stalledIntervalMs,
      maxStalledCount: 2,
    },
  );
  worker.on('failed', (job, err) => log.warn({ jobId: job?.id, err: err.message }, 'job failed'));
  worker.on('error', (err) => log.error({ err: err.message }, 'worker error'));
  await worker.waitUntilReady();
  log.info({ queue: queueName(agent), concurrency: config.concurrency[agent], provider: llm.name }, 'ready');

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    const deadline = new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), config.shutdownTimeoutMs).unref());
    const closed = await Promise.race([worker.close().then(() => 'closed' as const), deadline]);
    if (closed === 'timeout') {
      log.warn('active jobs did not finish before the deadline; they will be retried elsewhere');
      await worker.close(true).catch(() => undefined);
    }
    await queues.closeAll().catch(() => undefined);
    redis.disconnect();
    log.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

/** `main().catch(...)` for every service entry point. */
export function runMain(main: () => Promise<void>): void {
  main().catch((err: unknown) => {
    console.error(JSON.stringify({ level: 'fatal', msg: 'failed to start', err: err instanceof Error ? err.message : String(err) }));
    process.exit(1);
  });
}
