import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { REPO_ROOT } from './processes.js';

// Tests read arbitrary response bodies and assert on them: `any` here spares a cast at every assertion.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = Record<string, any>;

/** Small HTTP client for the public contract. */
export class Api {
  constructor(readonly base: string) {}

  async call(method: string, path: string, opts: { token?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> } = {}) {
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
