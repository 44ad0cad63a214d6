import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { loadConfig, stepJobId } from '@convo/runtime';
import { startGateway } from '../../services/gateway/src/server.js';
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
    loadConfig({ REDIS_URL: inject('redisUrl'), KEY_PREFIX: prefix, QUEUE_PREFIX: `{${prefix}}`, PORT: '0', LOG_LEVEL: 'silent', FAQ_SEED_FILE: '', ...env }),
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

describe('safe defaults', () => {
  it('listens on loopback unless HOST says otherwise', () => {
    expect(loadConfig({}).host).toBe('127.0.0.1');
    expect(loadConfig({ HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
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

  it('answers no cross-origin request unless CORS_ORIGINS names the origin', async () => {
    const closed = await gateway();
    const preflight = (api: Api, origin: string) =>
      fetch(`${api.base}/v1/sessions`, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' } });
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
