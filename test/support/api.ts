import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { REPO_ROOT } from './processes.js';
import { postEventStream } from './sse-post.js';

// Tests read arbitrary response bodies and assert on them: `any` here spares a cast at every assertion.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = Record<string, any>;

/** Small HTTP client for the public contract. */
export class Api {
  /** The token of every /agent.dialog session this client started, as the server answered it. */
  readonly dialogTokens = new Map<string, string>();

  constructor(readonly base: string) {}

  /**
   * POST /agent.dialog as a client that keeps its dialogs' tokens: a body
   * naming a session this client started is sent with that session's token
   * (unless `opts.token` says otherwise, `null` for none).
   */
  async dialog(body: Json, opts: { token?: string | null; headers?: Record<string, string> } = {}) {
    const token = opts.token === undefined ? this.dialogTokens.get(String(body.sessionId)) : (opts.token ?? undefined);
    const res = await this.call('POST', '/agent.dialog', { body, headers: opts.headers, token });
    this.remember(res.json.sessionId ?? res.headers.get('x-session-id'), res.json.sessionToken ?? res.headers.get('x-session-token'));
    return res;
  }

  /** The same with `Accept: text/event-stream` (the token also comes back in `x-session-token`). */
  async dialogStream(body: Json, headers: Record<string, string> = {}) {
    const token = this.dialogTokens.get(String(body.sessionId));
    const res = await postEventStream(`${this.base}/agent.dialog`, body, {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...headers,
    });
    this.remember(res.headers.get('x-session-id'), res.headers.get('x-session-token'));
    return res;
  }

  private remember(sessionId: unknown, token: unknown): void {
    if (typeof sessionId === 'string' && typeof token === 'string') this.dialogTokens.set(sessionId, token);
  }

  async call(
    method: string,
    path: string,
    opts: { token?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> } = {},
  ) {
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    let body: string | undefined;
    if (opts.rawBody !== undefined) {
      body = opts.rawBody;
      headers['content-type'] ??= 'application/json';
    } else if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers['content-type'] = 'application/json';
    }
    const res = await fetch(`${this.base}${path}`, { method, headers, body });
    const text = await res.text();
    let json: Json = {};
    try {
      json = text ? (JSON.parse(text) as Json) : {};
    } catch {
      json = { text };
    }
    return { status: res.status, headers: res.headers, json };
  }

  async createSession(form: unknown, kind = 'form', options?: unknown): Promise<{ sessionId: string; token: string; eventsUrl: string }> {
    const response = await this.call('POST', '/v1/sessions', { body: { kind, form, ...(options ? { options } : {}) } });
    if (response.status !== 201) throw new Error(`create session: ${response.status} ${JSON.stringify(response.json)}`);
    return response.json as { sessionId: string; token: string; eventsUrl: string };
  }

  async turn(sessionId: string, token: string, message: string, extra: Json = {}) {
    return this.call('POST', `/v1/sessions/${sessionId}/turns`, { token, body: { message, ...extra } });
  }

  eventsUrl(sessionId: string, token: string): string {
    return `${this.base}/v1/sessions/${sessionId}/events?token=${encodeURIComponent(token)}`;
  }
}

export function loadForm(name: string): Json {
  return JSON.parse(readFileSync(resolve(REPO_ROOT, 'examples/forms', name), 'utf8')) as Json;
}
