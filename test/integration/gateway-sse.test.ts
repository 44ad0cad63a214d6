import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SessionDraft } from '@convo/runtime';
import { event } from '@convo/contract';
import { newFormSession } from '@convo/forms';
import { startGateway } from '../../services/gateway/src/server.js';
import { loadGatewayConfig } from '../../services/gateway/src/config.js';
import { hashToken } from '../../services/gateway/src/auth.js';
import { spawnRedisServer, type RedisServerProcess } from '../../scripts/ensure-redis.js';
import { freePort } from '../support/free-port.js';
import { SseRecorder } from '../support/sse.js';

/**
 * The gateway's SSE route in-process on a real Redis: resync when history was
 * trimmed, heartbeats, live tail for many clients on a fixed number of Redis
 * connections. Events are appended straight through the store, as workers do.
 */
const prefix = `gw-${randomUUID().slice(0, 8)}`;
let gw: Awaited<ReturnType<typeof startGateway>>;
let redis: Redis;
let base: string;
// A Redis of its own: the test counts the gateway's connections, and other files' gateways may run on the shared one.
let server: RedisServerProcess;

beforeAll(async () => {
  server = await spawnRedisServer({ port: await freePort(), args: ['--save', '', '--appendonly', 'no'] });
  redis = new Redis(server.url);
  const config = loadGatewayConfig({
    REDIS_URL: server.url,
    KEY_PREFIX: prefix,
    QUEUE_PREFIX: `{${prefix}}`,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    SSE_HEARTBEAT_MS: '100',
    EVENTS_MAXLEN: '10',
    // Every client here comes from 127.0.0.1: no per-client stream cap (gateway-limits.test.ts checks it).
    CLIENT_MAX_STREAMS: '0',
  });
  gw = await startGateway(config);
  base = `http://127.0.0.1:${gw.port}`;
});
afterAll(async () => {
  await gw?.close();
  redis?.disconnect();
  await server?.stop();
});

async function sessionWithEvents(eventCount: number): Promise<{ sessionId: string; token: string; append(k: number): Promise<void> }> {
  const sessionId = randomUUID();
  const token = `tok-${randomUUID()}`;
  const store = gw.deps.store;
  const state = newFormSession({
    sessionId,
    kind: 'form',
    form: null,
    language: 'en',
    firstAgent: 'greeter',
    now: new Date().toISOString(),
  });
  await store.create({ state, tokenHash: hashToken(token), agent: 'greeter', turnId: 'boot' });
  const append = async (count: number) => {
    for (let i = 0; i < count; i++) {
      const loaded = (await store.load(sessionId))!;
      const draft = new SessionDraft(loaded.state);
      draft.emit(event('turn.queued', { turnId: `t${loaded.lastEventId + 1}`, position: 1 }));
      const result = await store.commit({
        sessionId,
        expectedVersion: loaded.version,
        messagesBefore: loaded.messageCount,
        expectedSeq: null,
        state: draft.state,
        mode: 'none',
        events: draft.events,
        runSteps: [],
      });
      if (!result.ok) throw new Error('conflict');
    }
  };
  await append(eventCount);
  return { sessionId, token, append };
}

const url = (s: { sessionId: string; token: string }, q = '') => `${base}/v1/sessions/${s.sessionId}/events?token=${s.token}${q}`;

describe('SSE route', () => {
  it('starts with a resync snapshot when the requested history was trimmed, then continues live', async () => {
    const session = await sessionWithEvents(400); // MAXLEN ~10 trims the oldest entries
    const first = Number((await redis.xrange(gw.deps.store.keys(session.sessionId).events, '-', '+', 'COUNT', 1))[0]![0].split('-')[1]);
    expect(first).toBeGreaterThan(2);
    const sse = await SseRecorder.open(url(session, '&lastEventId=1'));
    await sse.waitFor((evs) => evs.length >= 1);
    expect(sse.events[0]).toMatchObject({ id: 400, type: 'resync' });
    expect((sse.events[0]!.data.snapshot as { sessionId: string }).sessionId).toBe(session.sessionId);
    await session.append(2);
    await sse.waitFor((evs) => evs.length >= 3, 5_000, 'live events after resync');
    expect(sse.events.slice(1).map((e) => e.id)).toEqual([401, 402]);
    sse.close();
  });

  it('answers an id from the future with a resync at the last stored id, then goes on live from there', async () => {
    const session = await sessionWithEvents(3);
    const sse = await SseRecorder.open(url(session, '&lastEventId=50'));
    await sse.waitFor((evs) => evs.length >= 1);
    expect(sse.events[0]).toMatchObject({ id: 3, type: 'resync' });
    await session.append(2);
    await sse.waitFor((evs) => evs.length >= 3, 5_000, 'live events after a resync from the future');
    expect(sse.events.slice(1).map((e) => e.id)).toEqual([4, 5]);
    sse.close();
  });

  it('replays retained history without a resync when nothing was lost', async () => {
    const session = await sessionWithEvents(5);
    const sse = await SseRecorder.open(url(session));
    await sse.waitFor((evs) => evs.length >= 5);
    expect(sse.events.map((e) => e.id)).toEqual([1, 2, 3, 4, 5]);
    expect(sse.events.every((e) => e.type === 'turn.queued')).toBe(true);
    sse.close();
  });

  it('sends heartbeat comments on an idle stream', async () => {
    const session = await sessionWithEvents(1);
    const sse = await SseRecorder.open(url(session));
    await sse.waitFor(() => sse.comments.filter((c) => c === 'ping').length >= 2, 5_000, 'two pings');
    sse.close();
  });

  it('rejects a malformed Last-Event-ID with 400 in the contract shape', async () => {
    const session = await sessionWithEvents(1);
    const res = await fetch(url(session, '&lastEventId=abc'));
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { code: 'invalid_last_event_id' } });
  });

  it("hands out a message's deltas before the message, also when Redis answers the stream read first", async () => {
    // A worker publishes a message's deltas and then commits it on one connection: here both go in one write,
    // so Redis runs them in one round and may answer the hub's XREAD before it writes the deltas to the subscriber.
    const session = await sessionWithEvents(1);
    const sse = await SseRecorder.open(url(session));
    await sse.waitFor((evs) => evs.length >= 1);
    const keys = gw.deps.store.keys(session.sessionId);
    const channel = gw.deps.store.liveChannel(session.sessionId);
    const messages = 30;
    for (let m = 0; m < messages; m++) {
      const messageId = `m${m}`;
      const text = `Question ${m}: what is your name?`;
      const write = redis.pipeline();
      for (const end of [10, 20, text.length])
        write.publish(
          channel,
          JSON.stringify(
            event('message.delta', {
              messageId,
              delta: text.slice(end === 10 ? 0 : end - 10, end),
              offset: end === 10 ? 0 : end - 10,
              turnId: 't',
            }),
          ),
        );
      const data = { messageId, role: 'assistant', agent: 'interviewer', text, turnId: 't' };
      write.xadd(keys.events, `0-${m + 2}`, 'type', 'message', 'data', JSON.stringify(data));
      await write.exec();
      await sse.waitFor((evs) => evs.length >= m + 2, 5_000, `message ${m}`);
    }
    for (let m = 0; m < messages; m++) {
      const at = sse.events.findIndex((e) => e.data.messageId === `m${m}`);
      const deltas = sse.live.filter((d) => d.data.messageId === `m${m}`);
      expect(
        deltas.map((d) => d.after),
        `deltas of message ${m}`,
      ).toEqual([at, at, at]);
    }
    sse.close();
  });

  it('serves 200 live clients on a fixed number of Redis connections', async () => {
    const before = await gatewayConnections();
    const sessions = await Promise.all(Array.from({ length: 20 }, () => sessionWithEvents(1)));
    const clients = await Promise.all(Array.from({ length: 200 }, (_, i) => SseRecorder.open(url(sessions[i % 20]!))));
    await Promise.all(clients.map((c) => c.waitFor((evs) => evs.length >= 1)));
    await Promise.all(sessions.map((s) => s.append(3)));
    await Promise.all(clients.map((c) => c.waitFor((evs) => evs.length >= 4, 10_000, 'live tail')));
    for (const c of clients) expect(c.events.map((e) => e.id)).toEqual([1, 2, 3, 4]);
    expect(await gatewayConnections()).toBe(before);
    expect(before).toBeLessThanOrEqual(3);
    clients.forEach((c) => c.close());
  });
});

/** Connections the gateway opened: ioredis connectionName `gateway` (commands, queues), `gateway-sse` (the hub) and `gateway-live` (message deltas). */
async function gatewayConnections(): Promise<number> {
  const list = String(await redis.client('LIST')).split('\n');
  return list.filter((l) => /name=gateway(-sse|-live)?( |$)/.test(l)).length;
}
