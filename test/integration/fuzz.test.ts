import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startGateway } from '../../services/gateway/src/server.js';
import { loadGatewayConfig } from '../../services/gateway/src/config.js';
import { Api, loadForm, type Json } from '../support/api.js';

/**
 * Property-based fuzzing of every route of the gateway (in-process, real
 * Redis, no agents): the routes come from the gateway's own OpenAPI document,
 * and each gets path parameters, query strings, headers and bodies built by
 * fast-check, from valid examples mutated to arbitrary JSON, broken JSON,
 * CSV and form definitions. Whatever arrives: never a 5xx other than the
 * contract's 503/504, always the contract's error shape, and the gateway
 * still answering afterwards. `FUZZ_RUNS` sets the cases per route.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 60);
const WRITE_KEY = `fuzz-editor-${randomUUID()}`;
const prefix = `fuzz-${randomUUID().slice(0, 8)}`;
let gw: Awaited<ReturnType<typeof startGateway>>;
let api: Api;
let session: { sessionId: string; token: string };
let faq: { sessionId: string; token: string };
let cases = 0;

beforeAll(async () => {
  gw = await startGateway(
    loadGatewayConfig({
      REDIS_URL: inject('redisUrl'),
      KEY_PREFIX: prefix,
      QUEUE_PREFIX: `{${prefix}}`,
      PORT: '0',
      LOG_LEVEL: 'silent',
      FAQ_SEED_FILE: '',
      FAQ_WRITE_KEY: WRITE_KEY,
      RATE_LIMIT_MAX: '0',
      // No agent runs here: waits end quickly, as the contract's 504.
      DIALOG_TIMEOUT_MS: '100',
      SEARCH_TIMEOUT_MS: '100',
      MAX_QUEUED_TURNS: '1000',
    }),
  );
  api = new Api(`http://127.0.0.1:${gw.port}`);
  session = await api.createSession(loadForm('event-registration-en.json'));
  faq = await api.createSession(undefined, 'faq');
});
afterAll(async () => {
  console.log(`[fuzz] ${cases} requests over every route`);
  await gw?.close();
  const redis = new Redis(inject('redisUrl'));
  const keys = await redis.keys(`${prefix}:*`);
  if (keys.length) await redis.del(...keys);
  redis.disconnect();
});

/** Strings that break naive code: empty, huge, control characters, unicode, traversal, injection-looking. */
const nasty = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme', maxLength: 50 }),
  fc.constantFrom(
    '',
    ' ',
    '..',
    '../../etc/passwd',
    '%00',
    '\u0000',
    '\ud800',
    '🙂'.repeat(40),
    'a'.repeat(10_000),
    '{"$ne":null}',
    "'; DROP TABLE x;--",
    '-1',
    '1e309',
    'NaN',
    'null',
    '__proto__',
    'constructor',
  ),
);
const json = fc.jsonValue({ maxDepth: 4 });

/** A valid body of each route, to be mutated: fields removed, replaced, retyped. */
const EXAMPLES: Record<string, () => Json> = {
  'POST /v1/sessions': () => ({ kind: 'form', form: loadForm('event-registration-en.json'), options: { language: 'en' } }),
  'POST /v1/sessions/{id}/turns': () => ({ message: 'hello', idempotencyKey: randomUUID(), multitask: 'enqueue' }),
  'POST /agent.dialog': () => ({
    message: '送料は？',
    options: { topK: 3, language: 'ja', useLlmPlanner: false, useMultiStepPlanner: true, mode: 'local', debug: false },
  }),
  'POST /agent.search': () => ({ query: '送料', topK: 3, language: 'ja' }),
  'POST /faq/documents': () => [{ id: 'fz-1', question: 'Q?', answer: 'A.', tags: ['x'], language: 'en' }],
  'POST /api/worksheets': () => ({ subject: 'math', grade: 4, difficulty: 'normal', count: 3, language: 'en', topic: 'fractions' }),
  'PATCH /api/problems/{id}': () => ({ field: 'prompt', value: 'x', version: 1 }),
  'POST /api/problems/{id}/agent': () => ({ request: 'make it easier' }),
};

/** The example with one of its fields removed, replaced by anything, or the whole body replaced. */
function mutated(example: Json): fc.Arbitrary<unknown> {
  const keys = Array.isArray(example) ? [] : Object.keys(example);
  const variants: Array<fc.Arbitrary<unknown>> = [fc.constant(example), json, nasty];
  if (keys.length > 0) {
    variants.push(
      fc.constantFrom(...keys).map((key) => {
        const { [key]: _dropped, ...rest } = example;
        return rest;
      }),
      fc.tuple(fc.constantFrom(...keys), fc.oneof(json, nasty)).map(([key, value]) => ({ ...example, [key]: value })),
    );
  }
  if (Array.isArray(example))
    variants.push(fc.array(fc.oneof(json, fc.record({ question: nasty, answer: nasty, id: fc.option(nasty) })), { maxLength: 5 }));
  return fc.oneof(...variants);
}

type Route = { method: string; path: string };

/** A lone surrogate cannot be put in a URL by any client: it goes as U+FFFD, as a UTF-8 encoder sends it. */
const wellFormed = (text: string) => Buffer.from(text, 'utf8').toString('utf8');

async function routes(): Promise<Route[]> {
  const doc = (await api.call('GET', '/docs/json')).json;
  const out: Route[] = [];
  for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, unknown>>)) {
    for (const method of Object.keys(ops)) {
      // The event stream never ends by itself: fuzzed separately below.
      if (path.endsWith('/events') || path.startsWith('/admin')) continue;
      out.push({ method: method.toUpperCase(), path });
    }
  }
  return out;
}

function checkAnswer(what: string, res: { status: number; json: Json; headers: Headers }): void {
  cases++;
  expect(res.status, what).toBeLessThan(600);
  // 503 and 504 are the contract's own answers (nothing runs the queued work here); anything else 5xx is a bug.
  expect([500, 501, 502].includes(res.status), `${what} → ${res.status} ${JSON.stringify(res.json).slice(0, 300)}`).toBe(false);
  expect(res.status, `${what}: ${JSON.stringify(res.json).slice(0, 200)}`).toBeGreaterThanOrEqual(200);
  const isJson = (res.headers.get('content-type') ?? '').includes('application/json');
  if (res.status >= 400 && isJson) {
    expect(res.json, `${what} → ${res.status} ${JSON.stringify(res.json).slice(0, 200)}`).toMatchObject({
      error: { code: expect.stringMatching(/^[a-z0-9_]+$/), message: expect.any(String) },
    });
  }
}

describe('fuzzing every route', () => {
  it('answers any path parameter, query, header and body with a contract answer, never a crash', { timeout: 600_000 }, async () => {
    const all = await routes();
    expect(all.length).toBeGreaterThan(20);
    for (const route of all) {
      const example = EXAMPLES[`${route.method} ${route.path}`];
      const params = route.path.match(/\{(\w+)\}/g) ?? [];
      const body =
        route.method === 'GET' || route.method === 'DELETE'
          ? fc.constant(undefined)
          : example
            ? mutated(example())
            : fc.oneof(json, fc.constant({}));
      const idOf = fc.oneof(fc.constantFrom(session.sessionId, faq.sessionId, `${session.sessionId}-p1`, 'ws-missing'), nasty);
      await fc.assert(
        fc.asyncProperty(
          fc.array(idOf, { minLength: params.length, maxLength: params.length }),
          body,
          fc.dictionary(fc.constantFrom('limit', 'offset', 'language', 'token', 'lastEventId', 'format', 'q'), nasty, { maxKeys: 3 }),
          fc.record({
            token: fc.option(fc.constantFrom(session.token, faq.token, WRITE_KEY, 'wrong'), { nil: undefined }),
            contentType: fc.constantFrom(
              'application/json',
              'application/json; charset=utf-8',
              'text/csv',
              'text/plain',
              'application/x-www-form-urlencoded',
              'multipart/form-data; boundary=x',
            ),
            raw: fc.option(
              fc.oneof(nasty, fc.constantFrom('{"message": ', '[', 'question,answer\n"a', 'question,answer\nq,a\n', '\uFEFF{}')),
              { nil: undefined },
            ),
            idempotencyKey: fc.option(nasty, { nil: undefined }),
          }),
          async (values, payload, query, h) => {
            let path = route.path;
            for (const [i, name] of params.entries()) path = path.replace(name, encodeURIComponent(wellFormed(values[i] ?? '')));
            // A lone surrogate cannot be put in a URL by any client: it is sent as U+FFFD.
            const qs = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, wellFormed(v)])).toString();
            const headers: Record<string, string> = {};
            if (h.idempotencyKey !== undefined && /^[\x20-\x7e]*$/.test(h.idempotencyKey)) headers['idempotency-key'] = h.idempotencyKey;
            const withBody = route.method !== 'GET' && route.method !== 'DELETE';
            if (withBody) headers['content-type'] = h.contentType;
            const res = await api.call(route.method, `${path}${qs ? `?${qs}` : ''}`, {
              token: h.token,
              headers,
              ...(withBody ? { rawBody: h.raw ?? JSON.stringify(payload ?? null) } : {}),
            });
            checkAnswer(`${route.method} ${path.slice(0, 80)}`, res);
          },
        ),
        { numRuns: RUNS },
      );
    }
    // Still answering (the sessions used may have been deleted by the fuzzed DELETE, as they should).
    expect((await api.call('GET', '/healthz')).status).toBe(200);
    expect((await api.call('GET', '/readyz')).status).toBe(200);
  });

  it('answers any Last-Event-ID and query on the event stream with the stream or a 400', { timeout: 120_000 }, async () => {
    const streamed = await api.createSession(loadForm('event-registration-en.json'));
    await fc.assert(
      fc.asyncProperty(fc.oneof(nasty, fc.nat().map(String), fc.bigInt().map(String)), fc.boolean(), async (lastEventId, asQuery) => {
        const controller = new AbortController();
        const base = `${api.base}/v1/sessions/${streamed.sessionId}/events?token=${encodeURIComponent(streamed.token)}`;
        const header = /^[\x20-\x7e]*$/.test(lastEventId) && !asQuery ? { 'last-event-id': lastEventId } : undefined;
        const url = header ? base : `${base}&lastEventId=${encodeURIComponent(wellFormed(lastEventId))}`;
        const res = await fetch(url, { headers: header, signal: controller.signal });
        cases++;
        expect([200, 400]).toContain(res.status);
        if (res.status === 400) expect(await res.json()).toMatchObject({ error: { code: 'invalid_last_event_id' } });
        controller.abort();
      }),
      { numRuns: RUNS * 3 },
    );
  });
});
