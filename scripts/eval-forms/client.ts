import { SseReader } from '../client/sse-reader.js';
import type { Snapshot } from './respondent.js';

/**
 * A black-box client of one session, speaking only the public contract
 * (docs/API.md): POST /v1/sessions, the event stream, GET snapshot,
 * POST turns, POST submit, DELETE.
 */

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
    what: string,
  ) {
    super(`${what} answered ${status}: ${body.slice(0, 200)}`);
  }
}

/** Shed load (503/429) is retried after its Retry-After, a few times: the eval measures answers, not the shedder. */
async function call(url: string, init: RequestInit & { token?: string }, what: string): Promise<{ status: number; body: unknown }> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  if (init.token !== undefined) headers.authorization = `Bearer ${init.token}`;
  for (let attempt = 0; ; attempt++) {
    const res = await fetch(url, { ...init, headers, signal: AbortSignal.timeout(30_000) }).catch((err: unknown) => {
      throw new Error(`${what}: ${err instanceof Error ? err.message : String(err)}`);
    });
    const text = await res.text();
    if ((res.status === 503 || res.status === 429) && attempt < 5) {
      const after = Number(res.headers.get('retry-after') ?? '1');
      await new Promise((r) => setTimeout(r, Math.min(10, Number.isFinite(after) ? after : 1) * 1000));
      continue;
    }
    let body: unknown = text;
    try {
      body = text === '' ? null : JSON.parse(text);
    } catch {
      // Not JSON: kept as text for the error message.
    }
    return { status: res.status, body };
  }
}

export type TurnEnd = { type: 'turn.completed' | 'turn.failed'; turnId: string };

/** Turn ends seen on the stream, and waiters for them. */
class TurnTracker {
  private readonly ended = new Map<string, TurnEnd>();
  private firstStarted: string | null = null;
  private readonly waiters = new Set<() => void>();

  onEvent(type: string, data: Record<string, unknown>): void {
    const turnId = typeof data.turnId === 'string' ? data.turnId : null;
    if (turnId === null) return;
    if (type === 'turn.started' && this.firstStarted === null) this.firstStarted = turnId;
    if (type === 'turn.completed' || type === 'turn.failed') this.ended.set(turnId, { type, turnId });
    for (const w of this.waiters) w();
  }

  /** The end of `turnId`, or of the session's first run when null; null after `timeoutMs`. */
  wait(turnId: string | null, timeoutMs: number): Promise<TurnEnd | null> {
    const found = () => {
      const id = turnId ?? this.firstStarted;
      return id === null ? undefined : this.ended.get(id);
    };
    const now = found();
    if (now) return Promise.resolve(now);
    return new Promise((resolve) => {
      const check = () => {
        const end = found();
        if (!end) return;
        done(end);
      };
      const timer = setTimeout(() => done(null), timeoutMs);
      const done = (turnEnd: TurnEnd | null) => {
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve(turnEnd);
      };
      this.waiters.add(check);
    });
  }
}

export class SessionClient {
  private reader: SseReader | null = null;
  private lastEventId = 0;
  private readonly turns = new TurnTracker();
  streamError: Error | null = null;

  private constructor(
    private readonly base: string,
    readonly sessionId: string,
    private readonly token: string,
  ) {}

  static async create(base: string, body: unknown): Promise<SessionClient> {
    const response = await call(`${base}/v1/sessions`, { method: 'POST', body: JSON.stringify(body) }, 'POST /v1/sessions');
    const created = response.body as { sessionId?: string; token?: string };
    if (response.status !== 201 || typeof created?.sessionId !== 'string' || typeof created.token !== 'string') {
      throw new HttpError(response.status, JSON.stringify(response.body), 'POST /v1/sessions');
    }
    const client = new SessionClient(base, created.sessionId, created.token);
    client.openStream();
    return client;
  }

  /** The token goes in the query, as a browser EventSource must send it. */
  private openStream(): void {
    const url = `${this.base}/v1/sessions/${encodeURIComponent(this.sessionId)}/events?token=${encodeURIComponent(this.token)}`;
    this.reader = new SseReader({
      url,
      resumeFrom: () => this.lastEventId,
      onEvent: (message) => {
        const id = Number(message.id);
        if (Number.isFinite(id) && id > this.lastEventId) this.lastEventId = id;
        let data: unknown;
        try {
          data = JSON.parse(message.data);
        } catch {
          return;
        }
        if (typeof data === 'object' && data !== null) this.turns.onEvent(message.type, data as Record<string, unknown>);
      },
      onFatal: (err) => (this.streamError = err),
    });
    this.reader.start();
  }

  waitTurnEnd(turnId: string | null, timeoutMs: number): Promise<TurnEnd | null> {
    return this.turns.wait(turnId, timeoutMs);
  }

  async snapshot(): Promise<Snapshot> {
    const response = await call(this.url(''), { method: 'GET', token: this.token }, 'GET session');
    if (response.status !== 200) throw new HttpError(response.status, JSON.stringify(response.body), 'GET session');
    return response.body as Snapshot;
  }

  async postTurn(message: string, idempotencyKey: string): Promise<string> {
    const response = await call(this.url('/turns'), { method: 'POST', token: this.token, body: JSON.stringify({ message, idempotencyKey }) }, 'POST turns');
    const turnId = (response.body as { turnId?: unknown } | null)?.turnId;
    if (response.status !== 202 || typeof turnId !== 'string') throw new HttpError(response.status, JSON.stringify(response.body), 'POST turns');
    return turnId;
  }

  /** The HTTP status of POST /submit (200 or 409 by the contract). */
  async submit(): Promise<number> {
    return (await call(this.url('/submit'), { method: 'POST', token: this.token, body: '{}' }, 'POST submit')).status;
  }

  async erase(): Promise<void> {
    await call(this.url(''), { method: 'DELETE', token: this.token }, 'DELETE session').catch(() => undefined);
  }

  close(): void {
    this.reader?.close();
    this.reader = null;
  }

  private url(suffix: string): string {
    return `${this.base}/v1/sessions/${encodeURIComponent(this.sessionId)}${suffix}`;
  }
}
