import type { Problem } from '@convo/contract';

/**
 * Every failed call: an error answer of the gateway in the contract's shape
 * `{ error: { code, message } }` (docs/api.md), or no answer at all (`status`
 * 0, code `unreachable`).
 */
export class ApiError extends Error {
  override readonly name: string = 'ApiError';

  constructor(
    /** HTTP status; 0 when the gateway could not be reached. */
    readonly status: number,
    /** The contract's `error.code` (`session_not_found`, `overloaded`…), `http_<status>` for a body without one, or `unreachable`. */
    readonly code: string,
    message: string,
    /** From `Retry-After` (seconds or an HTTP date), when the answer carried one. */
    readonly retryAfterMs: number | null = null,
    /** The whole parsed answer, for errors that carry more than the contract's fields. */
    readonly body: unknown = null,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }

  /** Worth trying again unchanged: shed (429/503), a gateway timeout or bad gateway, or no gateway at all (restarting). */
  get retryable(): boolean {
    return this.status === 0 || this.status === 429 || this.status === 502 || this.status === 503 || this.status === 504;
  }
}

/** A problem edit made against a stale version (409): `problem` is the problem as it is now. */
export class ProblemConflictError extends ApiError {
  override readonly name = 'ProblemConflictError';

  constructor(
    code: string,
    message: string,
    readonly problem: Problem,
    body: unknown,
  ) {
    super(409, code, message, null, body);
  }
}

/** The typed error of one error answer: a 409 that carries the current problem is a {@link ProblemConflictError}. */
export function errorFromAnswer(status: number, body: unknown, retryAfterMs: number | null): ApiError {
  const error = isRecord(body) && isRecord(body.error) ? body.error : {};
  const code = typeof error.code === 'string' ? error.code : `http_${status}`;
  const message = typeof error.message === 'string' ? error.message : `The gateway answered ${status}.`;
  if (status === 409 && isRecord(body) && isRecord(body.problem))
    return new ProblemConflictError(code, message, body.problem as Problem, body);
  return new ApiError(status, code, message, retryAfterMs, body);
}

/** No answer: refused, reset, DNS, TLS. Retried like a shed request where the call may be repeated. */
export function unreachable(cause: unknown): ApiError {
  return new ApiError(0, 'unreachable', `The gateway cannot be reached (${describeError(cause)}).`, null, null, { cause });
}

/** A short reason for a fetch failure: undici hides the interesting part (ECONNREFUSED…) in `cause`. */
export function describeError(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const cause: unknown = err.cause;
  return cause instanceof Error ? `${err.message} (${cause.message})` : err.message;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
