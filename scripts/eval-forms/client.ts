import { ApiError, createClient, type ConvoClient, type CreateSessionInput, type EventStream } from '@convo/client';
import type { Snapshot } from './respondent.js';

/**
 * A black-box client of one session on @convo/client, speaking only the
 * public contract (docs/api.md): POST /v1/sessions, the event stream, GET
 * snapshot, POST turns, POST submit, DELETE.
 */

/** Shed load (503/429) is retried after its Retry-After, a few times: the eval measures answers, not the shedder. */
const RETRY = { maxAttempts: 6, maxDelayMs: 10_000 };
const CALL_TIMEOUT_MS = 30_000;

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
    what: string,
  ) {
    super(`${what} answered ${status}: ${body.slice(0, 200)}`);
  }
}

export type TurnEnd = { type: 'turn.completed' | 'turn.failed'; turnId: string };

/** Turn ends seen on the stream, and waiters for them. */
class TurnTracker {
  private readonly ended = new Map<string, TurnEnd>();
  private firstStarted: string | null = null;
  private readonly waiters = new Set<() => void>();

  onEvent(type: string, data: object): void {
    const turnId = 'turnId' in data && typeof data.turnId === 'string' ? data.turnId : null;
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
  private stream: EventStream | null = null;
  private reading: Promise<void> | null = null;
  private readonly turns = new TurnTracker();
  streamError: Error | null = null;

  private constructor(
    private readonly client: ConvoClient,
    readonly sessionId: string,
  ) {}

  static async create(base: string, body: CreateSessionInput): Promise<SessionClient> {
    const client = createClient({ baseUrl: base, retry: RETRY });
    const created = await client.sessions.create(body, { signal: AbortSignal.timeout(CALL_TIMEOUT_MS) }).catch(named('POST /v1/sessions'));
    const session = new SessionClient(client.withToken(created.token), created.sessionId);
    session.follow();
    return session;
  }

  private follow(): void {
    const stream = this.client.sessions.events(this.sessionId);
    this.stream = stream;
    this.reading = (async () => {
      try {
        for await (const ev of stream) this.turns.onEvent(ev.type, ev.data);
      } catch (err) {
        this.streamError = err instanceof Error ? err : new Error(String(err));
      }
    })();
  }

  waitTurnEnd(turnId: string | null, timeoutMs: number): Promise<TurnEnd | null> {
    return this.turns.wait(turnId, timeoutMs);
  }

  async snapshot(): Promise<Snapshot> {
    return (await this.client.sessions
      .get(this.sessionId, { signal: AbortSignal.timeout(CALL_TIMEOUT_MS) })
      .catch(named('GET session'))) as unknown as Snapshot;
  }

  async postTurn(message: string, idempotencyKey: string): Promise<string> {
    const accepted = await this.client.sessions
      .postTurn(this.sessionId, { message, idempotencyKey }, { signal: AbortSignal.timeout(CALL_TIMEOUT_MS) })
      .catch(named('POST turns'));
    return accepted.turnId;
  }

  /** The HTTP status of POST /submit (200 or 409 by the contract). */
  async submit(): Promise<number> {
    try {
      await this.client.sessions.submit(this.sessionId, { signal: AbortSignal.timeout(CALL_TIMEOUT_MS) });
      return 200;
    } catch (err) {
      if (err instanceof ApiError && err.status !== 0) return err.status;
      throw err;
    }
  }

  async erase(): Promise<void> {
    await this.client.sessions.delete(this.sessionId, { signal: AbortSignal.timeout(CALL_TIMEOUT_MS) }).catch(() => undefined);
  }

  close(): void {
    this.stream?.close();
    this.stream = null;
  }
}

/** Rethrows a failed call as an error that names it. */
function named(what: string): (err: unknown) => never {
  return (err) => {
    if (err instanceof ApiError && err.status !== 0) throw new HttpError(err.status, JSON.stringify(err.body), what);
    throw new Error(`${what}: ${err instanceof Error ? err.message : String(err)}`);
  };
}
