import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, inject, it, vi } from 'vitest';
import { Api, loadForm } from '../support/api.js';
import { startService, startStack, type ServiceProcess, type Stack } from '../support/processes.js';
import { SseRecorder } from '../support/sse.js';

/**
 * Load shedding at the gateway (docs/api.md, "Rate limiting, quotas and load shedding": 503 for the system, 429 per client
 * or per session, always with Retry-After), on a real Redis with the agents
 * deliberately absent so a backlog builds up.
 */
const stacks: Stack[] = [];
const extra: ServiceProcess[] = [];
afterAll(async () => {
  await Promise.all([...stacks.map((s) => s.stop()), ...extra.map((p) => p.kill())]);
});

function prefixes() {
  const id = randomUUID().slice(0, 8);
  return { KEY_PREFIX: `shed-${id}`, QUEUE_PREFIX: `{shed-${id}}` };
}

const OPERATOR_KEY = 'operator-key-of-the-shedding-test-0123456789';
/** /metrics is behind the operator key. */
const metricsOf = (api: Api) =>
  fetch(`${api.base}/metrics`, { headers: { authorization: `Bearer ${OPERATOR_KEY}` } }).then((r) => r.text());

async function gateway(env: Record<string, string>): Promise<Api> {
  const stack = await startStack({ env: { REDIS_URL: inject('redisUrl'), OPERATOR_KEY, ...env }, services: [] });
  stacks.push(stack);
  return new Api(stack.url);
}

const form = loadForm('event-registration-en.json');

describe('load shedding', () => {
  it('answers 503 overloaded with Retry-After once an agent queue holds more than SHED_QUEUE_BACKLOG waiting jobs; reads still work', async () => {
    const api = await gateway({ ...prefixes(), SHED_QUEUE_BACKLOG: '3', SHED_CHECK_MS: '20' });
    // No greeter runs: every new form session leaves its greeting job waiting.
    const sessions = [];
    for (let i = 0; i < 4; i++) sessions.push(await api.createSession(form, 'form'));
    let shed: Awaited<ReturnType<Api['call']>> | undefined;
    await vi.waitFor(
      async () => {
        shed = await api.call('POST', '/v1/sessions', { body: { kind: 'form', form } });
        expect(shed.status).toBe(503);
      },
      { timeout: 5_000, interval: 25 },
    );
    expect(shed!.json.error.code).toBe('overloaded');
    expect(shed!.json.error.message).toMatch(/greeter/);
    expect(Number(shed!.headers.get('retry-after'))).toBeGreaterThanOrEqual(2);

    const session = sessions[0]!;
    const turn = await api.turn(session.sessionId, session.token, 'hello');
    expect(turn.status).toBe(503);
    expect(turn.headers.get('retry-after')).toBeTruthy();
    expect((await api.call('POST', '/agent.search', { body: { query: '送料' } })).status).toBe(503);
    // Reading is not work: snapshots, health and metrics still answer.
    expect((await api.call('GET', `/v1/sessions/${session.sessionId}`, { token: session.token })).status).toBe(200);
    expect((await api.call('GET', '/healthz')).status).toBe(200);

    const metrics = await metricsOf(api);
    expect(metrics).toMatch(/convo_shed_requests_total\{reason="queue_backlog",status="503"\} [1-9]/);
    expect(metrics).toMatch(/convo_queue_jobs\{queue="agent-greeter",state="waiting"\} [4-9]/);
  });

  it('answers 429 rate_limited per client, counted in Redis across gateway replicas', async () => {
    const env = { ...prefixes(), RATE_LIMIT_MAX: '3', RATE_LIMIT_WINDOW_MS: '60000' };
    const [gatewayA, gatewayB] = await Promise.all([gateway(env), gateway(env)]);
    const create = (api: Api) => api.call('POST', '/v1/sessions', { body: { kind: 'faq' } });
    expect((await create(gatewayA)).status).toBe(201);
    expect((await create(gatewayB)).status).toBe(201);
    expect((await create(gatewayA)).status).toBe(201);
    const limited = await create(gatewayB);
    expect(limited.status).toBe(429);
    expect(limited.json.error.code).toBe('rate_limited');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // Routes that create no work are not limited.
    expect((await gatewayA.call('GET', '/faq/documents?limit=1')).status).toBe(200);
    expect(await metricsOf(gatewayB)).toMatch(/convo_shed_requests_total\{reason="client_rate",status="429"\} 1/);
  });

  it('answers 429 too_many_queued_turns when a session already has MAX_QUEUED_TURNS turns waiting, and loses none it accepted', async () => {
    const names = prefixes();
    const api = await gateway({ ...names, MAX_QUEUED_TURNS: '2' });
    const session = await api.createSession(undefined, 'faq');
    const accepted: string[] = [];
    for (const message of ['北海道への送料を教えてください', '沖縄は？', 'じゃあ返品ポリシーも知りたい']) {
      const response = await api.turn(session.sessionId, session.token, message);
      expect(response.status).toBe(202);
      accepted.push(response.json.turnId);
    }
    const full = await api.turn(session.sessionId, session.token, 'one too many');
    expect(full.status).toBe(429);
    expect(full.json.error.code).toBe('too_many_queued_turns');
    expect(full.headers.get('retry-after')).toBeTruthy();

    // Every accepted turn runs once the agents come up, in order.
    const sse = await SseRecorder.open(api.eventsUrl(session.sessionId, session.token));
    const env = { REDIS_URL: inject('redisUrl'), ...names };
    extra.push(...(await Promise.all([startService('planner', env), startService('search', env)])));
    await sse.waitFor((evs) => evs.filter((e) => e.type === 'turn.completed').length === 3, 20_000, 'three turns completed');
    const completed = sse.events.filter((e) => e.type === 'turn.completed').map((e) => e.data.turnId);
    expect(completed).toEqual(accepted);
    sse.close();
  });
});
