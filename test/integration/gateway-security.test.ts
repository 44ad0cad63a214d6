import { randomUUID } from 'node:crypto';
import { connect } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { loadConfig, stepJobId } from '@convo/runtime';
import { startGateway } from '../../services/gateway/src/server.js';
import { loadGatewayConfig } from '../../services/gateway/src/config.js';
import { Api, loadForm } from '../support/api.js';

/**
 * Safe defaults, on the gateway in-process over a real Redis: loopback unless
 * HOST says otherwise, corpus writes refused without a key, CORS closed
 * unless configured, security headers on every answer (SSE included).
 */
const prefix = `sec-${randomUUID().slice(0, 8)}`;
const gateways: Array<Awaited<ReturnType<typeof startGateway>>> = [];

async function gateway(env: Record<string, string> = {}): Promise<Api> {
  return (await gatewayWithDeps(env)).api;
}

async function gatewayWithDeps(env: Record<string, string> = {}) {
  const gw = await startGateway(
    loadGatewayConfig({
      REDIS_URL: inject('redisUrl'),
      KEY_PREFIX: prefix,
      QUEUE_PREFIX: `{${prefix}}`,
      PORT: '0',
      LOG_LEVEL: 'silent',
      FAQ_SEED_FILE: '',
      ...env,
    }),
  );
  gateways.push(gw);
  return { api: new Api(`http://127.0.0.1:${gw.port}`), deps: gw.deps };
}

afterAll(async () => {
  await Promise.all(gateways.map((gw) => gw.close()));
  const redis = new Redis(inject('redisUrl'));
  const keys = await redis.keys(`${prefix}:*`);
  if (keys.length) await redis.del(...keys);
  redis.disconnect();
});

const doc = { id: 'sec-doc', question: 'Is this open?', answer: 'Only with a key.' };

/** Sends `request` as raw bytes and resolves with everything the server wrote before closing. */
function rawRequest(base: string, request: string): Promise<string> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname, () => socket.end(request));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', (err) => (chunks.length > 0 ? resolve(Buffer.concat(chunks).toString('utf8')) : reject(err)));
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

function parseRawHeaders(response: string): Headers {
  const head = response.slice(0, response.indexOf('\r\n\r\n'));
  return new Headers(
    head
      .split('\r\n')
      .slice(1)
      .map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).trim()] as [string, string]),
  );
}

describe('safe defaults', () => {
  it('listens on loopback unless HOST says otherwise', () => {
    expect(loadConfig({}).host).toBe('127.0.0.1');
    expect(loadGatewayConfig({ HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
  });

  it('refuses corpus writes when no key is configured, saying how to enable them', async () => {
    const api = await gateway();
    const res = await api.call('POST', '/faq/documents', { body: doc });
    expect(res.status).toBe(403);
    expect(res.json.error).toMatchObject({ code: 'faq_writes_disabled', message: expect.stringMatching(/FAQ_WRITE_KEY/) });
    expect((await api.call('DELETE', '/faq/documents/sec-doc')).status).toBe(403);
    // Reading stays open.
    expect((await api.call('GET', '/faq/documents?limit=1')).status).toBe(200);
  });

  it('takes the FAQ write key or the operator key, and nothing else, when configured; the development switch opens writes', async () => {
    const api = await gateway({ FAQ_WRITE_KEY: 'editor-key-0123456789', OPERATOR_KEY: 'operator-key-0123456789' });
    expect((await api.call('POST', '/faq/documents', { body: doc })).status).toBe(401);
    expect((await api.call('POST', '/faq/documents', { body: doc, token: 'editor-key-012345678' })).status).toBe(401);
    expect((await api.call('POST', '/faq/documents', { body: doc, token: 'editor-key-0123456789' })).status).toBe(200);
    expect((await api.call('DELETE', '/faq/documents/sec-doc', { token: 'operator-key-0123456789' })).status).toBe(204);
    const open = await gateway({ FAQ_OPEN_WRITES: 'true' });
    expect((await open.call('POST', '/faq/documents', { body: doc })).status).toBe(200);
    expect((await open.call('DELETE', '/faq/documents/sec-doc')).status).toBe(204);
  });

  it('sends security headers on API answers, errors, pages and event streams', async () => {
    const api = await gateway();
    const session = await api.createSession(loadForm('event-registration-en.json'));
    const answers = [
      await fetch(`${api.base}/v1/sessions/${session.sessionId}`, { headers: { authorization: `Bearer ${session.token}` } }),
      await fetch(`${api.base}/v1/sessions/nope`, { headers: { authorization: 'Bearer x' } }),
      await fetch(`${api.base}/`),
    ];
    const controller = new AbortController();
    const stream = await fetch(`${api.base}/v1/sessions/${session.sessionId}/events?token=${session.token}`, { signal: controller.signal });
    answers.push(stream);
    for (const res of answers) {
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('content-security-policy')).toMatch(/default-src 'self'/);
      expect(res.headers.get('content-security-policy')).toMatch(/frame-ancestors 'none'/);
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      expect(res.headers.get('x-powered-by')).toBeNull();
    }
    expect(stream.headers.get('content-type')).toMatch(/text\/event-stream/);
    controller.abort();
  });

  it("sends them on answers that leave before any hook runs: router errors and requests Node's parser refuses", async () => {
    const api = await gateway();
    const overLong = await fetch(`${api.base}/v1/sessions/${'x'.repeat(101)}`);
    const badEscape = await fetch(`${api.base}/v1/sessions/%E0%A4%A`);
    expect([overLong.status, badEscape.status]).toEqual([414, 400]);
    expect([(await overLong.json()).error.code, (await badEscape.json()).error.code]).toEqual(['max_param_length', 'bad_url']);
    // Headers over Node's limit (16 KiB): refused by the HTTP parser, answered on the raw socket.
    const tooLarge = await rawRequest(api.base, `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(tooLarge).toMatch(/^HTTP\/1\.1 431 /);
    for (const headers of [overLong.headers, badEscape.headers, parseRawHeaders(tooLarge)]) {
      expect(headers.get('x-content-type-options')).toBe('nosniff');
      expect(headers.get('content-security-policy')).toMatch(/frame-ancestors 'none'/);
      expect(headers.get('referrer-policy')).toBe('no-referrer');
      expect(headers.get('strict-transport-security')).toMatch(/max-age=/);
      expect(headers.get('cross-origin-resource-policy')).toBe('same-origin');
    }
  });

  it('refuses a body of another media type, text/plain included, with 415 and keeps nothing', async () => {
    const api = await gateway();
    for (const type of ['text/plain', 'text/plain;charset=UTF-8', 'application/xml']) {
      const res = await fetch(`${api.base}/v1/sessions`, { method: 'POST', headers: { 'content-type': type }, body: '{"kind":"faq"}' });
      expect(res.status, type).toBe(415);
      expect((await res.json()).error.code).toBe('invalid_media_type');
    }
    const json = await fetch(`${api.base}/v1/sessions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"kind":"faq"}',
    });
    expect(json.status).toBe(201);
  });

  it('answers no cross-origin request unless CORS_ORIGINS names the origin', async () => {
    const closed = await gateway();
    const preflight = (api: Api, origin: string) =>
      fetch(`${api.base}/v1/sessions`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
      });
    expect((await preflight(closed, 'https://app.example')).headers.get('access-control-allow-origin')).toBeNull();
    const simple = await fetch(`${closed.base}/healthz`, { headers: { origin: 'https://app.example' } });
    expect(simple.headers.get('access-control-allow-origin')).toBeNull();

    const open = await gateway({ CORS_ORIGINS: 'https://app.example' });
    const allowed = await preflight(open, 'https://app.example');
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://app.example');
    expect((await preflight(open, 'https://evil.example')).headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('retention', () => {
  it('DELETE /v1/sessions/:id removes every key of the session and its step job still waiting in a queue', async () => {
    // No greeter runs here: the greeting's step job waits in its queue.
    const { api, deps } = await gatewayWithDeps();
    const session = await api.createSession(loadForm('event-registration-en.json'));
    const jobId = stepJobId(session.sessionId, 1);
    expect(await deps.queues.forSession('greeter', session.sessionId).getJob(jobId)).toBeTruthy();
    expect((await api.call('DELETE', `/v1/sessions/${session.sessionId}`, { token: session.token })).status).toBe(204);
    expect(await deps.queues.forSession('greeter', session.sessionId).getJob(jobId)).toBeUndefined();
    const redis = new Redis(inject('redisUrl'));
    expect(await redis.keys(`${prefix}:s:{${session.sessionId}}*`)).toEqual([]);
    redis.disconnect();
  });
});
