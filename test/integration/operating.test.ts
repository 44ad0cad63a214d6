import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, inject, it, vi } from 'vitest';
import { Api, loadForm } from '../support/api.js';
import { startService, startStack, type ServiceProcess, type Stack } from '../support/processes.js';
import { SseRecorder } from '../support/sse.js';

/**
 * What operators rely on (docs/api.md, "6. Operators"): /metrics with every
 * worker's figures, worker probes, the queue dashboard behind the operator key, and graceful
 * shutdown of workers and gateway with a turn in flight.
 */
const stacks: Stack[] = [];
const extra: ServiceProcess[] = [];
afterAll(async () => {
  await Promise.all([...stacks.map((s) => s.stop()), ...extra.map((p) => p.kill())]);
});

function names() {
  const id = randomUUID().slice(0, 8);
  return { KEY_PREFIX: `ops-${id}`, QUEUE_PREFIX: `{ops-${id}}` };
}

async function stack(env: Record<string, string>, services?: string[]): Promise<{ stack: Stack; api: Api }> {
  const started = await startStack({ env: { REDIS_URL: inject('redisUrl'), ...env }, ...(services ? { services } : {}) });
  stacks.push(started);
  return { stack: started, api: new Api(started.url) };
}

const form = loadForm('event-registration-en.json');

/** The value of one sample line of Prometheus text, e.g. `name{a="b"}`; NaN when absent. */
function sample(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : NaN;
}

describe('metrics', () => {
  it('serves Prometheus text with queue, SSE, Redis and shed figures of the gateway and the job, turn and model figures of every worker', async () => {
    const { stack: running, api } = await stack({ ...names(), METRICS_PUSH_MS: '100', OPERATOR_KEY: 'op-secret' });
    const session = await api.createSession(form, 'form', { language: 'en' });
    const sse = await SseRecorder.open(api.eventsUrl(session.sessionId, session.token));
    await sse.waitTurns(1);
    const turn = await api.turn(session.sessionId, session.token, 'I live in Tokyo, Japan');
    await sse.waitFor(
      (evs) => evs.some((e) => e.type === 'turn.completed' && e.data.turnId === turn.json.turnId),
      15_000,
      'turn completed',
    );

    let text = '';
    // Workers publish every METRICS_PUSH_MS: wait until every one that took part has.
    await vi.waitFor(
      async () => {
        // Behind the operator key, as a Prometheus scraper sends it.
        const res = await fetch(`${api.base}/metrics`, { headers: { authorization: 'Bearer op-secret' } });
        expect(res.headers.get('content-type')).toMatch(/text\/plain/);
        text = await res.text();
        expect(sample(text, 'convo_turn_duration_seconds_count{kind="form",outcome="completed"}')).toBeGreaterThanOrEqual(1);
        for (const agent of ['greeter', 'architect', 'interviewer']) {
          expect(
            sample(text, `convo_agent_job_duration_seconds_count{agent="${agent}",job="step",outcome="ok"}`),
            agent,
          ).toBeGreaterThanOrEqual(1);
        }
      },
      { timeout: 5_000, interval: 50 },
    );

    expect(sample(text, 'convo_sse_connections')).toBe(1);
    expect(sample(text, 'convo_redis_rtt_seconds')).toBeGreaterThan(0);
    expect(text).toMatch(/^# TYPE convo_queue_jobs gauge$/m);
    expect(sample(text, 'convo_queue_jobs{queue="agent-interviewer",state="completed"}')).toBeGreaterThanOrEqual(1);
    expect(text).toMatch(/^# TYPE convo_shed_requests_total counter$/m);
    for (const agent of ['greeter', 'architect', 'interviewer', 'reviewer'])
      expect(sample(text, `convo_worker_processes{service="${agent}"}`), agent).toBe(1);
    expect(
      sample(text, 'convo_llm_call_duration_seconds_count{agent="greeter",provider="offline",model="gpt-4.1-mini",outcome="ok"}'),
    ).toBeGreaterThanOrEqual(1);
    expect(text).toMatch(/^convo_llm_tokens_total\{agent="greeter",provider="offline",model="gpt-4.1-mini",kind="prompt"\} \d+/m);
    expect(text).toMatch(/^convo_turn_duration_seconds_bucket\{le="0\.1",kind="form",outcome="completed"\} \d+/m);
    expect(text).toMatch(/^process_resident_memory_bytes \d+/m);
    sse.close();

    // Each worker answers its own probes on its health port.
    const ready = await running.procs.reviewer!.waitForLine((l) => l.json?.msg === 'ready');
    const port = Number(ready.json!.healthPort);
    expect(port).toBeGreaterThan(0);
    expect(await fetch(`http://127.0.0.1:${port}/healthz`).then((r) => r.status)).toBe(200);
    expect(await fetch(`http://127.0.0.1:${port}/readyz`).then((r) => r.json())).toEqual({ status: 'ready' });
    expect(await fetch(`http://127.0.0.1:${port}/metrics`).then((r) => r.text())).toMatch(
      /^# TYPE convo_agent_job_duration_seconds histogram$/m,
    );
  }, 180_000); // it starts its own stack of every worker and waits for each one's published figures: 37 s on a quiet 2-core machine, over 60 s on a busy one
});

describe('queue dashboard', () => {
  it('is behind OPERATOR_KEY (Bearer or Basic auth) and off without one', async () => {
    const { api } = await stack({ ...names(), OPERATOR_KEY: 'op-secret' }, []);
    const anonymous = await api.call('GET', '/admin/queues');
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toMatch(/^Basic/);
    expect((await api.call('GET', '/admin/queues', { headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
    const basic = await api.call('GET', '/admin/queues', {
      headers: { authorization: `Basic ${Buffer.from('ops:op-secret').toString('base64')}` },
    });
    expect(basic.status).toBe(200);
    expect(basic.headers.get('content-type')).toMatch(/text\/html/);
    const queues = await api.call('GET', '/admin/queues/api/queues', { headers: { authorization: 'Bearer op-secret' } });
    expect(queues.status).toBe(200);
    expect(JSON.stringify(queues.json)).toMatch(/agent-reviewer/);

    const { api: closed } = await stack(names(), []);
    const off = await closed.call('GET', '/admin/queues', { headers: { authorization: 'Bearer anything' } });
    expect(off.status).toBe(403);
    expect(off.json.error.code).toBe('operator_key_not_configured');
  });
});

describe('graceful shutdown', () => {
  it('a worker told to stop finishes its active turn before it exits', async () => {
    const env = { ...names(), OFFLINE_LATENCY_MS: '1500', SHUTDOWN_TIMEOUT_MS: '20000' };
    const { stack: running, api } = await stack(env, ['greeter']);
    const session = await api.createSession(form, 'form', { language: 'en' });
    const sse = await SseRecorder.open(api.eventsUrl(session.sessionId, session.token));
    // The greeting is being generated (the greeter's model call takes 1.5 s) when SIGTERM arrives.
    await sse.waitFor((evs) => evs.some((e) => e.type === 'turn.started'), 10_000, 'greeting started');
    const greeter = running.procs.greeter!;
    const exited = greeter.kill('SIGTERM');
    await sse.waitFor((evs) => evs.some((e) => e.type === 'turn.completed'), 15_000, 'greeting completed');
    await exited;
    expect(await greeter.exited).toBe(0);
    expect(greeter.lines.some((l) => l.includes('handing them back'))).toBe(false);
    expect(sse.events.filter((e) => e.type === 'message' && e.data.role === 'assistant')).toHaveLength(1);
    sse.close();
  });

  it('a worker whose active job outlasts the deadline hands it back, and another replica completes the turn once', async () => {
    const env = { ...names(), OFFLINE_LATENCY_MS: '4000', SHUTDOWN_TIMEOUT_MS: '300' };
    const { stack: running, api } = await stack(env, ['greeter']);
    const session = await api.createSession(form, 'form', { language: 'en' });
    const sse = await SseRecorder.open(api.eventsUrl(session.sessionId, session.token));
    await sse.waitFor((evs) => evs.some((e) => e.type === 'turn.started'), 10_000, 'greeting started');
    const first = running.procs.greeter!;
    await first.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(first.lines.some((l) => l.includes('handing them back'))).toBe(true);

    // The job went straight back to the queue: a new replica picks it up without waiting for the stalled check (30 s).
    const second = await startService('greeter', { REDIS_URL: inject('redisUrl'), ...env, OFFLINE_LATENCY_MS: '0' });
    extra.push(second);
    await sse.waitFor((evs) => evs.some((e) => e.type === 'turn.completed'), 15_000, 'greeting completed elsewhere');
    expect(sse.events.filter((e) => e.type === 'turn.completed')).toHaveLength(1);
    expect(sse.events.filter((e) => e.type === 'message' && e.data.role === 'assistant')).toHaveLength(1);
    const ids = sse.events.map((e) => e.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    sse.close();
  });

  it('the gateway ends its SSE streams with a final comment so clients reconnect elsewhere', async () => {
    const { stack: running, api } = await stack(names(), []);
    const session = await api.createSession(undefined, 'faq');
    const sse = await SseRecorder.open(api.eventsUrl(session.sessionId, session.token));
    const gw = running.procs.gateway!;
    await gw.kill('SIGTERM');
    expect(await gw.exited).toBe(0);
    await sse.waitEnded(5_000);
    expect(sse.comments.some((c) => /closing: server shutting down/.test(c))).toBe(true);
  });
});
