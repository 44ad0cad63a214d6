import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Api, loadForm, type Json } from '../support/api.js';
import { startService, startStack, type ServiceProcess, type Stack } from '../support/processes.js';
import { SseRecorder, type ReceivedEvent } from '../support/sse.js';
import { runLoadtest } from '../../scripts/loadtest/run.js';

/**
 * Runtime guarantees through HTTP + SSE with every service a separate process:
 * ordering, resumable streams, shared queues, crash recovery and bad input.
 * The offline model gets a little latency so a turn is observably "in flight".
 * Run on one Redis (runtime.test.ts) and on a local Redis Cluster with
 * partitioned queues (runtime-cluster.test.ts): `redis` gives the connection
 * variables of each.
 */
export function runtimeSuite(redis: () => Record<string, string>): void {
  let stack: Stack;
  let api: Api;
  let env: Record<string, string>;
  const extra: ServiceProcess[] = [];

  beforeAll(async () => {
    const id = randomUUID().slice(0, 8);
    env = {
      KEY_PREFIX: `rt-${id}`,
      QUEUE_PREFIX: `rt-${id}-q`,
      OFFLINE_LATENCY_MS: '150',
      JOB_LOCK_MS: '2000',
      JOB_STALLED_INTERVAL_MS: '1000',
      REVIEWER_CONCURRENCY: '1',
      SWEEP_INTERVAL_MS: '500',
      STEP_STALE_MS: '3000',
      ...redis(),
    };
    stack = await startStack({ env });
    api = new Api(stack.url);
  });
  afterAll(async () => {
    await Promise.all(extra.map((p) => p.kill()));
    await stack?.stop();
  });

  const form = () => loadForm('event-registration-en.json');

  async function session(options?: Json) {
    const created = await api.createSession(form(), 'form', options);
    const sse = await SseRecorder.open(api.eventsUrl(created.sessionId, created.token));
    await sse.waitTurns(1);
    return { ...created, sse };
  }

  async function say(conversation: { sessionId: string; token: string; sse: SseRecorder }, message: string): Promise<string> {
    const response = await api.turn(conversation.sessionId, conversation.token, message);
    expect(response.status).toBe(202);
    const turnId = String(response.json.turnId);
    await conversation.sse.waitFor(
      (evs) => evs.some((e) => e.type === 'turn.completed' && e.data.turnId === turnId),
      30_000,
      `turn "${message}"`,
    );
    return turnId;
  }

  /** Greets, sets English/Japan, reaches the first question. */
  async function bootstrap(conversation: { sessionId: string; token: string; sse: SseRecorder }) {
    await say(conversation, 'English please');
    await say(conversation, 'I live in Tokyo, Japan');
  }

  function noDuplicates(events: ReceivedEvent[]): void {
    const ids = events.map((e) => e.id);
    expect(ids).toEqual(ids.map((_, i) => i + 1));
    const messageIds = events.filter((e) => e.type === 'message').map((e) => e.data.messageId);
    expect(new Set(messageIds).size).toBe(messageIds.length);
  }

  describe('runtime guarantees', () => {
    it('replays from Last-Event-ID exactly once, then follows the live tail', async () => {
      const conversation = await session();
      await bootstrap(conversation);
      const seen = conversation.sse.lastId;
      conversation.sse.close();
      const turnId = String((await api.turn(conversation.sessionId, conversation.token, 'Jane Doe')).json.turnId);
      const resumed = await SseRecorder.open(api.eventsUrl(conversation.sessionId, conversation.token), { lastEventId: seen });
      await resumed.waitFor((evs) => evs.some((e) => e.type === 'turn.completed' && e.data.turnId === turnId), 20_000, 'resumed turn');
      const full = await SseRecorder.open(`${api.eventsUrl(conversation.sessionId, conversation.token)}&lastEventId=0`);
      await full.waitFor((evs) => evs.length >= resumed.lastId, 10_000, 'full replay');
      expect(resumed.events[0]!.id).toBe(seen + 1);
      expect(resumed.events).toEqual(full.events.slice(seen, resumed.events.length + seen));
      noDuplicates(full.events);
      // the query-string form of Last-Event-ID resumes the same way
      const viaQuery = await SseRecorder.open(`${api.eventsUrl(conversation.sessionId, conversation.token)}&lastEventId=${seen}`);
      await viaQuery.waitFor((evs) => evs.length >= resumed.events.length, 10_000, 'query resume');
      expect(viaQuery.events.slice(0, resumed.events.length)).toEqual(resumed.events);
      for (const r of [resumed, full, viaQuery]) r.close();
    });

    it('processes three turns posted at once one at a time, in arrival order', async () => {
      const conversation = await session();
      await bootstrap(conversation);
      const messages = ['Jane Doe', 'jane@example.com', '3'];
      const posted: Array<{ turnId: string; position: number }> = [];
      // Sent back to back without waiting for the turns; arrival order = send order on one connection each.
      for (const message of messages) {
        const response = await api.turn(conversation.sessionId, conversation.token, message);
        expect(response.status).toBe(202);
        posted.push({ turnId: String(response.json.turnId), position: Number(response.json.position) });
      }
      expect(posted.map((p) => p.position)).toEqual([0, 1, 2]);
      await conversation.sse.waitFor(
        (evs) => posted.every((p) => evs.some((e) => e.type === 'turn.completed' && e.data.turnId === p.turnId)),
        30_000,
        'three turns',
      );
      const lifecycle = conversation.sse.events
        .filter((e) => ['turn.queued', 'turn.started', 'turn.completed'].includes(e.type) && posted.some((p) => p.turnId === e.data.turnId))
        .map((e) => `${e.type}:${posted.findIndex((p) => p.turnId === e.data.turnId)}`);
      expect(lifecycle.filter((x) => !x.startsWith('turn.queued'))).toEqual([
        'turn.started:0',
        'turn.completed:0',
        'turn.started:1',
        'turn.completed:1',
        'turn.started:2',
        'turn.completed:2',
      ]);
      expect(lifecycle.filter((x) => x.startsWith('turn.queued'))).toEqual(['turn.queued:1', 'turn.queued:2']);
      const userTexts = conversation.sse.events.filter((e) => e.type === 'message' && e.data.role === 'user').map((e) => e.data.text);
      expect(userTexts.slice(-3)).toEqual(messages);
      const snap = await api.call('GET', `/v1/sessions/${conversation.sessionId}`, { token: conversation.token });
      expect(snap.json.collectedFields).toMatchObject({ full_name: 'Jane Doe', email: 'jane@example.com', attendees: '3' });
      noDuplicates(conversation.sse.events);
    });

    it('honours idempotencyKey: a retried POST returns the first turnId and enqueues nothing', async () => {
      const conversation = await session();
      const first = await api.turn(conversation.sessionId, conversation.token, 'English please', { idempotencyKey: 'k-1' });
      const retried = await api.turn(conversation.sessionId, conversation.token, 'English please', { idempotencyKey: 'k-1' });
      expect(retried.status).toBe(202);
      expect(retried.json.turnId).toBe(first.json.turnId);
      await conversation.sse.waitFor((evs) => evs.some((e) => e.type === 'turn.completed' && e.data.turnId === first.json.turnId));
      const users = conversation.sse.events.filter((e) => e.type === 'message' && e.data.role === 'user');
      expect(users).toHaveLength(1);
    });

    it('a second reviewer process shares the reviewer queue', async () => {
      const second = await startService('reviewer', env);
      extra.push(second);
      const sessions = await Promise.all(Array.from({ length: 4 }, () => session()));
      await Promise.all(sessions.map(bootstrap));
      for (const answer of ['Jane Doe', 'jane@example.com', '2']) {
        await Promise.all(sessions.map((s) => say(s, answer)));
      }
      const committed = (p: ServiceProcess) => p.lines.filter((l) => l.includes('"step committed"')).length;
      expect(committed(stack.procs.reviewer!)).toBeGreaterThan(0);
      expect(committed(second)).toBeGreaterThan(0);
      expect(committed(stack.procs.reviewer!) + committed(second)).toBeGreaterThanOrEqual(12);
    });

    it('a worker killed with SIGKILL mid-turn loses nothing and duplicates nothing', async () => {
      const conversation = await session();
      await bootstrap(conversation);
      const interviewer = stack.procs.interviewer!;
      const response = await api.turn(conversation.sessionId, conversation.token, 'Jane Doe');
      const turnId = String(response.json.turnId);
      // turn.started is committed by the interviewer right before it calls the (slow) model.
      await conversation.sse.waitFor(
        (evs) => evs.some((e) => e.type === 'turn.started' && e.data.turnId === turnId),
        10_000,
        'turn.started',
      );
      await interviewer.kill('SIGKILL');
      const replacement = await startService('interviewer', env);
      stack.procs.interviewer = replacement;
      await conversation.sse.waitFor(
        (evs) => evs.some((e) => e.type === 'turn.completed' && e.data.turnId === turnId),
        30_000,
        'turn after crash',
      );
      const turnEvents = conversation.sse.events.filter((e) => e.data.turnId === turnId);
      expect(turnEvents.filter((e) => e.type === 'turn.started')).toHaveLength(1);
      expect(turnEvents.filter((e) => e.type === 'message' && e.data.role === 'user')).toHaveLength(1);
      expect(conversation.sse.events.filter((e) => e.type === 'review')).toHaveLength(1);
      noDuplicates(conversation.sse.events);
      await say(conversation, 'jane@example.com');
      const snap = await api.call('GET', `/v1/sessions/${conversation.sessionId}`, { token: conversation.token });
      expect(snap.json.collectedFields).toEqual({ full_name: 'Jane Doe', email: 'jane@example.com' });
    });
  });

  describe('under a burst', () => {
    it('12 form sessions × 4 turns, all at once: every turn accepted and ended once, every stream intact', async () => {
      const report = await runLoadtest({ kind: 'form', url: stack.url, sessions: 12, concurrency: 12, turns: 4, durationMs: 60_000 });
      const detail = JSON.stringify(report);
      expect(report.ok, detail).toBe(true);
      expect(report.accepted, detail).toBe(48);
      expect(report.completed, detail).toBe(48);
      expect(report.failedTurns).toBe(0);
      expect(report.unfinished).toBe(0);
      expect(report.streams).toMatchObject({ lost: 0, duplicated: 0, outOfOrder: 0 });
    });
  });

  describe('bad input gets the contract 4xx', () => {
    it('rejects broken JSON, missing fields, oversize messages, wrong tokens and unknown sessions', async () => {
      const conversation = await session();
      const path = `/v1/sessions/${conversation.sessionId}/turns`;
      const cases: Array<[string, Awaited<ReturnType<Api['call']>>, number]> = [
        ['broken JSON', await api.call('POST', path, { token: conversation.token, rawBody: '{"message": "hi"' }), 400],
        ['missing message', await api.call('POST', path, { token: conversation.token, body: {} }), 400],
        ['non-string message', await api.call('POST', path, { token: conversation.token, body: { message: 42 } }), 400],
        ['empty message', await api.call('POST', path, { token: conversation.token, body: { message: '   ' } }), 400],
        ['9,000 characters', await api.call('POST', path, { token: conversation.token, body: { message: 'a'.repeat(9000) } }), 400],
        ['no token', await api.call('POST', path, { body: { message: 'hi' } }), 401],
        // A wrong token is answered as an unknown session: nobody learns that an id exists.
        ['wrong token', await api.call('POST', path, { token: 'nope', body: { message: 'hi' } }), 404],
        [
          'unknown session',
          await api.call('POST', `/v1/sessions/${randomUUID()}/turns`, { token: conversation.token, body: { message: 'hi' } }),
          404,
        ],
        ['create without form', await api.call('POST', '/v1/sessions', { body: { kind: 'form' } }), 400],
        ['unknown kind', await api.call('POST', '/v1/sessions', { body: { kind: 'poll', form: form() } }), 400],
        ['submit too early', await api.call('POST', `/v1/sessions/${conversation.sessionId}/submit`, { token: conversation.token }), 409],
      ];
      for (const [what, res, status] of cases) {
        expect.soft(res.status, what).toBe(status);
        expect.soft(res.json, what).toMatchObject({ error: { code: expect.stringMatching(/^[a-z_]+$/), message: expect.any(String) } });
      }
      const other = await api.createSession(form());
      const cross = await api.call('GET', `/v1/sessions/${conversation.sessionId}`, { token: other.token });
      expect(cross.status).toBe(404);
      const sseWrong = await fetch(`${api.eventsUrl(conversation.sessionId, 'wrong')}`);
      expect(sseWrong.status).toBe(404);
      // nothing was accepted: only the greeting turn exists
      const snap = await api.call('GET', `/v1/sessions/${conversation.sessionId}`, { token: conversation.token });
      expect(snap.json.messages).toHaveLength(1);
    });

    it('deletes a session with all its events', async () => {
      const conversation = await session();
      expect((await api.call('DELETE', `/v1/sessions/${conversation.sessionId}`, { token: conversation.token })).status).toBe(204);
      expect((await api.call('GET', `/v1/sessions/${conversation.sessionId}`, { token: conversation.token })).status).toBe(404);
    });

    it('serves health, readiness and the OpenAPI description', async () => {
      expect((await api.call('GET', '/healthz')).status).toBe(200);
      expect((await api.call('GET', '/readyz')).json).toEqual({ status: 'ready' });
      const doc = await api.call('GET', '/docs/json');
      expect(doc.status).toBe(200);
      expect(Object.keys(doc.json.paths as Json)).toEqual(
        expect.arrayContaining([
          '/v1/sessions',
          '/v1/sessions/{id}',
          '/v1/sessions/{id}/turns',
          '/v1/sessions/{id}/events',
          '/healthz',
          '/readyz',
        ]),
      );
    });
  });
}
