import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiError, createClient, parseRetryAfter, ProblemConflictError, type RetryNotice } from '@convo/client';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

/**
 * The client's HTTP rules over real HTTP: a local server answers like a
 * shedding gateway (429/503 with Retry-After, the contract's error bodies),
 * scripted per test.
 */
type Seen = { method: string; url: string; auth: string | undefined; idempotencyKey: unknown; headerKey: string | undefined };
type Answer = { status: number; headers?: Record<string, string>; body?: unknown };

let server: Server;
let base: string;
const seen: Seen[] = [];
let script: Answer[] = [];

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const json = body === '' ? {} : (JSON.parse(body) as Record<string, unknown>);
      seen.push({
        method: req.method ?? '',
        url: req.url ?? '',
        auth: req.headers.authorization,
        idempotencyKey: json.idempotencyKey,
        headerKey: req.headers['idempotency-key'] as string | undefined,
      });
      const answer = script.shift() ?? { status: 500, body: { error: { code: 'unscripted', message: 'no answer scripted' } } };
      res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
      res.end(answer.body === undefined ? '' : JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  seen.length = 0;
  script = [];
});

const shed = (status: 429 | 503, retryAfter: string): Answer => ({
  status,
  headers: { 'retry-after': retryAfter },
  body: { error: { code: status === 429 ? 'rate_limited' : 'overloaded', message: 'retry later' } },
});

describe('client retries', () => {
  it('a 429 then 202 posts the same idempotency key twice and returns the one turn', async () => {
    script = [shed(429, '0'), { status: 202, body: { turnId: 'turn-1', position: 0 } }];
    const notices: RetryNotice[] = [];
    const client = createClient({ baseUrl: base, token: 'tok', retry: { onRetry: (n) => notices.push(n) } });
    const accepted = await client.sessions.postTurn('s1', { message: 'hello' });
    expect(accepted).toMatchObject({ turnId: 'turn-1', position: 0 });
    expect(seen).toHaveLength(2);
    expect(seen[0]?.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(seen[1]?.idempotencyKey).toBe(seen[0]?.idempotencyKey);
    expect(accepted.idempotencyKey).toBe(seen[0]?.idempotencyKey);
    expect(seen.map((s) => [s.method, s.url, s.auth])).toEqual([
      ['POST', '/v1/sessions/s1/turns', 'Bearer tok'],
      ['POST', '/v1/sessions/s1/turns', 'Bearer tok'],
    ]);
    expect(notices.map((n) => [n.attempt, n.error.status, n.error.code, n.delayMs])).toEqual([[1, 429, 'rate_limited', 0]]);
  });

  it('keeps a key it was given, and waits what Retry-After says (seconds)', async () => {
    script = [shed(503, '1'), { status: 202, body: { turnId: 'turn-2', position: 1 } }];
    const started = performance.now();
    const accepted = await createClient({ baseUrl: base }).sessions.postTurn(
      's1',
      { message: 'hi', idempotencyKey: 'key-1' },
      { token: 'other' },
    );
    expect(performance.now() - started).toBeGreaterThanOrEqual(950);
    expect(accepted).toEqual({ turnId: 'turn-2', position: 1, idempotencyKey: 'key-1' });
    expect(seen.map((s) => [s.idempotencyKey, s.auth])).toEqual([
      ['key-1', 'Bearer other'],
      ['key-1', 'Bearer other'],
    ]);
  });

  it('stops after maxAttempts and throws the last answer as an ApiError with its Retry-After', async () => {
    script = [shed(503, '0'), shed(503, '0'), shed(503, '7')];
    const err = await createClient({ baseUrl: base, retry: { maxAttempts: 3 } })
      .sessions.get('s1')
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 503, code: 'overloaded', message: 'retry later', retryAfterMs: 7000, retryable: true });
    expect(seen).toHaveLength(3);
  });

  it('caps a long Retry-After at maxDelayMs', async () => {
    script = [shed(429, '3600'), { status: 200, body: { documents: [], total: 0, version: 1 } }];
    const notices: RetryNotice[] = [];
    const started = performance.now();
    const list = await createClient({ baseUrl: base, retry: { maxDelayMs: 20, onRetry: (n) => notices.push(n) } }).faq.documents.list({
      language: 'en',
    });
    expect(list.total).toBe(0);
    expect(notices.map((n) => n.delayMs)).toEqual([20]);
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(seen.map((s) => s.url)).toEqual(['/faq/documents?language=en', '/faq/documents?language=en']);
  });

  it('an aborted signal ends the wait at once with the abort reason', async () => {
    script = [shed(503, '60')];
    const controller = new AbortController();
    const client = createClient({ baseUrl: base, retry: { onRetry: () => controller.abort(new Error('left the page')) } });
    const started = performance.now();
    await expect(client.sessions.get('s1', { signal: controller.signal })).rejects.toThrow('left the page');
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(seen).toHaveLength(1);
  });

  it('retryNow cuts a wait short', async () => {
    script = [shed(503, '60'), { status: 200, body: { sessionId: 's1' } }];
    const client = createClient({ baseUrl: base, retry: { onRetry: (n) => n.retryNow() } });
    await expect(client.sessions.get('s1')).resolves.toEqual({ sessionId: 's1' });
  });

  it('throws a client mistake at once, with the contract error code and message', async () => {
    script = [{ status: 409, body: { error: { code: 'not_complete', message: 'required fields are missing' } } }];
    const err = await createClient({ baseUrl: base })
      .sessions.submit('s1')
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({
      status: 409,
      code: 'not_complete',
      message: 'required fields are missing',
      retryable: false,
      retryAfterMs: null,
    });
    expect(seen).toHaveLength(1);
  });

  it('a stale problem version is a typed conflict carrying the current problem', async () => {
    const problem = { id: 'ws-1-p1', version: 3 };
    script = [{ status: 409, body: { error: { code: 'version_conflict', message: 'stale' }, problem } }];
    const err = await createClient({ baseUrl: base })
      .workbench.patchProblem('ws-1-p1', { field: 'prompt', value: 'x', version: 2 })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProblemConflictError);
    expect(err).toMatchObject({ status: 409, code: 'version_conflict', problem });
  });

  it('sends the dialog’s Idempotency-Key header, the same on every retry', async () => {
    script = [shed(503, '0'), { status: 200, body: { sessionId: 'dialog-1', answer: 'yes', sessionToken: 'st' } }];
    const result = await createClient({ baseUrl: base }).faq.dialog({ message: 'PayPal?' });
    expect(result).toMatchObject({ sessionId: 'dialog-1', sessionToken: 'st' });
    expect(seen[0]?.headerKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(seen[1]?.headerKey).toBe(seen[0]?.headerKey);
  });

  it('retries an unreachable gateway for a repeatable call, never for one that creates something', async () => {
    const unreachable = createClient({ baseUrl: 'http://127.0.0.1:1', retry: { maxAttempts: 2, maxDelayMs: 0 } });
    const notices: RetryNotice[] = [];
    const err = await unreachable.sessions.get('s', { retry: { onRetry: (n) => notices.push(n) } }).catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 0, code: 'unreachable', retryable: true });
    expect(notices).toHaveLength(1);
    const created = await unreachable.sessions
      .create({ kind: 'faq' }, { retry: { onRetry: (n) => notices.push(n) } })
      .catch((e: unknown) => e);
    expect(created).toMatchObject({ status: 0, code: 'unreachable' });
    expect(notices).toHaveLength(1);
  });
});

describe('Retry-After', () => {
  it('reads delta-seconds and HTTP dates, and nothing else', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('3', now)).toBe(3000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:05 GMT', now)).toBe(5000);
    expect(parseRetryAfter('Wed, 31 Dec 2025 23:59:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter('-1', now)).toBeNull();
    expect(parseRetryAfter(null, now)).toBeNull();
    expect(parseRetryAfter('', now)).toBeNull();
  });
});
