import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';

/**
 * A lean HTTP/1.1 client over node:http for the bench: keep-alive sockets,
 * no retries, never throws (a network error is status 0 with `error`), and
 * the time from the call (or from a given start) to the end of the body.
 */
export type HttpResult = {
  status: number;
  text: string;
  /** From the call (or `startedAt`) to the end of the body. */
  ms: number;
  /** From the request being flushed to the socket to the end of the body (no client-side queueing). */
  wireMs: number;
  /** The request opened a new TCP connection (no idle keep-alive socket was free). */
  newConnection: boolean;
  error?: string;
  code?: string;
};

/** Answers that closed their connection (`connection: close`), process-wide, for the report. */
export const httpStats = { closedByServer: 0 };

export function keepAliveAgent(maxSockets = Infinity): Agent {
  return new Agent({ keepAlive: true, maxSockets, maxFreeSockets: 1024 });
}

export function http(
  agent: Agent,
  url: string,
  opts: { method?: string; body?: unknown; token?: string; timeoutMs?: number; startedAt?: number } = {},
): Promise<HttpResult> {
  const t0 = opts.startedAt ?? performance.now();
  const body = opts.body === undefined ? undefined : JSON.stringify(opts.body);
  const headers: Record<string, string | number> = { accept: 'application/json' };
  if (body !== undefined) {
    headers['content-type'] = 'application/json';
    headers['content-length'] = Buffer.byteLength(body);
  }
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  return new Promise((resolve) => {
    let settled = false;
    let flushed = NaN;
    const done = (outcome: Omit<HttpResult, 'ms' | 'wireMs' | 'newConnection'>) => {
      if (settled) return;
      settled = true;
      const now = performance.now();
      resolve({ ...outcome, ms: now - t0, wireMs: now - flushed, newConnection: !req.reusedSocket });
    };
    const req = request(url, { method: opts.method ?? 'GET', agent, headers }, (res) => {
      if (res.headers.connection === 'close') httpStats.closedByServer++;
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => done({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', (err: NodeJS.ErrnoException) => done({ status: 0, text: '', error: err.message, code: err.code }));
    });
    req.setTimeout(opts.timeoutMs ?? 30_000, () => req.destroy(new Error('timeout')));
    req.on('error', (err: NodeJS.ErrnoException) => done({ status: 0, text: '', error: err.message, code: err.code ?? 'ERR' }));
    req.on('finish', () => (flushed = performance.now()));
    req.end(body);
  });
}

/** JSON body of a result, or {} when it is not JSON. */
export function json(result: HttpResult): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(result.text);
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

export type Session = { sessionId: string; token: string };

/** POST /v1/sessions; throws on anything but 201 (setup, not measurement). */
export async function createSession(agent: Agent, base: string, body: unknown): Promise<Session> {
  const response = await http(agent, `${base}/v1/sessions`, { method: 'POST', body });
  const payload = json(response);
  if (response.status !== 201 || typeof payload.sessionId !== 'string' || typeof payload.token !== 'string') {
    throw new Error(`create session: ${response.status} ${response.error ?? response.text.slice(0, 200)}`);
  }
  return { sessionId: payload.sessionId, token: payload.token };
}

export const eventsUrl = (base: string, s: Session) => `${base}/v1/sessions/${s.sessionId}/events?token=${encodeURIComponent(s.token)}`;
export const turnsUrl = (base: string, s: Session) => `${base}/v1/sessions/${s.sessionId}/turns`;
