import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { WaitingError, Worker, type Job } from 'bullmq';
import {
  AppError,
  ATTR,
  type Config,
  createAgentQueues,
  createLogger,
  createRedis,
  createRuntimeMetrics,
  deferNewerJob,
  extractTrace,
  inSpan,
  loadConfig,
  pingWithin,
  type Logger,
  queueName,
  type RedisClient,
  runStep,
  type RuntimeMetrics,
  SessionStore,
  SpanKind,
  startHealthServer,
  startMetricsPublisher,
  startTracing,
  storeOptions,
  type StepHandler,
  traceOf,
  type ProductHooks,
  type SessionDraft,
} from '@convo/runtime';
import { type AgentName } from '@convo/contract';
import { setTextBudgetMs, TextBudgetExceededError } from '@convo/text';
import { createProvider } from './llm/index.js';
import type { Policy } from './llm/offline/index.js';
import { instrumentProvider } from './llm/instrumented.js';
import { rateLimitProvider } from './llm/rate-limited.js';
import type { LlmProvider } from './llm/types.js';

/** What a service's build step gets; `metrics` is the worker's registry, for figures of the service's own. */
export type ServiceDeps = { config: Config; llm: LlmProvider; log: Logger; redis: RedisClient; metrics: RuntimeMetrics };

/** A service's step handler plus handlers of other job names on its queue (the search agent's single-shot queries). */
export type ServiceHandlers<D extends SessionDraft = SessionDraft> = {
  step: StepHandler<D>;
  jobs?: Record<string, (data: unknown, signal?: AbortSignal) => Promise<unknown>>;
};

/**
 * What a service adds to the runtime: its agent's offline policy (the offline
 * model's rules for it), the hooks of the product whose sessions it runs (its
 * draft, how user messages are taken, how a failed turn is repaired; the core
 * alone without), and what to load before the first job.
 */
export type ServiceOptions<D extends SessionDraft = SessionDraft> = {
  offline?: Policy;
  product?: ProductHooks<D>;
  warmUp?: () => Promise<unknown>;
};

/** After the shutdown deadline, how long cancelled jobs get to hand themselves back before the worker is cut off. */
const HAND_BACK_GRACE_MS = 2_000;

/**
 * The whole worker entry of an agent service: one BullMQ Worker on the
 * agent's queue, `<AGENT>_CONCURRENCY` jobs at a time; the model behind the
 * RPM limit and instrumented; its metrics published for the gateway and
 * served with its probes on HEALTH_PORT.
 *
 * SIGTERM/SIGINT: readiness goes 503, the worker stops taking jobs and waits
 * for the active ones up to SHUTDOWN_TIMEOUT_MS; jobs still running then are
 * cancelled and moved straight back to the queue (not counted as an attempt),
 * so another replica takes them at once instead of after the stalled-job
 * check. A step that is cut off has committed nothing (commits are
 * compare-and-set), so running it again elsewhere is safe.
 *
 * A job whose payload schema is newer than this release knows is put back
 * for a newer worker before anything reads it (deferNewerJob). With tracing
 * on (OTEL_*), each job runs in a consumer span continuing the trace it was
 * enqueued in, and what is buffered is exported before the process exits.
 */
export async function runAgentService<D extends SessionDraft = SessionDraft>(
  agent: AgentName,
  build: (deps: ServiceDeps) => StepHandler<D> | ServiceHandlers<D> | Promise<StepHandler<D> | ServiceHandlers<D>>,
  options: ServiceOptions<D> = {},
): Promise<void> {
  const config = loadConfig();
  setTextBudgetMs(config.textBudgetMs);
  const log = createLogger(agent, config.logLevel, { traceIds: config.tracing.enabled }).child({ agent });
  const tracing = startTracing(agent, config.tracing, { log });
  const redis = createRedis(config.redis, 'worker', `${agent}-store`);
  const metrics = createRuntimeMetrics();
  const llm = rateLimitProvider(
    instrumentProvider(createProvider(config, log, options.offline ? { [agent]: options.offline } : {}, agent), metrics),
    redis,
    { ...config.llmRate, prefix: config.keyPrefix },
    metrics,
  );
  await options.warmUp?.();
  const built = await build({ config, llm, log, redis, metrics });
  const { step: rawHandler, jobs = {} } = typeof built === 'function' ? { step: built } : built;
  const handler: StepHandler<D> = (input) => rawHandler(input).catch(rethrowBudgetExceeded);
  const store = new SessionStore(redis, storeOptions(config));
  const queues = createAgentQueues(redis, config.queuePrefix, config.partitions);
  const deps = { agent, handler, store, queues, config, log, metrics, product: options.product };
  let stopping = false;
  // Step jobs running here by session (and the worker running each), so a cancel of a session's turn aborts its model call.
  const running = new Map<string, { jobId: string; worker: Worker }>();

  const process_ = async (worker: Worker, job: Job, token: string | undefined, signal: AbortSignal | undefined) => {
    await deferNewerJob(job, token, { delayMs: config.jobs.newerVersionDelayMs, log, metrics, agent });
    const other = jobs[job.name];
    const end = metrics.jobDuration.startTimer({ agent, job: job.name });
    const sessionId = other ? null : sessionOf(job.data);
    if (sessionId && job.id) running.set(sessionId, { jobId: job.id, worker });
    try {
      // runStep opens the step's span itself (it knows the session and turn); other jobs get one here.
      const result = other
        ? await inJobSpan(agent, job, () => other(job.data, signal).catch(rethrowBudgetExceeded))
        : await runStep(job, deps, signal);
      end({ outcome: 'ok' });
      return result;
    } catch (err) {
      if (stopping && signal?.aborted) {
        end({ outcome: 'handed_back' });
        await job.moveToWait(token);
        throw new WaitingError();
      }
      end({ outcome: 'error' });
      throw err;
    } finally {
      if (sessionId && running.get(sessionId)?.jobId === job.id) running.delete(sessionId);
    }
  };

  // One BullMQ worker per queue partition this process serves, each on its own connection (its blocking reads wait alone).
  const workers = config.workerPartitions[agent].map((partition) => {
    const worker: Worker = new Worker(
      queueName(agent, partition, config.partitions[agent]),
      (job, token, signal) => process_(worker, job, token, signal),
      {
        connection: createRedis(config.redis, 'worker', `${agent}-worker-${partition}`),
        prefix: config.queuePrefix,
        concurrency: config.concurrency[agent],
        lockDuration: config.jobs.lockMs,
        stalledInterval: config.jobs.stalledIntervalMs,
        maxStalledCount: 2,
      },
    );
    worker.on('failed', (job, err) => log.warn({ jobId: job?.id, err: err.message }, 'job failed'));
    worker.on('error', (err) => log.error({ err: err.message }, 'worker error'));
    return worker;
  });
  await Promise.all(workers.map((worker) => worker.waitUntilReady()));
  const cancels = await listenForCancels(config, store.cancelChannel, agent, log, (sessionId) => {
    const job = running.get(sessionId);
    // The step itself sees the cancel mark and ends the turn as cancelled; aborting only stops its model call early.
    if (job && job.worker.cancelJob(job.jobId, 'cancelled'))
      log.info({ sessionId, jobId: job.jobId }, 'running step aborted: its turn was cancelled');
  });

  const instance = `${agent}-${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
  const publisher = startMetricsPublisher(redis, metrics.registry, {
    prefix: config.keyPrefix,
    service: agent,
    instance,
    intervalMs: config.metricsPushMs,
    log,
  });
  const health = await startHealthServer(config.healthPort, {
    registry: metrics.registry,
    ready: async () => !stopping && workers.every((worker) => worker.isRunning()) && (await pingWithin(redis, 1_000)),
  });
  log.info(
    {
      queues: workers.map((worker) => worker.name),
      concurrency: config.concurrency[agent],
      provider: llm.name,
      healthPort: health.port,
      // From the process's start (performance's time origin) to this line, and what it holds now: an operator's cold-start figures.
      startupMs: Math.round(performance.now()),
      rssMb: Math.round(process.memoryUsage.rss() / 1e6),
    },
    'ready',
  );

  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    const closing = Promise.all(workers.map((worker) => worker.close()));
    const finished = await Promise.race([closing.then(() => true), delay(config.shutdownTimeoutMs).then(() => false)]);
    if (!finished) {
      log.warn('active jobs did not finish before the deadline; handing them back to the queue');
      for (const worker of workers) worker.cancelAllJobs('shutdown');
      const handedBack = await Promise.race([closing.then(() => true), delay(HAND_BACK_GRACE_MS).then(() => false)]);
      // A job that ignored its cancellation is recovered by the stalled-job check on another replica.
      if (!handedBack) await Promise.all(workers.map((worker) => worker.close(true).catch(() => undefined)));
    }
    cancels.disconnect();
    await publisher.stop();
    await health.close();
    await queues.closeAll().catch(() => undefined);
    redis.disconnect();
    log.info('stopped');
    await tracing.shutdown();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

/**
 * Text that took longer than TEXT_BUDGET_MS to analyse fails its turn (or job) at once as
 * `input_too_complex`: it is the input's doing, so running it again would only stall the worker again.
 */
function rethrowBudgetExceeded(err: unknown): never {
  if (err instanceof TextBudgetExceededError) throw new AppError(err.code, err.message, { status: 422, retryable: false, cause: err });
  throw err;
}

/** A consumer span `<job name> <agent>` for a job other than a step (the search agent's queries), in the trace it was enqueued in. */
function inJobSpan<T>(agent: AgentName, job: Job, fn: () => Promise<T>): Promise<T> {
  const attributes = {
    [ATTR.agent]: agent,
    [ATTR.messagingSystem]: 'bullmq',
    [ATTR.messagingOperationType]: 'process',
    [ATTR.messagingOperationName]: 'process',
    [ATTR.messagingDestination]: job.queueName,
    ...(job.id ? { [ATTR.messagingMessageId]: job.id } : {}),
  };
  return inSpan(`${job.name} ${agent}`, { kind: SpanKind.CONSUMER, parent: extractTrace(traceOf(job.data)), attributes }, fn);
}

/** The session a step job belongs to, or null for a payload that is not one (rejected later by runStep). */
function sessionOf(data: unknown): string | null {
  const sessionId = (data as { sessionId?: unknown } | null)?.sessionId;
  return typeof sessionId === 'string' ? sessionId : null;
}

/** One connection in subscriber mode on the cancel channel; `onCancel` gets the session whose running turn was cancelled. */
async function listenForCancels(
  config: Config,
  channel: string,
  agent: AgentName,
  log: Logger,
  onCancel: (sessionId: string) => void,
): Promise<RedisClient> {
  const subscriber = createRedis(config.redis, 'worker', `${agent}-cancel`);
  subscriber.on('message', (_channel: string, payload: string) => {
    try {
      const { sessionId } = JSON.parse(payload) as { sessionId?: unknown };
      if (typeof sessionId === 'string') onCancel(sessionId);
    } catch {
      log.warn({ bytes: payload.length }, 'unreadable cancel message');
    }
  });
  await subscriber.subscribe(channel);
  return subscriber;
}

function delay(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms).unref());
}

/** `main().catch(...)` for every service entry point. */
export function runMain(main: () => Promise<void>): void {
  main().catch((err: unknown) => {
    console.error(JSON.stringify({ level: 'fatal', msg: 'failed to start', err: err instanceof Error ? err.message : String(err) }));
    process.exit(1);
  });
}

export type { RuntimeMetrics };
