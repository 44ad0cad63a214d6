import OpenAI from 'openai';
import { ProviderError } from '@convo/runtime';

/**
 * What every caller of an OpenAI-compatible API shares: building the SDK
 * client without it reading the environment, and our own retry policy. The
 * chat provider and the FAQ embeddings client both go through here, so a 429
 * or a dropped connection is treated the same way on both paths.
 */

/** The two log levels the OpenAI callers use; a pino logger fits. */
export type ProviderLog = { debug(obj: object, msg?: string): void; warn(obj: object, msg?: string): void };

export type OpenAiClientOptions = {
  /** Required for api.openai.com; local OpenAI-compatible servers (with `baseUrl`) usually need none. */
  apiKey?: string;
  /** Defaults to `https://api.openai.com/v1`. */
  baseUrl?: string;
  /** Time limit of one HTTP attempt, not of the whole call with its retries. */
  timeoutMs: number;
};

/** Placeholder key: the SDK refuses to start without one, local servers ignore it. */
const NO_KEY = 'not-needed';
const DEFAULT_BASE_URL = 'https://api.openai.com/v1';
/** A server asking for a longer pause than this ends the retries: the job queue's backoff takes over. */
const MAX_RETRY_AFTER_MS = 60_000;

/**
 * The SDK client with retries switched off: ours are in `withRetries`. The SDK
 * honours Retry-After without an upper bound, sleeps through an abort of the
 * request's signal, has a fixed 0.5 s base delay and cannot report a retry to
 * our logger.
 */
export function createOpenAiClient(opts: OpenAiClientOptions): OpenAI {
  if (!opts.apiKey && !opts.baseUrl) {
    throw new Error('openai provider needs an apiKey (or a baseUrl for a local OpenAI-compatible server)');
  }
  // Every option the SDK would otherwise read from process.env is set here: only config.ts reads the environment.
  return new OpenAI({
    apiKey: opts.apiKey ?? NO_KEY,
    baseURL: opts.baseUrl ?? DEFAULT_BASE_URL,
    organization: null,
    project: null,
    timeout: opts.timeoutMs,
    maxRetries: 0,
  });
}

export type RetryPolicy = {
  /** Further attempts after the first. */
  maxRetries: number;
  /** First backoff delay when the server sends no Retry-After; doubles per retry. */
  baseMs: number;
  /** Upper bound of the computed backoff delay. */
  maxMs: number;
};

/** What a call is, for its log lines and error messages. */
export type CallInfo = { model: string; signal?: AbortSignal; what?: string };

/** What one failed attempt means for the next. */
type Failure = { status: number | null; retryable: boolean; retryAfterMs: number | null; message: string };

/**
 * Runs `attempt` until it succeeds, retrying 408, 409, 429, 5xx, connection
 * errors and timeouts (an `x-should-retry` header overrides, as in the SDK).
 * When retries run out: `ProviderError` with `retryable: true`; any other 4xx:
 * `ProviderError` with `retryable: false`; an abort rejects with the signal's
 * reason; anything that is not an SDK error is rethrown as it is (our bug).
 */
export async function withRetries<T>(attempt: () => Promise<T>, policy: RetryPolicy, call: CallInfo, log?: ProviderLog): Promise<T> {
  for (let retry = 0; ; retry++) {
    try {
      return await attempt();
    } catch (err) {
      if (call.signal?.aborted) throw call.signal.reason;
      const failure = classify(err);
      const delayMs = failure.retryAfterMs ?? backoffMs(retry, policy);
      if (!failure.retryable || retry >= policy.maxRetries || delayMs > MAX_RETRY_AFTER_MS) {
        throw toProviderError(failure, retry + 1, call.what ?? 'LLM call', err);
      }
      log?.warn(
        { model: call.model, status: failure.status, attempt: retry + 1, delayMs, err: failure.message },
        'openai call failed, retrying',
      );
      await sleep(delayMs, call.signal);
    }
  }
}

/** Sorts an SDK error by whether another attempt may succeed; anything else is our bug and is rethrown. */
function classify(err: unknown): Failure {
  if (err instanceof OpenAI.APIConnectionError) {
    // Includes APIConnectionTimeoutError: the attempt ran past `timeoutMs` or never connected.
    return { status: null, retryable: true, retryAfterMs: null, message: err.message };
  }
  if (err instanceof OpenAI.APIError && typeof err.status === 'number') {
    const headers = err.headers;
    return { status: err.status, retryable: isRetryable(err.status, headers), retryAfterMs: retryAfterMs(headers), message: err.message };
  }
  if (err instanceof OpenAI.OpenAIError) return { status: null, retryable: false, retryAfterMs: null, message: err.message };
  throw err;
}

function isRetryable(status: number, headers: Headers | undefined): boolean {
  // OpenAI's own hint, which the SDK obeys too.
  const hint = headers?.get('x-should-retry');
  if (hint === 'true') return true;
  if (hint === 'false') return false;
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/** `retry-after-ms` (OpenAI's, precise) before `retry-after` (seconds or an HTTP date); null when absent or unreadable. */
function retryAfterMs(headers: Headers | undefined): number | null {
  const ms = Number.parseFloat(headers?.get('retry-after-ms') ?? '');
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers?.get('retry-after');
  if (!value) return null;
  const seconds = Number.parseFloat(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - Date.now());
}

/** Exponential backoff with jitter (50–100 % of the step), so many workers do not retry in lockstep. */
function backoffMs(retry: number, policy: RetryPolicy): number {
  const step = Math.min(policy.baseMs * 2 ** retry, policy.maxMs);
  return step * (0.5 + Math.random() * 0.5);
}

function toProviderError(f: Failure, attempts: number, what: string, cause: unknown): ProviderError {
  const status = f.status === null ? 'no response' : `status ${f.status}`;
  const message = f.retryable
    ? `${what} failed after ${attempts} attempt${attempts === 1 ? '' : 's'} (${status}): ${f.message}`
    : `${what} rejected (${status}): ${f.message}`;
  return new ProviderError(message, f.status, f.retryable, cause);
}

/** A pause that ends early, rejecting with the signal's reason, when the caller aborts. */
export function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
