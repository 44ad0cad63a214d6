import { Counter, Histogram, Registry } from 'prom-client';

/**
 * The figures every worker process records (job durations, model calls,
 * turn latency). They live in a registry of their own, published to Redis
 * (metrics-store.ts) so the gateway's /metrics can add up every replica's.
 * Names follow Prometheus conventions: seconds, `_total` for counters.
 */
export type RuntimeMetrics = {
  registry: Registry;
  /** Turn accepted (POST) → its turn.completed / turn.failed committed. */
  turnDuration: Histogram<'kind' | 'outcome'>;
  jobDuration: Histogram<'agent' | 'job' | 'outcome'>;
  llmDuration: Histogram<'agent' | 'provider' | 'model' | 'outcome'>;
  llmTokens: Counter<'agent' | 'provider' | 'model' | 'kind'>;
  /** Model calls that had to wait for the per-model RPM limit, and how long. */
  llmRateWait: Histogram<'provider' | 'model'>;
  /** Jobs a worker put back because their schema major is newer than it knows (queues/versions.ts): old workers during a rolling deploy. */
  jobsDeferred: Counter<'agent' | 'job' | 'version'>;
};

/** Buckets from 1 ms to 2 min: queue hops are milliseconds, model calls seconds. */
const SECONDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

export function createRuntimeMetrics(): RuntimeMetrics {
  const registry = new Registry();
  const registers = [registry];
  return {
    registry,
    turnDuration: new Histogram({
      name: 'convo_turn_duration_seconds',
      help: 'Time from a turn accepted by the gateway to its turn.completed or turn.failed',
      labelNames: ['kind', 'outcome'],
      buckets: SECONDS,
      registers,
    }),
    jobDuration: new Histogram({
      name: 'convo_agent_job_duration_seconds',
      help: 'Time an agent worker spent on one job',
      labelNames: ['agent', 'job', 'outcome'],
      buckets: SECONDS,
      registers,
    }),
    llmDuration: new Histogram({
      name: 'convo_llm_call_duration_seconds',
      help: 'Latency of one model call, retries included',
      labelNames: ['agent', 'provider', 'model', 'outcome'],
      buckets: SECONDS,
      registers,
    }),
    llmTokens: new Counter({
      name: 'convo_llm_tokens_total',
      help: 'Tokens of model calls, by kind (prompt, completion)',
      labelNames: ['agent', 'provider', 'model', 'kind'],
      registers,
    }),
    llmRateWait: new Histogram({
      name: 'convo_llm_rate_limit_wait_seconds',
      help: 'Time model calls waited for the per-model RPM limit (LLM_RPM)',
      labelNames: ['provider', 'model'],
      buckets: SECONDS,
      registers,
    }),
    jobsDeferred: new Counter({
      name: 'convo_jobs_deferred_total',
      help: 'Jobs left for a newer worker because their payload schema version is newer than this worker knows',
      labelNames: ['agent', 'job', 'version'],
      registers,
    }),
  };
}
