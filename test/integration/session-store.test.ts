import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { SessionDraft, SessionStore } from '@convo/runtime';
import { event, EVENT_SCHEMA_VERSION } from '@convo/contract';
import { newFormSession } from '@convo/forms';
import { createSession as createSessionScript, replaceTurn } from '@convo/runtime/internal/store/scripts';
import { spawnRedisServer } from '../../scripts/ensure-redis.js';
import { freePort } from '../support/free-port.js';

let redis: Redis;
let store: SessionStore;
const prefix = `t-${randomUUID().slice(0, 8)}`;

beforeAll(async () => {
  redis = new Redis(inject('redisUrl'));
  store = new SessionStore(redis, { prefix, ttlSeconds: 600, eventsMaxLen: 1000 });
});
afterAll(async () => {
  const keys = await redis.keys(`${prefix}:*`);
  if (keys.length) await redis.del(...keys);
  redis.disconnect();
});

async function createSession(on: SessionStore = store) {
  const sessionId = randomUUID();
  const state = newFormSession({
    sessionId,
    kind: 'form',
    form: null,
    language: null,
    firstAgent: 'greeter',
    now: new Date().toISOString(),
  });
  const step = await on.create({ state, tokenHash: 'h', agent: 'greeter', turnId: 'boot' });
  return { sessionId, step };
}

describe('session store on Redis', () => {
  it('appends messages to their own list and keeps them out of the state document, which is validated when read', async () => {
    const { sessionId, step } = await createSession();
    const keys = store.keys(sessionId);
    let loaded = (await store.load(sessionId))!;
    for (let i = 0; i < 3; i++) {
      const draft = new SessionDraft(loaded.state);
      draft.addUserMessage(`answer ${i}`, 'boot', null);
      draft.addAssistantMessage('greeter', `question ${i}`, 'boot', null);
      const input = {
        sessionId,
        expectedVersion: loaded.version,
        messagesBefore: loaded.messageCount,
        expectedSeq: step.seq,
        state: draft.state,
        mode: 'none' as const,
        events: [],
        runSteps: [],
      };
      expect((await store.commit(input)).ok).toBe(true);
      loaded = (await store.load(sessionId))!;
    }
    expect(loaded.messageCount).toBe(6);
    expect(loaded.state.messages.map((m) => m.text)).toEqual([
      'answer 0',
      'question 0',
      'answer 1',
      'question 1',
      'answer 2',
      'question 2',
    ]);
    expect(await redis.llen(keys.messages)).toBe(6);
    expect(JSON.parse((await redis.hget(keys.hash, 'state'))!)).not.toHaveProperty('messages');

    // A commit from a read that missed messages appended since loses, whatever its version says.
    const draft = new SessionDraft(loaded.state);
    draft.addUserMessage('late', 'boot', null);
    const stale = {
      sessionId,
      expectedVersion: loaded.version,
      messagesBefore: loaded.messageCount - 1,
      expectedSeq: step.seq,
      state: draft.state,
      mode: 'none' as const,
      events: [],
      runSteps: [],
    };
    expect((await store.commit(stale)).ok).toBe(false);
    expect(await redis.llen(keys.messages)).toBe(6);

    // The document names the schema that wrote it; one of this schema is read as it is (no zod).
    const document = JSON.parse((await redis.hget(keys.hash, 'state'))!) as Record<string, unknown>;
    expect(document.$schema).toMatch(/^[\w-]{16}$/);
    expect(loaded.state).not.toHaveProperty('$schema');
    // One of another schema (another release's) is validated where it is read: a document that breaks
    // the schema is refused, not cast and used.
    await redis.hset(keys.hash, 'state', JSON.stringify({ ...document, $schema: 'another-release', status: 'dancing' }));
    await expect(store.load(sessionId)).rejects.toThrow(/does not match its schema: status/);
    const { $schema: _mark, ...unmarked } = document;
    await redis.hset(keys.hash, 'state', JSON.stringify({ ...unmarked, status: 'dancing' }));
    await expect(store.load(sessionId)).rejects.toThrow(/does not match its schema: status/);
  });

  it("keeps a session's token hash for a while (it never changes) and forgets it when the session is deleted", async () => {
    const { sessionId } = await createSession();
    const keys = store.keys(sessionId);
    const hash = await store.getTokenHash(sessionId);
    expect(hash).toMatch(/\S/);
    // Read from Redis once: a change behind the store's back is not seen within the cache time.
    await redis.hset(keys.hash, 'tokenHash', 'changed');
    expect(await store.getTokenHash(sessionId)).toBe(hash);
    expect(await store.delete(sessionId)).toBe(true);
    expect(await store.getTokenHash(sessionId)).toBeNull();
    // An unknown session is not remembered as unknown: it may be created next.
    expect(await store.getTokenHash(randomUUID())).toBeNull();
  });

  it('reads a session stored with its messages inside the document, and moves them to the list on its next commit', async () => {
    const { sessionId, step } = await createSession();
    const keys = store.keys(sessionId);
    const fresh = (await store.load(sessionId))!;
    const legacy = new SessionDraft(fresh.state);
    legacy.addUserMessage('from an older release', 'boot', null);
    await redis.hset(keys.hash, 'state', JSON.stringify(legacy.state));
    const loaded = (await store.load(sessionId))!;
    expect(loaded.messageCount).toBe(0);
    expect(loaded.state.messages.map((m) => m.text)).toEqual(['from an older release']);
    const draft = new SessionDraft(loaded.state);
    draft.addAssistantMessage('greeter', 'and a new one', 'boot', null);
    expect(
      (
        await store.commit({
          sessionId,
          expectedVersion: loaded.version,
          messagesBefore: loaded.messageCount,
          expectedSeq: step.seq,
          state: draft.state,
          mode: 'none',
          events: [],
          runSteps: [],
        })
      ).ok,
    ).toBe(true);
    expect((await redis.lrange(keys.messages, 0, -1)).map((json) => JSON.parse(json).text)).toEqual([
      'from an older release',
      'and a new one',
    ]);
    expect((await store.load(sessionId))!.state.messages).toHaveLength(2);
  });

  it('commits state and events together once: a second commit with the same version is rejected', async () => {
    const { sessionId, step } = await createSession();
    const loaded = (await store.load(sessionId))!;
    const draft = new SessionDraft(loaded.state);
    draft.setLanguage('en');
    const input = {
      sessionId,
      expectedVersion: loaded.version,
      messagesBefore: loaded.messageCount,
      expectedSeq: step.seq,
      state: draft.state,
      mode: 'none' as const,
      events: draft.events,
      runSteps: [],
    };
    expect((await store.commit(input)).ok).toBe(true);
    expect((await store.commit(input)).ok).toBe(false);
    const events = await store.readEvents(sessionId, 0);
    expect(events.map((e) => [e.id, e.type])).toEqual([[1, 'state.changed']]);
    expect((await store.load(sessionId))!.state.bootstrap.language).toBe('en');
    // Each stored event records the schema major it was written with (the Lua script spells it; this keeps them equal).
    const [[, fields]] = (await redis.xrange(store.keys(sessionId).events, '-', '+')) as [[string, string[]]];
    expect(fields.slice(0, 2)).toEqual(['v', String(EVENT_SCHEMA_VERSION)]);
  });

  it('queues turns behind the active one, in arrival order, and starts the next on end_turn', async () => {
    const { sessionId, step } = await createSession();
    const accept = (turnId: string, key?: string, message = turnId) =>
      store.acceptTurn({
        sessionId,
        turnId,
        message,
        idempotencyKey: key,
        multitask: 'enqueue',
        turnLimit: 500,
        maxQueued: 5,
        acceptedAt: '',
      });
    const first = await accept('a');
    const second = await accept('b', 'key-b');
    // A retry (same key, same message) is the first turn; the same key with another message is refused, not merged.
    const again = await accept('b2', 'key-b', 'b');
    const reused = await accept('b3', 'key-b', 'something else');
    expect([first, second].map((r) => ('position' in r ? r.position : -1))).toEqual([1, 2]);
    expect(again).toMatchObject({ outcome: 'duplicate', turnId: 'b', position: 2 });
    expect(reused).toEqual({ outcome: 'key_reused' });
    expect((await store.readEvents(sessionId, 0)).map((e) => e.data)).toEqual([
      { turnId: 'a', position: 1 },
      { turnId: 'b', position: 2 },
    ]);
    const loaded = (await store.load(sessionId))!;
    const res = await store.commit({
      sessionId,
      expectedVersion: loaded.version,
      messagesBefore: loaded.messageCount,
      expectedSeq: step.seq,
      state: loaded.state,
      mode: 'end_turn',
      events: [],
      runSteps: [],
    });
    expect(res).toMatchObject({ ok: true, step: { seq: 2, agent: 'greeter', turnId: 'a' } });
    const after = (await store.load(sessionId))!;
    expect(after.activeTurn).toBe('a');
    // The pending step's turn comes with the session, in the same round trip.
    expect(after.stepTurn).toMatchObject({ message: 'a' });
    expect((await store.load((await createSession()).sessionId))!.stepTurn).toMatchObject({ message: null });
    expect(after.queued).toBe(1);
  });

  it('rejects a turn with multitask "reject" while one is active and refuses beyond the inbox limit', async () => {
    const { sessionId } = await createSession();
    const result = await store.acceptTurn({
      sessionId,
      turnId: 'x',
      message: 'x',
      idempotencyKey: undefined,
      multitask: 'reject',
      turnLimit: 500,
      maxQueued: 5,
      acceptedAt: '',
    });
    expect(result.outcome).toBe('busy');
    await store.acceptTurn({
      sessionId,
      turnId: 'y',
      message: 'y',
      idempotencyKey: undefined,
      multitask: 'enqueue',
      turnLimit: 500,
      maxQueued: 1,
      acceptedAt: '',
    });
    const full = await store.acceptTurn({
      sessionId,
      turnId: 'z',
      message: 'z',
      idempotencyKey: undefined,
      multitask: 'enqueue',
      turnLimit: 500,
      maxQueued: 1,
      acceptedAt: '',
    });
    expect(full.outcome).toBe('inbox_full');
  });

  it('records run steps once even when a commit repeats them', async () => {
    const { sessionId, step } = await createSession();
    const rs = {
      runStepId: 'rs-1-1',
      turnId: 'boot',
      agent: 'greeter' as const,
      toolName: 'ask',
      input: {},
      output: {},
      startedAt: 'a',
      finishedAt: 'b',
    };
    let loaded = (await store.load(sessionId))!;
    await store.commit({
      sessionId,
      expectedVersion: loaded.version,
      messagesBefore: loaded.messageCount,
      expectedSeq: step.seq,
      state: loaded.state,
      mode: 'none',
      events: [],
      runSteps: [rs],
    });
    loaded = (await store.load(sessionId))!;
    await store.commit({
      sessionId,
      expectedVersion: loaded.version,
      messagesBefore: loaded.messageCount,
      expectedSeq: step.seq,
      state: loaded.state,
      mode: 'none',
      events: [],
      runSteps: [rs],
    });
    expect(await store.getRunSteps(sessionId)).toEqual([rs]);
  });

  it('redacts a turn through a compare-and-set script that refuses a record changed since it was read', async () => {
    const { sessionId } = await createSession();
    await store.acceptTurn({
      sessionId,
      turnId: 't1',
      message: 'my religion is X',
      idempotencyKey: undefined,
      multitask: 'enqueue',
      turnLimit: 500,
      maxQueued: 5,
      acceptedAt: 'now',
      options: { topK: 3 },
    });
    await store.redactTurn(sessionId, 't1', 'my religion is ■');
    expect(await store.getTurn(sessionId, 't1')).toEqual({ message: 'my religion is ■', acceptedAt: 'now', options: { topK: 3 } });
    const keys = store.keys(sessionId);
    const stale = JSON.stringify({ message: 'my religion is X', acceptedAt: 'now' });
    await expect(replaceTurn.run(redis, { keys, turnId: 't1', readJson: stale, newJson: '{}' })).resolves.toBe(false);
    expect((await store.getTurn(sessionId, 't1'))!.message).toBe('my religion is ■');
    // A turn that does not exist is left alone.
    await store.redactTurn(sessionId, 'nope', 'x');
    expect(await store.getTurn(sessionId, 'nope')).toBeNull();
  });

  it('runs scripts from their .lua files with the shared helpers included', () => {
    expect(createSessionScript.lua).toContain('local function refresh(ttl)');
    expect(createSessionScript.lua).not.toContain('@include');
  });

  it('reads the events after a cursor in batches, as many as there are, and stops where the caller stops', async () => {
    const { sessionId, step } = await createSession();
    const loaded = (await store.load(sessionId))!;
    const events = Array.from({ length: 7 }, (_, i) => event('turn.queued', { turnId: `t${i}`, position: i + 1 }));
    await store.commit({
      sessionId,
      expectedVersion: loaded.version,
      messagesBefore: loaded.messageCount,
      expectedSeq: step.seq,
      state: loaded.state,
      mode: 'none',
      events,
      runSteps: [],
    });
    const ids = async (after: number, batch: number) => {
      const out: number[] = [];
      for await (const ev of store.eventsAfter(sessionId, after, batch)) out.push(ev.id);
      return out;
    };
    expect(await ids(0, 3)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(await ids(5, 2)).toEqual([6, 7]);
    expect(await ids(7, 2)).toEqual([]);
    const first: number[] = [];
    for await (const ev of store.eventsAfter(sessionId, 0, 2)) {
      first.push(ev.id);
      if (ev.id === 3) break;
    }
    expect(first).toEqual([1, 2, 3]);
  });

  it('cancels a queued turn at once, and marks the running one so no commit of its step lands any more', async () => {
    const { sessionId, step } = await createSession();
    const accept = (turnId: string) =>
      store.acceptTurn({
        sessionId,
        turnId,
        message: turnId,
        idempotencyKey: undefined,
        multitask: 'enqueue',
        turnLimit: 500,
        maxQueued: 5,
        acceptedAt: '',
      });
    await accept('a');
    await accept('b');
    expect(await store.cancelTurn(sessionId, 'b')).toBe('cancelled');
    expect((await store.readEvents(sessionId, 0)).at(-1)).toMatchObject({
      type: 'turn.failed',
      data: { turnId: 'b', error: { code: 'cancelled' } },
    });
    expect((await store.load(sessionId))!.queued).toBe(1);

    // 'a' runs once the bootstrap ends; a step that read the session before the cancel cannot commit after it.
    let loaded = (await store.load(sessionId))!;
    const started = await store.commit({
      sessionId,
      expectedVersion: loaded.version,
      messagesBefore: loaded.messageCount,
      expectedSeq: step.seq,
      state: loaded.state,
      mode: 'end_turn',
      events: [],
      runSteps: [],
    });
    expect(started).toMatchObject({ ok: true, step: { turnId: 'a' } });
    loaded = (await store.load(sessionId))!;
    expect(await store.cancelTurn(sessionId, 'a')).toBe('cancelling');
    expect(await store.cancelTurn(sessionId, 'a')).toBe('cancelling');
    const late = await store.commit({
      sessionId,
      expectedVersion: loaded.version,
      messagesBefore: loaded.messageCount,
      expectedSeq: loaded.step!.seq,
      state: loaded.state,
      mode: 'end_turn',
      events: [],
      runSteps: [],
    });
    expect(late.ok).toBe(false);
    const marked = (await store.load(sessionId))!;
    expect(marked.cancelTurn).toBe('a');
    expect(marked.version).toBe(loaded.version + 1);
    // Ending the turn clears the mark; an ended turn can no longer be cancelled.
    await store.commit({
      sessionId,
      expectedVersion: marked.version,
      messagesBefore: marked.messageCount,
      expectedSeq: marked.step!.seq,
      state: marked.state,
      mode: 'end_turn',
      events: [],
      runSteps: [],
    });
    expect((await store.load(sessionId))!.cancelTurn).toBeNull();
    expect(await store.cancelTurn(sessionId, 'a')).toBe('not_active');
    expect(await store.cancelTurn(sessionId, 'zzz')).toBe('turn_not_found');
    expect(await store.cancelTurn(randomUUID(), 'a')).toBe('not_found');
  });

  it("stores the sweeper's mark before the session or turn it guards, so a crash between the two never leaves a step unwatched", async () => {
    // A Redis of its own, with no other client: ioredis enters MONITOR mode a microtask after
    // Redis's OK, and a busy shared Redis streams other files' commands into that gap, which
    // ioredis then reads as replies to nothing ("Command queue state error").
    const server = await spawnRedisServer({ port: await freePort(), args: ['--save', '', '--appendonly', 'no'] });
    const own = new Redis(server.url);
    const ownStore = new SessionStore(own, { prefix, ttlSeconds: 600, eventsMaxLen: 1000 });
    let monitor: Redis | undefined;
    try {
      monitor = await own.monitor();
      const seen: string[][] = [];
      monitor.on('monitor', (_time: string, args: string[]) => seen.push(args));
      const { sessionId } = await createSession(ownStore);
      await ownStore.acceptTurn({
        sessionId,
        turnId: 't-mark',
        message: 'hi',
        idempotencyKey: undefined,
        multitask: 'enqueue',
        turnLimit: 500,
        maxQueued: 5,
        acceptedAt: new Date().toISOString(),
      });
      await own.ping();
      const hash = ownStore.keys(sessionId).hash;
      const order = seen
        .filter((args) => args.includes(sessionId) || args.includes(hash))
        .map((args) => (/^zadd$/i.test(args[0]!) ? 'mark' : /^eval/i.test(args[0]!) ? 'script' : 'other'))
        .filter((kind) => kind !== 'other');
      // create: mark, then its script; accept: mark, then its script.
      expect(order).toEqual(['mark', 'script', 'mark', 'script']);
    } finally {
      // Stopping the server ends every connection to it, also one ioredis left in MONITOR mode when entering it failed
      // (on a shared Redis, such a connection is sent every command of the run).
      monitor?.disconnect();
      own.disconnect();
      await server.stop();
    }
  });

  it('deletes every key of the session', async () => {
    const { sessionId } = await createSession();
    await store.delete(sessionId);
    expect(await store.load(sessionId)).toBeNull();
    expect(await redis.keys(`${prefix}:s:{${sessionId}}*`)).toEqual([]);
  });
});
