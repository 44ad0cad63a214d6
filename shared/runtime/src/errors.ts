/**
 * Errors split by who is at fault. The class decides two things: the HTTP
 * status a client sees, and whether a queue job that threw it is retried.
 */
export type ErrorJson = { name: string; code: string; message: string };

export class AppError extends Error {
  readonly code: string;
  readonly status: number;
  /** Whether a job that failed with this error should be attempted again. */
  readonly retryable: boolean;

  constructor(code: string, message: string, opts: { status?: number; retryable?: boolean; cause?: unknown } = {}) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = new.target.name;
    this.code = code;
    this.status = opts.status ?? 500;
    this.retryable = opts.retryable ?? false;
  }

  toJSON(): ErrorJson {
    return { name: this.name, code: this.code, message: this.message };
  }
}

/** The client sent something we cannot accept (400). */
export class ValidationError extends AppError {
  constructor(message: string, code = 'invalid_request', cause?: unknown) {
    super(code, message, { status: 400, cause });
  }
}

export class UnauthorizedError extends AppError {
  constructor(message = 'missing or invalid session token') {
    super('unauthorized', message, { status: 401 });
  }
}

export class ForbiddenError extends AppError {
  constructor(code: string, message: string) {
    super(code, message, { status: 403 });
  }
}

export class NotFoundError extends AppError {
  constructor(message = 'not found', code = 'not_found') {
    super(code, message, { status: 404 });
  }
}

export class ConflictError extends AppError {
  constructor(code: string, message: string) {
    super(code, message, { status: 409 });
  }
}

/** The system is saturated or a dependency is down; the client may retry later. */
export class UnavailableError extends AppError {
  readonly retryAfterSeconds: number;
  constructor(message: string, retryAfterSeconds = 1, code = 'unavailable', cause?: unknown) {
    super(code, message, { status: 503, retryable: true, cause });
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** Our own bug or broken invariant. */
export class SystemError extends AppError {
  constructor(message: string, cause?: unknown, code = 'internal_error') {
    super(code, message, { status: 500, cause });
  }
}

/** The model replied with something we cannot use and cannot repair. */
export class ModelBehaviorError extends AppError {
  constructor(message: string, cause?: unknown) {
    super('model_behavior', message, { status: 502, cause });
  }
}

/**
 * The model stopped without a usable reply: cut by the output cap
 * (`model_output_truncated`, retryable: a new attempt may be shorter), stopped
 * by a content filter (`model_content_filtered`), or refused
 * (`model_refused`, the refusal kept in the message). Never fed back to the
 * model as a reminder: the turn fails with the code.
 */
export class ModelStopError extends AppError {
  constructor(code: 'model_output_truncated' | 'model_content_filtered' | 'model_refused', message: string) {
    super(code, message, { status: 502, retryable: code === 'model_output_truncated' });
  }
}

/** The agent loop ran out of iterations without reaching `ask`. */
/** A turn ended by `POST …/turns/:turnId/cancel`: never retried. */
export class CancelledError extends AppError {
  constructor(message = 'The turn was cancelled.') {
    super('cancelled', message, { status: 409 });
  }
}

export class MaxTurnsExceededError extends AppError {
  constructor(agent: string, maxTurns: number) {
    super('max_turns_exceeded', `${agent} did not finish within ${maxTurns} model calls`, { status: 502 });
  }
}

/** An upstream LLM call failed in a way that may pass on retry (429, 5xx, timeout). */
export class ProviderError extends AppError {
  readonly upstreamStatus: number | null;
  constructor(message: string, upstreamStatus: number | null, retryable: boolean, cause?: unknown) {
    super(retryable ? 'provider_unavailable' : 'provider_error', message, { status: 502, retryable, cause });
    this.upstreamStatus = upstreamStatus;
  }
}

/** Serialises any thrown value for a job result or a `turn.failed` event. */
export function toErrorJson(err: unknown): ErrorJson {
  if (err instanceof AppError) return err.toJSON();
  if (err instanceof Error) return { name: err.name, code: 'internal_error', message: err.message };
  return { name: 'Error', code: 'internal_error', message: String(err) };
}
