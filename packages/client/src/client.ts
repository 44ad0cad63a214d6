import { faqCalls } from './faq.js';
import type { RetryOptions } from './retry.js';
import { sessionCalls } from './sessions.js';
import { path, Transport, type CallOptions } from './transport.js';
import { workbenchCalls } from './workbench.js';

export interface ClientOptions {
  /** Where the gateway answers, e.g. `http://localhost:8080`; `''` in a page served by the gateway. */
  baseUrl: string;
  /** Bearer token sent with every call unless a call names its own: a session's token, or the FAQ write key. */
  token?: string;
  /** Default: the global fetch of Node ≥ 20 or the browser. */
  fetch?: typeof fetch;
  /**
   * Retries of shed calls (429/503, after their Retry-After) and, for calls
   * that may be repeated, of an unreachable gateway, 502 and 504. Default:
   * 5 attempts, waits capped at 30 s.
   */
  retry?: RetryOptions;
}

/** A sample form the chat page offers (GET /samples/forms). */
export type SampleForm = { id: string; title: string; kind: 'form' | 'application'; language: 'ja' | 'en' };

/**
 * A typed client of the gateway's public contract (docs/api.md) for Node ≥ 20
 * and browsers, on fetch only:
 *
 * ```ts
 * const client = createClient({ baseUrl: 'http://localhost:8080' });
 * const { sessionId, token } = await client.sessions.create({ kind: 'faq' });
 * const session = client.withToken(token);
 * ```
 */
export function createClient(options: ClientOptions) {
  const http = new Transport(options);
  return {
    baseUrl: http.baseUrl,
    sessions: sessionCalls(http),
    faq: faqCalls(http),
    workbench: workbenchCalls(http),
    /** The sample forms of the chat page's picker, and one of them ready to send as `form`. */
    samples: {
      list: (call?: CallOptions) => http.json<{ forms: SampleForm[] }>({ method: 'GET', path: '/samples/forms', idempotent: true }, call),
      get: (id: string, call?: CallOptions) =>
        http.json<Record<string, unknown>>({ method: 'GET', path: path`/samples/forms/${id}`, idempotent: true }, call),
    },
    /** The same client with another default token (a session's, once created). */
    withToken: (token: string) => createClient({ ...options, token }),
    /** The same client with other retry rules. */
    withRetry: (retry: RetryOptions) => createClient({ ...options, retry }),
  };
}

export type ConvoClient = ReturnType<typeof createClient>;
