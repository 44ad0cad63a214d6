import { ApiError, errorFromAnswer, unreachable } from './errors.js';
import { parseRetryAfter, withRetry, type RetryOptions } from './retry.js';

/** What every call may add: an abort signal, a token other than the client's, its own retry rules. */
export interface CallOptions {
  signal?: AbortSignal;
  /** The bearer token of this call (a session's token, the FAQ write key); default: the client's. */
  token?: string;
  retry?: RetryOptions;
}

export interface TransportOptions {
  /** Where the gateway answers, e.g. `http://localhost:8080`; `''` for the page's own origin. */
  baseUrl: string;
  token?: string;
  /** Default: the global fetch (Node ≥ 20, browsers). */
  fetch?: typeof fetch;
  retry?: RetryOptions;
}

/** One request of the contract. */
export interface RequestSpec {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** Path with its parameters already encoded (see {@link path}). */
  path: string;
  query?: Record<string, string | number | undefined>;
  /** Sent as JSON. */
  json?: unknown;
  /** Sent as is, with its content type (CSV uploads). */
  text?: { body: string; contentType: string };
  headers?: Record<string, string>;
  accept?: string;
  /**
   * The call may be repeated after no answer (GET, DELETE, a turn with its
   * idempotency key): then a network error, 502 and 504 are retried as well as
   * 429 and 503, which mean the gateway did nothing with the request.
   */
  idempotent: boolean;
}

/** `/a/${id}` with every parameter encoded. */
export function path(strings: TemplateStringsArray, ...params: string[]): string {
  return strings.reduce((out, s, i) => out + s + (i < params.length ? encodeURIComponent(params[i] as string) : ''), '');
}

/**
 * HTTP for every call of the client: bearer token, JSON bodies, the
 * contract's error bodies as {@link ApiError}, and the retry rules.
 */
export class Transport {
  readonly baseUrl: string;
  readonly token: string | undefined;
  readonly retry: RetryOptions;
  private readonly fetchImpl: typeof fetch;

  constructor(options: TransportOptions) {
    // (The trailing run from its first slash: tried from each slash of a long run, the regex was quadratic.)
    this.baseUrl = options.baseUrl.replace(/(?<!\/)\/+$/, '');
    this.token = options.token;
    this.retry = options.retry ?? {};
    // Called through a function: a browser's fetch refuses to run with a `this` other than window.
    const custom = options.fetch;
    this.fetchImpl = custom ?? ((input, init) => globalThis.fetch(input, init));
  }

  url(path: string, query: RequestSpec['query'] = {}): string {
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) if (value !== undefined) search.set(key, String(value));
    const qs = search.toString();
    return `${this.baseUrl}${path}${qs === '' ? '' : `?${qs}`}`;
  }

  /** The request with the retry rules; resolves with a 2xx answer whose body is unread, else throws an ApiError. */
  send(spec: RequestSpec, call: CallOptions = {}): Promise<Response> {
    const retryable = (e: ApiError) =>
      e.status === 429 || e.status === 503 || (spec.idempotent && (e.status === 0 || e.status === 502 || e.status === 504));
    return withRetry(() => this.once(spec, call), retryable, { ...this.retry, ...call.retry }, call.signal);
  }

  /** The request's JSON answer (undefined for 204). */
  async json<T>(spec: RequestSpec, call: CallOptions = {}): Promise<T> {
    const res = await this.send({ accept: 'application/json', ...spec }, call);
    const text = await res.text();
    if (res.status === 204 || text === '') return undefined as T;
    try {
      return JSON.parse(text) as T;
    } catch (err) {
      throw new ApiError(res.status, 'invalid_response', `The gateway answered ${res.status} with a body that is not JSON.`, null, text, {
        cause: err,
      });
    }
  }

  /** One attempt, no retry. */
  async once(spec: RequestSpec, call: CallOptions): Promise<Response> {
    const headers: Record<string, string> = { accept: spec.accept ?? 'application/json', ...spec.headers };
    const token = call.token ?? this.token;
    if (token !== undefined && token !== '') headers.authorization = `Bearer ${token}`;
    let body: string | undefined;
    if (spec.text) {
      body = spec.text.body;
      headers['content-type'] = spec.text.contentType;
    } else if (spec.json !== undefined) {
      body = JSON.stringify(spec.json);
      headers['content-type'] = 'application/json';
    }
    let res: Response;
    try {
      res = await this.fetchImpl(this.url(spec.path, spec.query), { method: spec.method, headers, body, signal: call.signal });
    } catch (err) {
      if (call.signal?.aborted) throw call.signal.reason;
      throw unreachable(err);
    }
    if (res.ok) return res;
    const text = await res.text().catch(() => '');
    throw errorFromAnswer(res.status, parseJson(text), parseRetryAfter(res.headers.get('retry-after')));
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text === '' ? null : text;
  }
}
