import { z } from 'zod';
import { AGENT_NAMES, type AgentName } from '@convo/contract';
import { tracingConfig, type TracingConfig } from './tracing/env.js';

/**
 * The runtime's configuration, read from the environment once. Everything else
 * receives a frozen `Config`, so tests can build one from a plain object; a
 * product reads its own section the same way (`readEnv` with `envInt`,
 * `envFlag`, `keyList`).
 */

/** An integer variable with its default and least value. */
export const envInt = (def: number, min = 0) => z.coerce.number().int().min(min).default(def);
/** A `true`/`false` variable, `def` (false) unless set. */
export const envFlag = (def = false) =>
  z
    .enum(['true', 'false'])
    .default(def ? 'true' : 'false')
    .transform((value) => value === 'true');

const EnvSchema = z.object({
  NODE_ENV: z.string().default('development'),
  REDIS_URL: z.string().url().default('redis://127.0.0.1:6379'),
  /** Redis Cluster seed nodes (`host:port,host:port`); set, it replaces REDIS_URL and every connection is a cluster client. */
  REDIS_CLUSTER_NODES: z.string().default(''),
  /**
   * Prefix of every BullMQ queue key. Each queue partition's name carries its own hash tag, so the
   * prefix must not carry one on a cluster (it would pull every queue onto one shard); on a single
   * Redis the default `{convo}` is kept for the keys deployments already have.
   */
  QUEUE_PREFIX: z.string().min(1).optional(),
  /** Prefix of the session keys (each session's keys share a `{sessionId}` hash tag). */
  KEY_PREFIX: z.string().min(1).default('convo'),
  LLM_PROVIDER: z.enum(['offline', 'openai']).default('offline'),
  OPENAI_API_KEY: z.string().optional(),
  OPENAI_BASE_URL: z.string().url().optional(),
  LLM_MODEL: z.string().min(1).default('gpt-4.1-mini'),
  LLM_TIMEOUT_MS: envInt(60_000, 1),
  LLM_MAX_RETRIES: envInt(3),
  /** Cap on a reply's tokens (sent as max_tokens); 0 sends none. A reply cut by it fails the call as retryable. */
  LLM_MAX_OUTPUT_TOKENS: envInt(0),
  /** Compatibility switches for OpenAI-compatible servers (README, "Models"). */
  LLM_STRICT_TOOLS: envFlag(true),
  LLM_TOOL_CHOICE: z.enum(['auto', 'required', 'omit']).default('auto'),
  LLM_PARALLEL_TOOL_CALLS: z.enum(['true', 'false', 'omit']).default('omit'),
  LLM_TEMPERATURE: z.coerce.number().min(0).max(2).optional(),
  /** Stream replies (`stream: true`): the text of a question reaches clients as it is generated. */
  LLM_STREAM: envFlag(true),
  /** Where the session state goes: after the history (cache-friendly), or merged into the first system message (templates that accept one system message only). */
  LLM_STATE_POSITION: z.enum(['end', 'start']).default('end'),
  /** Conversation messages an agent sees besides the current field's exchange; older ones are summarised by the state. */
  LLM_HISTORY_MESSAGES: envInt(12, 2),
  /** Estimated prompt tokens an agent may send; older history is left out first (`<AGENT>_PROMPT_TOKEN_BUDGET` per agent). */
  LLM_PROMPT_TOKEN_BUDGET: envInt(6_000, 500),
  /** Simulated model latency of the offline provider (demos, load tests, crash tests). */
  OFFLINE_LATENCY_MS: envInt(0),
  PORT: envInt(8080),
  /** Loopback unless told otherwise: the container image sets 0.0.0.0. */
  HOST: z.string().default('127.0.0.1'),
  /** Origins allowed to call the API from a browser on another origin (comma-separated, or `*`); none by default. */
  CORS_ORIGINS: z.string().default(''),
  /** Operator routes and /metrics; two keys separated by a comma during a rotation (docs: README, Security). */
  OPERATOR_KEY: z.string().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  AGENT_MAX_TURNS: envInt(10, 1),
  MAX_MESSAGE_CHARS: envInt(8000, 1),
  /** Turns a session of any kind accepts in its life (a product may end its conversations earlier). */
  SESSION_TURN_LIMIT: envInt(500, 1),
  /** Longest a worker may spend analysing one piece of text (one synchronous call); past it the turn fails with input_too_complex. */
  TEXT_BUDGET_MS: envInt(1_000, 10),
  /** Per client (IP): sessions created and not yet expired or deleted, and open event streams on one gateway; 0 disables. */
  CLIENT_MAX_SESSIONS: envInt(200, 0),
  CLIENT_MAX_STREAMS: envInt(50, 0),
  /** New work is refused (503) while Redis uses more than this share of its maxmemory (when one is set). */
  SHED_REDIS_MEMORY_RATIO: z.coerce.number().min(0.1).max(1).default(0.9),
  SESSION_TTL_SECONDS: envInt(7 * 24 * 3600, 60),
  EVENTS_MAXLEN: envInt(10_000, 10),
  MAX_QUEUED_TURNS: envInt(20, 1),
  SSE_HEARTBEAT_MS: envInt(15_000, 10),
  SSE_MAX_BUFFER_BYTES: envInt(256 * 1024, 1024),
  SSE_RETRY_MS: envInt(2_000, 0),
  JOB_ATTEMPTS: envInt(3, 1),
  JOB_BACKOFF_MS: envInt(500, 0),
  /** How long a worker's job lock lasts (renewed at half of it): a worker killed with SIGKILL holds its jobs at most this long. */
  JOB_LOCK_MS: envInt(6_000, 1000),
  /** How often each worker looks for jobs whose lock expired and takes them over. */
  JOB_STALLED_INTERVAL_MS: envInt(2_000, 500),
  /** How long a worker puts back a job of a newer schema major than it knows, for a newer worker to take (rolling deploys). */
  JOB_NEWER_VERSION_DELAY_MS: envInt(5_000, 100),
  /** How often a gateway's sweeper looks for steps whose job was lost (a crash between commit and enqueue) or failed for good. */
  SWEEP_INTERVAL_MS: envInt(2_000, 100),
  /** How long a step may wait before the sweeper checks its job. */
  STEP_STALE_MS: envInt(5_000, 100),
  SHUTDOWN_TIMEOUT_MS: envInt(10_000, 0),
  /** Load shedding: waiting jobs in any one agent queue above which new work gets 503. */
  SHED_QUEUE_BACKLOG: envInt(1_000, 1),
  /** How often the gateway reads the queue backlogs (the shedding decision itself reads memory). */
  SHED_CHECK_MS: envInt(200, 10),
  /** Retry-After of a shed request, in seconds; a random extra of up to as much again spreads the retries. */
  SHED_RETRY_AFTER_S: envInt(2, 1),
  /** Requests that create work, per client (IP) and window, across every gateway (Redis store); 0 disables. */
  RATE_LIMIT_MAX: envInt(600, 0),
  RATE_LIMIT_WINDOW_MS: envInt(60_000, 1000),
  /** Take the client address from X-Forwarded-For (behind a proxy you trust). */
  TRUST_PROXY: envFlag(),
  /** Model calls per minute per provider and model, across every worker (Redis); 0 = unlimited. */
  LLM_RPM: envInt(0, 0),
  /** How long a model call may wait for the RPM limit before it fails as retryable. */
  LLM_RATE_MAX_WAIT_MS: envInt(30_000, 0),
  /** How often a worker publishes its metrics for the gateway's /metrics. */
  METRICS_PUSH_MS: envInt(5_000, 50),
  /** Port of a worker's own /healthz, /readyz and /metrics; 0 picks a free port (logged at start). */
  HEALTH_PORT: envInt(0, 0),
});

/** One agent's model settings after its overrides (`<AGENT>_BASE_URL`, …) are applied. */
export type AgentModelSettings = Readonly<{
  baseUrl: string | undefined;
  apiKey: string | undefined;
  temperature: number | undefined;
  maxOutputTokens: number;
  promptTokenBudget: number;
}>;

/** Where Redis is: one server, or the seed nodes of a Redis Cluster. */
export type RedisTarget = Readonly<{ url: string; clusterNodes: readonly Readonly<{ host: string; port: number }>[] | null }>;

export type Config = Readonly<{
  nodeEnv: string;
  redis: RedisTarget;
  queuePrefix: string;
  keyPrefix: string;
  llm: Readonly<{
    provider: 'offline' | 'openai';
    apiKey: string | undefined;
    baseUrl: string | undefined;
    model: string;
    /** Model per agent: `<AGENT>_MODEL` overrides `LLM_MODEL`. */
    models: Readonly<Record<AgentName, string>>;
    /**
     * Per agent, what differs from the shared settings: `<AGENT>_BASE_URL`,
     * `<AGENT>_API_KEY`, `<AGENT>_TEMPERATURE`, `<AGENT>_MAX_OUTPUT_TOKENS`
     * (one agent on a small local model, another on a large remote one).
     */
    agents: Readonly<Record<AgentName, AgentModelSettings>>;
    timeoutMs: number;
    maxRetries: number;
    offlineLatencyMs: number;
    /** Cap on a reply's tokens, sent as `max_tokens`; 0 sends none. */
    maxOutputTokens: number;
    /** `strict: true` on function tools (vLLM without guided decoding, llama.cpp: false). */
    strictTools: boolean;
    /** `tool_choice` sent with tools; `omit` for servers that reject the field. */
    toolChoice: 'auto' | 'required' | 'omit';
    parallelToolCalls: 'true' | 'false' | 'omit';
    temperature: number | undefined;
    /** `stream: true` with usage in the last chunk; false for servers that cannot stream tool calls. */
    stream: boolean;
    /** `start`: every system message merged into the first (chat templates that accept one system message only). */
    statePosition: 'end' | 'start';
    historyMessages: number;
  }>;
  /** Worker concurrency per agent from `<AGENT>_CONCURRENCY`, per queue partition a worker serves. */
  concurrency: Readonly<Record<AgentName, number>>;
  /** Queue partitions per agent (`<AGENT>_PARTITIONS`): a session's steps always go to the same one. */
  partitions: Readonly<Record<AgentName, number>>;
  /** The partitions this process's worker serves (`<AGENT>_WORKER_PARTITIONS`, e.g. `0,2-3`; all by default). */
  workerPartitions: Readonly<Record<AgentName, readonly number[]>>;
  port: number;
  host: string;
  /** Origins allowed cross-origin (`*` for any); empty: no CORS headers, browsers refuse other origins. */
  corsOrigins: readonly string[];
  /** OPERATOR_KEY split at commas: the current key and, during a rotation, the previous one. */
  operatorKeys: readonly string[];
  logLevel: z.infer<typeof EnvSchema>['LOG_LEVEL'];
  agentMaxTurns: number;
  maxMessageChars: number;
  sessionTurnLimit: number;
  textBudgetMs: number;
  /** Per-client quotas (0: none). */
  clientLimits: Readonly<{ sessions: number; streams: number }>;
  sessionTtlSeconds: number;
  eventsMaxLen: number;
  maxQueuedTurns: number;
  sse: Readonly<{ heartbeatMs: number; maxBufferBytes: number; retryMs: number }>;
  jobs: Readonly<{ attempts: number; backoffMs: number; lockMs: number; stalledIntervalMs: number; newerVersionDelayMs: number }>;
  sweepIntervalMs: number;
  stepStaleMs: number;
  shutdownTimeoutMs: number;
  load: Readonly<{
    queueBacklog: number;
    checkMs: number;
    retryAfterSeconds: number;
    rateLimitMax: number;
    rateLimitWindowMs: number;
    trustProxy: boolean;
    redisMemoryRatio: number;
  }>;
  llmRate: Readonly<{ rpm: number; maxWaitMs: number }>;
  metricsPushMs: number;
  healthPort: number;
  /** OpenTelemetry tracing from the standard OTEL_* variables (tracing/env.ts); off unless an exporter is asked for. */
  tracing: TracingConfig;
}>;

export class ConfigError extends Error {}

/**
 * Reads one section of the configuration from the environment, validated like the core's: a product
 * defines its own variables and section with this (its package owns them, the runtime knows none).
 */
export function readEnv<T extends z.ZodRawShape>(shape: T, env: NodeJS.ProcessEnv = process.env): z.infer<z.ZodObject<T>> {
  const parsed = z.object(shape).safeParse(env);
  if (!parsed.success) throw invalidEnvironment(parsed.error);
  return parsed.data;
}

function invalidEnvironment(error: z.ZodError): ConfigError {
  const lines = error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
  return new ConfigError(`invalid environment:\n${lines.join('\n')}`);
}

/** Parses the environment once; throws a readable `ConfigError` listing every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) throw invalidEnvironment(parsed.error);
  const vars = parsed.data;
  if (vars.LLM_PROVIDER === 'openai' && !vars.OPENAI_API_KEY && !vars.OPENAI_BASE_URL) {
    throw new ConfigError('LLM_PROVIDER=openai needs OPENAI_API_KEY (or OPENAI_BASE_URL for a local compatible server)');
  }
  const perAgent = <T>(suffix: string, parse: (value: string | undefined) => T): Record<AgentName, T> =>
    Object.fromEntries(AGENT_NAMES.map((agent) => [agent, parse(env[`${agent.toUpperCase()}_${suffix}`])])) as Record<AgentName, T>;
  const concurrency = perAgent('CONCURRENCY', (value) => {
    const count = value === undefined || value === '' ? 4 : Number(value);
    if (!Number.isInteger(count) || count < 1) throw new ConfigError(`<AGENT>_CONCURRENCY must be a positive integer, got ${value}`);
    return count;
  });
  const partitions = perAgent('PARTITIONS', (value) => {
    const count = value === undefined || value === '' ? 1 : Number(value);
    if (!Number.isInteger(count) || count < 1 || count > MAX_PARTITIONS)
      throw new ConfigError(`<AGENT>_PARTITIONS must be an integer from 1 to ${MAX_PARTITIONS}, got ${value}`);
    return count;
  });
  const workerPartitions = Object.fromEntries(
    AGENT_NAMES.map((agent) => [agent, Object.freeze(partitionList(env[`${agent.toUpperCase()}_WORKER_PARTITIONS`], partitions[agent]))]),
  ) as Record<AgentName, readonly number[]>;
  const clusterNodes = vars.REDIS_CLUSTER_NODES.trim() === '' ? null : parseClusterNodes(vars.REDIS_CLUSTER_NODES);
  if (clusterNodes && vars.QUEUE_PREFIX?.includes('{')) {
    throw new ConfigError(
      `QUEUE_PREFIX must not contain a hash tag on a Redis Cluster (each queue partition has its own), got ${vars.QUEUE_PREFIX}`,
    );
  }
  const models = perAgent('MODEL', (value) => (value && value.length > 0 ? value : vars.LLM_MODEL));
  const number = (name: string, value: string | undefined, low: number, high: number): number | undefined => {
    if (value === undefined || value === '') return undefined;
    const parsedNumber = Number(value);
    if (!Number.isFinite(parsedNumber) || parsedNumber < low || parsedNumber > high)
      throw new ConfigError(`<AGENT>_${name} must be a number from ${low} to ${high}, got ${value}`);
    return parsedNumber;
  };
  const agentSettings = Object.fromEntries(
    AGENT_NAMES.map((agent) => {
      const read = (suffix: string) => env[`${agent.toUpperCase()}_${suffix}`];
      const settings: AgentModelSettings = {
        baseUrl: read('BASE_URL') || vars.OPENAI_BASE_URL,
        apiKey: read('API_KEY') || vars.OPENAI_API_KEY,
        temperature: number('TEMPERATURE', read('TEMPERATURE'), 0, 2) ?? vars.LLM_TEMPERATURE,
        maxOutputTokens: number('MAX_OUTPUT_TOKENS', read('MAX_OUTPUT_TOKENS'), 0, 1_000_000) ?? vars.LLM_MAX_OUTPUT_TOKENS,
        promptTokenBudget: number('PROMPT_TOKEN_BUDGET', read('PROMPT_TOKEN_BUDGET'), 500, 10_000_000) ?? vars.LLM_PROMPT_TOKEN_BUDGET,
      };
      return [agent, Object.freeze(settings)];
    }),
  ) as Record<AgentName, AgentModelSettings>;
  let tracing: TracingConfig;
  try {
    tracing = tracingConfig(env);
  } catch (err) {
    throw new ConfigError(`invalid environment:\n  ${(err as Error).message}`);
  }
  return Object.freeze({
    nodeEnv: vars.NODE_ENV,
    redis: Object.freeze({ url: vars.REDIS_URL, clusterNodes }),
    queuePrefix: vars.QUEUE_PREFIX ?? (clusterNodes ? 'convo-q' : '{convo}'),
    keyPrefix: vars.KEY_PREFIX,
    llm: Object.freeze({
      provider: vars.LLM_PROVIDER,
      apiKey: vars.OPENAI_API_KEY,
      baseUrl: vars.OPENAI_BASE_URL,
      model: vars.LLM_MODEL,
      models: Object.freeze(models),
      agents: Object.freeze(agentSettings),
      timeoutMs: vars.LLM_TIMEOUT_MS,
      maxRetries: vars.LLM_MAX_RETRIES,
      offlineLatencyMs: vars.OFFLINE_LATENCY_MS,
      maxOutputTokens: vars.LLM_MAX_OUTPUT_TOKENS,
      strictTools: vars.LLM_STRICT_TOOLS,
      toolChoice: vars.LLM_TOOL_CHOICE,
      parallelToolCalls: vars.LLM_PARALLEL_TOOL_CALLS,
      temperature: vars.LLM_TEMPERATURE,
      stream: vars.LLM_STREAM,
      statePosition: vars.LLM_STATE_POSITION,
      historyMessages: vars.LLM_HISTORY_MESSAGES,
    }),
    concurrency: Object.freeze(concurrency),
    partitions: Object.freeze(partitions),
    workerPartitions: Object.freeze(workerPartitions),
    port: vars.PORT,
    host: vars.HOST,
    corsOrigins: vars.CORS_ORIGINS.split(',')
      .map((origin) => origin.trim())
      .filter(Boolean),
    operatorKeys: keyList(vars.OPERATOR_KEY),
    logLevel: vars.LOG_LEVEL,
    agentMaxTurns: vars.AGENT_MAX_TURNS,
    maxMessageChars: vars.MAX_MESSAGE_CHARS,
    sessionTurnLimit: vars.SESSION_TURN_LIMIT,
    textBudgetMs: vars.TEXT_BUDGET_MS,
    clientLimits: Object.freeze({ sessions: vars.CLIENT_MAX_SESSIONS, streams: vars.CLIENT_MAX_STREAMS }),
    sessionTtlSeconds: vars.SESSION_TTL_SECONDS,
    eventsMaxLen: vars.EVENTS_MAXLEN,
    maxQueuedTurns: vars.MAX_QUEUED_TURNS,
    sse: Object.freeze({ heartbeatMs: vars.SSE_HEARTBEAT_MS, maxBufferBytes: vars.SSE_MAX_BUFFER_BYTES, retryMs: vars.SSE_RETRY_MS }),
    jobs: Object.freeze({
      attempts: vars.JOB_ATTEMPTS,
      backoffMs: vars.JOB_BACKOFF_MS,
      lockMs: vars.JOB_LOCK_MS,
      stalledIntervalMs: vars.JOB_STALLED_INTERVAL_MS,
      newerVersionDelayMs: vars.JOB_NEWER_VERSION_DELAY_MS,
    }),
    sweepIntervalMs: vars.SWEEP_INTERVAL_MS,
    stepStaleMs: vars.STEP_STALE_MS,
    shutdownTimeoutMs: vars.SHUTDOWN_TIMEOUT_MS,
    load: Object.freeze({
      queueBacklog: vars.SHED_QUEUE_BACKLOG,
      checkMs: vars.SHED_CHECK_MS,
      retryAfterSeconds: vars.SHED_RETRY_AFTER_S,
      rateLimitMax: vars.RATE_LIMIT_MAX,
      rateLimitWindowMs: vars.RATE_LIMIT_WINDOW_MS,
      trustProxy: vars.TRUST_PROXY,
      redisMemoryRatio: vars.SHED_REDIS_MEMORY_RATIO,
    }),
    llmRate: Object.freeze({ rpm: vars.LLM_RPM, maxWaitMs: vars.LLM_RATE_MAX_WAIT_MS }),
    metricsPushMs: vars.METRICS_PUSH_MS,
    healthPort: vars.HEALTH_PORT,
    tracing,
  });
}

/** A key variable's keys: comma-separated, blanks dropped (a rotation lists the new key and the old one). */
export function keyList(value: string | undefined): readonly string[] {
  return Object.freeze(
    (value ?? '')
      .split(',')
      .map((key) => key.trim())
      .filter(Boolean),
  );
}

const MAX_PARTITIONS = 1024;

/** `host:port,host:port` (IPv6 hosts in brackets) → the seed nodes of a cluster. */
export function parseClusterNodes(text: string): { host: string; port: number }[] {
  return text.split(',').map((entry) => {
    const trimmed = entry.trim();
    const match = /^(.+):(\d{1,5})$/.exec(trimmed);
    const port = match ? Number(match[2]) : NaN;
    if (!match || port < 1 || port > 65_535)
      throw new ConfigError(`REDIS_CLUSTER_NODES must be host:port pairs separated by commas, got "${trimmed}"`);
    return Object.freeze({ host: match[1]!.replace(/^\[(.*)\]$/, '$1'), port });
  });
}

/** `0,2-3` → [0, 2, 3]; empty → every partition. */
function partitionList(text: string | undefined, count: number): number[] {
  if (text === undefined || text.trim() === '') return Array.from({ length: count }, (_, i) => i);
  const chosen = new Set<number>();
  for (const part of text.split(',')) {
    const match = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(part);
    const low = match ? Number(match[1]) : NaN;
    const high = match?.[2] !== undefined ? Number(match[2]) : low;
    if (!match || high < low || high >= count)
      throw new ConfigError(`<AGENT>_WORKER_PARTITIONS must list partitions from 0 to ${count - 1} (e.g. 0,2-3), got "${text}"`);
    for (let p = low; p <= high; p++) chosen.add(p);
  }
  return [...chosen].sort((a, b) => a - b);
}
