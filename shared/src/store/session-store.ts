import type { Redis } from 'ioredis';
import type { AgentName } from '../agents-list.js';
import { SystemError } from '../errors.js';
import { type NewEvent, type SessionEvent, validateEvent } from '../schemas/events.js';
import type { RunStep } from '../schemas/run-step.js';
import { Step, type SessionState } from '../schemas/session.js';
import { allSessionKeys, pendingStepsKey, sessionKeys, type SessionKeys } from './keys.js';
import { ACCEPT_TURN, COMMIT, CREATE_SESSION, READ_WITH_SEQ } from './scripts.js';

export type StoreOptions = { prefix: string; ttlSeconds: number; eventsMaxLen: number };

export type LoadedSession = {
  version: number;
  state: SessionState;
  step: Step | null;
  activeTurn: string | null;
  status: string;
  tokenHash: string;
  /** Id of the newest event appended so far (0 = none). */
  lastEventId: number;
  /** Id of the oldest event still retained (null when the stream is empty). */
  firstRetainedEventId: number | null;
  queued: number;
};

export type AcceptResult =
  | { outcome: 'not_found' | 'submitted' | 'busy' | 'inbox_full' }
  | { outcome: 'queued' | 'started' | 'duplicate'; turnId: string; position: number; step: Step | null };

export type CommitMode = 'none' | 'continue' | 'end_turn';
export type CommitInput = {
  sessionId: string;
  expectedVersion: number;
  /** The step this commit belongs to; null for changes outside a step (submit). */
  expectedSeq: number | null;
  state: SessionState;
  mode: CommitMode;
  nextAgent?: AgentName;
  events: NewEvent[];
  runSteps: RunStep[];
};
export type CommitResult = { ok: true; version: number; step: Step | null } | { ok: false };

/** A turn as accepted; `options` carries per-turn settings (FAQ dialog options). */
export type TurnRecord = { message: string | null; acceptedAt: string; options?: Record<string, unknown> };

type ScriptedRedis = Redis & {
  convoCreate(...args: (string | number)[]): Promise<number>;
  convoAccept(...args: (string | number)[]): Promise<(string | number)[]>;
  convoCommit(...args: (string | number)[]): Promise<(string | number)[]>;
  convoRead(...args: (string | number)[]): Promise<(string | number)[]>;
};

/** Parses a stream id `0-<n>` back into the session's event number. */
export function eventNumber(streamId: string): number {
  const n = Number(streamId.split('-')[1]);
  return Number.isFinite(n) ? n : 0;
}

/**
 * The session's Redis store: state, events, inbox and run steps. All writes
 * go through the Lua scripts of scripts.ts; this class only shapes arguments.
 */
export class SessionStore {
  private readonly redis: ScriptedRedis;

  constructor(
    redis: Redis,
    private readonly opts: StoreOptions,
  ) {
    this.redis = redis as ScriptedRedis;
    if (!('convoCommit' in redis)) {
      redis.defineCommand('convoCreate', { numberOfKeys: 7, lua: CREATE_SESSION });
      redis.defineCommand('convoAccept', { numberOfKeys: 7, lua: ACCEPT_TURN });
      redis.defineCommand('convoCommit', { numberOfKeys: 7, lua: COMMIT });
      redis.defineCommand('convoRead', { numberOfKeys: 7, lua: READ_WITH_SEQ });
    }
  }

  keys(sessionId: string): SessionKeys {
    return sessionKeys(this.opts.prefix, sessionId);
  }

  private keyArgs(sessionId: string): string[] {
    return allSessionKeys(this.keys(sessionId));
  }

  /** Creates the session with its bootstrap step (seq 1) already pending. */
  async create(input: { state: SessionState; tokenHash: string; agent: AgentName; turnId: string }): Promise<Step> {
    const created = await this.insert(input.state, input.tokenHash, input.agent, input.turnId);
    if (!created) throw new SystemError(`session ${input.state.sessionId} already exists`);
    await this.markPending(input.state.sessionId);
    return { seq: 1, agent: input.agent, turnId: input.turnId };
  }

  /** Creates a session that waits for its first turn (no bootstrap run); false when the id is taken. */
  async createIdle(input: { state: SessionState; tokenHash: string; agent: AgentName }): Promise<boolean> {
    return this.insert(input.state, input.tokenHash, input.agent, '');
  }

  private async insert(state: SessionState, tokenHash: string, agent: AgentName, turnId: string): Promise<boolean> {
    const created = await this.redis.convoCreate(
      ...this.keyArgs(state.sessionId),
      JSON.stringify(state),
      state.kind,
      tokenHash,
      agent,
      turnId,
      state.createdAt,
      this.opts.ttlSeconds,
      state.status,
    );
    return created === 1;
  }

  async acceptTurn(input: {
    sessionId: string;
    turnId: string;
    message: string;
    idempotencyKey: string | undefined;
    multitask: 'enqueue' | 'reject';
    maxQueued: number;
    acceptedAt: string;
    options?: Record<string, unknown>;
  }): Promise<AcceptResult> {
    const turn: TurnRecord = { message: input.message, acceptedAt: input.acceptedAt, ...(input.options ? { options: input.options } : {}) };
    await this.markPending(input.sessionId);
    const r = await this.redis.convoAccept(
      ...this.keyArgs(input.sessionId),
      input.turnId,
      JSON.stringify(turn),
      input.idempotencyKey ?? '',
      input.multitask,
      input.maxQueued,
      this.opts.ttlSeconds,
      this.opts.eventsMaxLen,
    );
    const outcome = String(r[0]);
    if (outcome === 'queued' || outcome === 'started' || outcome === 'duplicate') {
      return {
        outcome,
        turnId: String(r[1]),
        position: Number(r[2]),
        step: r[3] ? Step.parse(JSON.parse(String(r[3]))) : null,
      };
    }
    return { outcome: outcome as 'not_found' | 'submitted' | 'busy' | 'inbox_full' };
  }

  async load(sessionId: string): Promise<LoadedSession | null> {
    const r = await this.redis.convoRead(...this.keyArgs(sessionId));
    const [v, state, step, active, eventSeq, tokenHash, status, qlen, firstId] = r.map(String);
    if (!v || !state) return null;
    return {
      version: Number(v),
      // Internal document written only by our own commits: parsed, not re-validated on every read.
      state: JSON.parse(state) as SessionState,
      step: step ? Step.parse(JSON.parse(step)) : null,
      activeTurn: active || null,
      status: status ?? 'active',
      tokenHash: tokenHash ?? '',
      lastEventId: Number(eventSeq),
      firstRetainedEventId: firstId ? eventNumber(firstId) : null,
      queued: Number(qlen),
    };
  }

  async getTokenHash(sessionId: string): Promise<string | null> {
    return this.redis.hget(this.keys(sessionId).hash, 'tokenHash');
  }

  async getTurn(sessionId: string, turnId: string): Promise<TurnRecord | null> {
    const raw = await this.redis.hget(this.keys(sessionId).turns, turnId);
    return raw ? (JSON.parse(raw) as TurnRecord) : null;
  }

  /** Replaces a turn's stored message (prohibited content the respondent volunteered is masked). */
  async redactTurn(sessionId: string, turnId: string, message: string): Promise<void> {
    const k = this.keys(sessionId);
    const raw = await this.redis.hget(k.turns, turnId);
    if (!raw) return;
    const turn = JSON.parse(raw) as TurnRecord;
    await this.redis.hset(k.turns, turnId, JSON.stringify({ ...turn, message }));
  }

  /** Atomically applies a step's effects if nobody committed since `expectedVersion`. */
  async commit(input: CommitInput): Promise<CommitResult> {
    const args: (string | number)[] = [
      input.expectedVersion,
      input.expectedSeq === null ? '' : input.expectedSeq,
      JSON.stringify(input.state),
      input.state.status,
      input.state.currentAgent,
      input.mode,
      input.nextAgent ?? '',
      this.opts.ttlSeconds,
      this.opts.eventsMaxLen,
      input.events.length,
    ];
    for (const e of input.events) args.push(validateEvent(e).type, JSON.stringify(e.data));
    args.push(input.runSteps.length);
    for (const s of input.runSteps) args.push(s.runStepId, JSON.stringify(s));
    const r = await this.redis.convoCommit(...this.keyArgs(input.sessionId), ...args);
    if (r[0] !== 'ok') return { ok: false };
    const step = r[2] ? Step.parse(JSON.parse(String(r[2]))) : null;
    if (step) await this.markPending(input.sessionId);
    return { ok: true, version: Number(r[1]), step };
  }

  /** Events with id > afterId, oldest first. */
  async readEvents(sessionId: string, afterId: number, count = 500): Promise<SessionEvent[]> {
    const entries = await this.redis.xrange(this.keys(sessionId).events, `(0-${afterId}`, '+', 'COUNT', count);
    return entries.map(([id, fields]) => parseStreamEntry(id, fields));
  }

  async getRunSteps(sessionId: string): Promise<RunStep[]> {
    const k = this.keys(sessionId);
    const ids = await this.redis.lrange(k.runStepIds, 0, -1);
    if (ids.length === 0) return [];
    const raws = await this.redis.hmget(k.runSteps, ...ids);
    return raws.filter((x): x is string => x !== null).map((x) => JSON.parse(x) as RunStep);
  }

  async delete(sessionId: string): Promise<boolean> {
    const n = await this.redis.del(...this.keyArgs(sessionId));
    await this.redis.zrem(pendingStepsKey(this.opts.prefix), sessionId);
    return n > 0;
  }

  /** Flags a session for the sweeper; written before the step so a crash in between is still found. */
  async markPending(sessionId: string): Promise<void> {
    await this.redis.zadd(pendingStepsKey(this.opts.prefix), Date.now(), sessionId);
  }

  async listStalePending(olderThanMs: number, limit = 100): Promise<string[]> {
    return this.redis.zrangebyscore(pendingStepsKey(this.opts.prefix), '-inf', Date.now() - olderThanMs, 'LIMIT', 0, limit);
  }

  async clearPending(sessionId: string): Promise<void> {
    await this.redis.zrem(pendingStepsKey(this.opts.prefix), sessionId);
  }
}

export function parseStreamEntry(id: string, fields: string[]): SessionEvent {
  let type = '';
  let data = '{}';
  for (let i = 0; i + 1 < fields.length; i += 2) {
    if (fields[i] === 'type') type = fields[i + 1] ?? '';
    else if (fields[i] === 'data') data = fields[i + 1] ?? '{}';
  }
  return { id: eventNumber(id), type, data: JSON.parse(data) } as SessionEvent;
}
