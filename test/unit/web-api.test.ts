import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiError, createApi, newIdempotencyKey, retryAfterMs, withRetry, type RetryNotice } from '../../services/gateway/web/lib/api.js';
import { pickUiLanguage, STRINGS, t } from '../../services/gateway/web/lib/i18n.js';

/**
 * The page's (and the terminal client's) HTTP helpers over real HTTP: a small
 * local server answers like a shedding gateway, so Retry-After and the
 * contract's error bodies travel the real way.
 */
let server: Server;
let base: string;
const seen: { key: string; auth: string | undefined }[] = [];
let shedFirst = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      if (req.url?.endsWith('/turns')) {
        seen.push({ key: JSON.parse(body).idempotencyKey, auth: req.headers.authorization });
        if (shedFirst-- > 0) {
          res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '0' });
          return res.end(JSON.stringify({ error: { code: 'overloaded', message: 'saturated' } }));
        }
        res.writeHead(202, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ turnId: 'turn-1', position: 0 }));
      }
      res.writeHead(409, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { code: 'not_complete', message: 'required fields are missing' } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('web api helpers', () => {
  it('retries a shed turn with the same idempotency key and reports each wait', async () => {
    const api = createApi(base);
    shedFirst = 2;
    seen.length = 0;
    const notices: RetryNotice[] = [];
    const key = newIdempotencyKey();
    const accepted = await withRetry(() => api.postTurn('s1', 'tok', 'hello', key), { onRetry: (n) => notices.push(n) });
    expect(accepted).toEqual({ turnId: 'turn-1', position: 0 });
    expect(seen).toEqual([
      { key, auth: 'Bearer tok' },
      { key, auth: 'Bearer tok' },
      { key, auth: 'Bearer tok' },
    ]);
    expect(notices.map((n) => [n.attempt, n.error.status, n.error.code, n.delayMs])).toEqual([
      [1, 503, 'overloaded', 0],
      [2, 503, 'overloaded', 0],
    ]);
  });

  it('throws a client mistake at once, with the contract error code and message', async () => {
    const api = createApi(base);
    let tries = 0;
    const err = await withRetry(() => (tries++, api.submit('s1', 'tok'))).catch((e: unknown) => e);
    expect(tries).toBe(1);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 409, code: 'not_complete', message: 'required fields are missing', retryable: false });
  });

  it('treats an unreachable gateway as retryable', async () => {
    const err = await createApi('http://127.0.0.1:1').snapshot('s', 't').catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 0, code: 'unreachable', retryable: true });
  });

  it('retryNow cuts the wait short: no timer has to fire', async () => {
    vi.useFakeTimers();
    try {
      let calls = 0;
      const result = withRetry(
        async () => {
          calls++;
          throw new ApiError(503, 'overloaded', 'saturated', 30_000);
        },
        { maxAttempts: 3, onRetry: (n) => n.retryNow() },
      );
      await expect(result).rejects.toMatchObject({ code: 'overloaded' });
      expect(calls).toBe(3);
    } finally {
      vi.useRealTimers();
    }
  });

  it('reads Retry-After as seconds or as a date', () => {
    expect(retryAfterMs('3')).toBe(3000);
    expect(retryAfterMs(null)).toBeNull();
    expect(retryAfterMs('soon')).toBeNull();
    const inTwo = new Date(Date.now() + 2_000).toUTCString();
    expect(retryAfterMs(inTwo)).toBeGreaterThan(0);
    expect(retryAfterMs(inTwo)).toBeLessThanOrEqual(2_000);
  });

  it('puts the token in the events URL (EventSource sends no headers) and resumes after an id', () => {
    const api = createApi('');
    expect(api.eventsUrl('a b', 'tok')).toBe('/v1/sessions/a%20b/events?token=tok');
    expect(api.eventsUrl('s', 'tok', 42)).toBe('/v1/sessions/s/events?token=tok&lastEventId=42');
  });

  it('makes idempotency keys of 128 random bits', () => {
    const keys = new Set(Array.from({ length: 100 }, newIdempotencyKey));
    expect(keys.size).toBe(100);
    for (const k of keys) expect(k).toMatch(/^[0-9a-f]{32}$/);
  });
});

describe('page language', () => {
  it('takes ?lang= first, then the browser preference, else English', () => {
    expect(pickUiLanguage('?lang=ja', ['en-US'])).toBe('ja');
    expect(pickUiLanguage('', ['fr-FR', 'ja-JP', 'en'])).toBe('ja');
    expect(pickUiLanguage('?lang=de', ['en-GB'])).toBe('en');
    expect(pickUiLanguage('', ['fr'])).toBe('en');
  });

  it('has every string in both languages and fills placeholders', () => {
    expect(Object.keys(STRINGS.ja).sort()).toEqual(Object.keys(STRINGS.en).sort());
    for (const [key, text] of Object.entries(STRINGS.ja)) expect(text, key).not.toBe('');
    expect(t('ja', 'queued', { n: 2 })).toBe('順番待ち（2 番目）');
    expect(t('en', 'busy', { code: 'rate_limited', s: 3 })).toBe('The system is busy (rate_limited). Retrying in 3 s.');
  });
});
