// @ts-check
/**
 * The public HTTP contract (API.md) for the page and the terminal client, on
 * `fetch` only, so it runs unchanged in a browser and in Node.
 */

/** A contract error (`{ error: { code, message } }`) or an answer that is not one. */
export class ApiError extends Error {
  /**
   * @param {number} status HTTP status; 0 when the gateway could not be reached
   * @param {string} code the contract's `error.code`, or `unreachable`
   * @param {string} message
   * @param {number | null} retryAfterMs from `Retry-After`, when the answer carried one
   * @param {unknown} [body] the whole answer, for errors that carry more than the contract's fields (a 409 with the current problem)
   */
  constructor(status, code, message, retryAfterMs, body = null) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.retryAfterMs = retryAfterMs;
    this.body = body;
  }

  /** Worth trying again unchanged: shed (429/503), a gateway timeout, or no gateway at all (restarting). */
  get retryable() {
    return this.status === 0 || this.status === 429 || this.status === 503 || this.status === 502 || this.status === 504;
  }
}

/**
 * @typedef {object} CreatedSession
 * @property {string} sessionId
 * @property {string} token
 * @property {string} eventsUrl
 */

/**
 * @typedef {object} SampleForm
 * @property {string} id
 * @property {string} title
 * @property {'form' | 'application'} kind
 * @property {'ja' | 'en'} language
 */

/**
 * One JSON request of the contract: the answer's JSON, or an `ApiError` for
 * an error answer or an unreachable gateway. Both pages' clients use it.
 * @param {string} baseUrl
 * @param {string} method
 * @param {string} path
 * @param {{ token?: string, body?: unknown }} [opts]
 * @returns {Promise<any>}
 */
export async function requestJson(baseUrl, method, path, opts = {}) {
  /** @type {Record<string, string>} */
  const headers = { accept: 'application/json' };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  let res;
  try {
    res = await fetch(`${baseUrl}${path}`, {
      method,
      headers,
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    });
  } catch (err) {
    throw new ApiError(0, 'unreachable', `The gateway cannot be reached (${describeError(err)}).`, null);
  }
  const text = await res.text();
  const json = parseJson(text);
  if (res.ok) return json;
  const error = json && typeof json === 'object' ? json.error : undefined;
  throw new ApiError(
    res.status,
    typeof error?.code === 'string' ? error.code : `http_${res.status}`,
    typeof error?.message === 'string' ? error.message : `The gateway answered ${res.status}.`,
    retryAfterMs(res.headers.get('retry-after')),
    json,
  );
}

/**
 * @param {string} baseUrl '' in the page (same origin), `http://host:port` elsewhere
 */
export function createApi(baseUrl) {
  /**
   * @param {string} method
   * @param {string} path
   * @param {{ token?: string, body?: unknown }} [opts]
   */
  const call = (method, path, opts = {}) => requestJson(baseUrl, method, path, opts);

  return {
    /**
     * @param {{ kind: string, form?: unknown, options?: { language: string } }} body
     * @returns {Promise<CreatedSession>}
     */
    createSession: (body) => call('POST', '/v1/sessions', { body }),
    /** @param {string} id @param {string} token @returns {Promise<Record<string, unknown>>} */
    snapshot: (id, token) => call('GET', `/v1/sessions/${encodeURIComponent(id)}`, { token }),
    /**
     * The idempotency key makes a retried POST (after a 429/503 or a lost answer) one turn, not two.
     * @param {string} id @param {string} token @param {string} message @param {string} idempotencyKey
     * @returns {Promise<{ turnId: string, position: number }>}
     */
    postTurn: (id, token, message, idempotencyKey) =>
      call('POST', `/v1/sessions/${encodeURIComponent(id)}/turns`, { token, body: { message, idempotencyKey } }),
    /** @param {string} id @param {string} token @returns {Promise<{ collectedFields: Record<string, string>, audit: unknown }>} */
    submit: (id, token) => call('POST', `/v1/sessions/${encodeURIComponent(id)}/submit`, { token }),
    /** @returns {Promise<{ forms: SampleForm[] }>} */
    sampleForms: () => call('GET', '/samples/forms'),
    /** @param {string} id @returns {Promise<Record<string, unknown>>} */
    sampleForm: (id) => call('GET', `/samples/forms/${encodeURIComponent(id)}`),
    /** The session's event stream URL; `?token=` because EventSource cannot send headers. */
    /** @param {string} id @param {string} token @param {number} [lastEventId] */
    eventsUrl: (id, token, lastEventId) => {
      const q = new URLSearchParams({ token });
      if (lastEventId !== undefined && lastEventId > 0) q.set('lastEventId', String(lastEventId));
      return `${baseUrl}/v1/sessions/${encodeURIComponent(id)}/events?${q}`;
    },
  };
}

/** @typedef {ReturnType<typeof createApi>} Api */

/**
 * @typedef {object} RetryNotice
 * @property {ApiError} error why the call is waiting
 * @property {number} attempt 1 for the first retry
 * @property {number} delayMs how long until the next attempt
 * @property {() => void} retryNow cuts the wait short
 */

/**
 * Calls `fn` until it succeeds or fails with a non-retryable error. Between
 * attempts it waits what `Retry-After` asked for (else a doubling backoff from
 * 1 s to 30 s) and tells `onRetry`, so a person sees why and can retry at once.
 * @template T
 * @param {() => Promise<T>} fn
 * @param {{ onRetry?: (notice: RetryNotice) => void, maxAttempts?: number }} [opts]
 * @returns {Promise<T>}
 */
export async function withRetry(fn, opts = {}) {
  const maxAttempts = opts.maxAttempts ?? Infinity;
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      if (!(err instanceof ApiError) || !err.retryable || attempt >= maxAttempts) throw err;
      const delayMs = Math.min(30_000, err.retryAfterMs ?? 1_000 * 2 ** Math.min(attempt - 1, 5));
      await new Promise((resolve) => {
        const timer = setTimeout(resolve, delayMs);
        opts.onRetry?.({
          error: err,
          attempt,
          delayMs,
          retryNow: () => {
            clearTimeout(timer);
            resolve(undefined);
          },
        });
      });
    }
  }
}

/**
 * @param {string | null} raw delta-seconds or an HTTP date
 * @returns {number | null}
 */
export function retryAfterMs(raw) {
  if (raw === null || raw.trim() === '') return null;
  if (/^\d+$/.test(raw.trim())) return Number(raw.trim()) * 1000;
  const at = Date.parse(raw);
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now());
}

/** @param {string} text */
function parseJson(text) {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/**
 * A short reason for a fetch failure: undici hides the interesting part (ECONNREFUSED…) in `cause`.
 * @param {unknown} err
 */
export function describeError(err) {
  if (!(err instanceof Error)) return String(err);
  const cause = /** @type {any} */ (err).cause;
  return cause instanceof Error ? `${err.message} (${cause.message})` : err.message;
}

/**
 * A fresh idempotency key per message the person sends. getRandomValues, not
 * randomUUID: the latter exists only in secure contexts, and the page may be
 * opened over plain http on a LAN address.
 */
export function newIdempotencyKey() {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
