import { ApiError } from './errors.js';

/** How a call is retried when the gateway sheds it (429/503) or, for calls that may be repeated, cannot be reached. */
export interface RetryOptions {
  /** Attempts in all, the first included (default 5; `Infinity` retries until it succeeds or is aborted; 1 never retries). */
  maxAttempts?: number;
  /** Cap of one wait, whatever `Retry-After` says (default 30 s). */
  maxDelayMs?: number;
  /** Told before every wait, so a person can see why nothing happens, and cut it short. */
  onRetry?: (notice: RetryNotice) => void;
}

export interface RetryNotice {
  /** Why the call waits. */
  error: ApiError;
  /** 1 for the first retry. */
  attempt: number;
  /** How long until the next attempt. */
  delayMs: number;
  /** Ends the wait at once. */
  retryNow(): void;
}

export const DEFAULT_MAX_ATTEMPTS = 5;
export const DEFAULT_MAX_DELAY_MS = 30_000;
/** Without a Retry-After: 1 s, doubling. */
const FIRST_BACKOFF_MS = 1_000;

/**
 * `Retry-After` in milliseconds: delta-seconds or an HTTP date (RFC 9110
 * §10.2.3); null when absent or unreadable.
 */
export function parseRetryAfter(raw: string | null | undefined, now: number = Date.now()): number | null {
  const value = raw?.trim() ?? '';
  if (value === '') return null;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  // An HTTP date names its month (`Wed, 21 Oct 2015 07:28:00 GMT`); Date.parse alone would take `-1` for a year.
  if (!/[a-z]{3}/i.test(value)) return null;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/** The wait before retry number `attempt` (1-based): what the server asked for, else a doubling backoff; never above the cap. */
export function retryDelayMs(error: ApiError, attempt: number, maxDelayMs: number): number {
  const asked = error.retryAfterMs ?? FIRST_BACKOFF_MS * 2 ** Math.min(attempt - 1, 16);
  return Math.max(0, Math.min(maxDelayMs, asked));
}

/**
 * Runs `attempt` until it succeeds, fails with an error `shouldRetry` refuses,
 * runs out of attempts, or `signal` aborts (then it rejects with the signal's
 * reason). Each retry of one call repeats the very same request, so a turn's
 * idempotency key stays the same across all of them.
 */
export async function withRetry<T>(
  attempt: () => Promise<T>,
  shouldRetry: (error: ApiError) => boolean,
  options: RetryOptions = {},
  signal?: AbortSignal,
): Promise<T> {
  const maxAttempts = options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  const maxDelayMs = options.maxDelayMs ?? DEFAULT_MAX_DELAY_MS;
  for (let n = 1; ; n++) {
    signal?.throwIfAborted();
    try {
      return await attempt();
    } catch (err) {
      if (!(err instanceof ApiError) || !shouldRetry(err) || n >= maxAttempts || signal?.aborted) throw err;
      const delayMs = retryDelayMs(err, n, maxDelayMs);
      await sleep(delayMs, signal, (retryNow) => options.onRetry?.({ error: err, attempt: n, delayMs, retryNow }));
    }
  }
}

/**
 * Waits `ms`; rejects with the signal's reason when it aborts. `onStart`
 * receives a function that ends the wait early.
 */
export function sleep(ms: number, signal?: AbortSignal, onStart?: (wakeUp: () => void) => void): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    };
    const onAbort = () => {
      done();
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      done();
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
    onStart?.(() => {
      done();
      resolve();
    });
  });
}
