import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import { isCluster, type RedisClient } from '../redis/connection.js';
import type { AgentName } from '@convo/contract';
import type { Config } from '../config.js';
import { SystemError } from '../errors.js';
import { type NewEvent, type SessionEvent, validateEvent } from '@convo/contract';
import type { RunStep } from '@convo/contract';
import { ChatMessage, SessionState, type SessionView, type Step } from '@convo/contract';
import type { TraceCarrier } from '@convo/contract';
import { injectTrace } from '../tracing/propagation.js';
import {
  allSessionKeys,
  cancelChannel,
  liveChannel,
  PENDING_SHARDS,
  pendingShardKey,
  pendingStepsKey,
  sessionKeys,
  type SessionKeys,
} from './keys.js';
import {
  acceptTurn,
  cancelTurn,
  commitStep,
  createSession,
  readSession,
  replaceTurn,
  type AcceptResult,
  type CancelOutcome,
  type CommitMode,
} from './scripts.js';

export type { AcceptResult, CancelOutcome, CommitMode } from './scripts.js';

export type StoreOptions = { prefix: string; ttlSeconds: number; eventsMaxLen: number };

/** The live-channel message that says "the session's stream has new events": never valid JSON, so never a delta. */
export const APPENDED = '+';

/** The store options a process derives from its configuration. */
export function storeOptions(config: Pick<Config, 'keyPrefix' | 'sessionTtlSeconds' | 'eventsMaxLen'>): StoreOptions {
  return { prefix: config.keyPrefix, ttlSeconds: config.sessionTtlSeconds, eventsMaxLen: config.eventsMaxLen };
}

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
  /** The active turn when a cancel of it is pending (its steps end it as cancelled), else null. */
  cancelTurn: string | null;
  /** The pending step's turn as accepted (its message, null for a bootstrap run; its options), read in the same round trip; null without a step. */
  stepTurn: TurnRecord | null;
  /** Messages stored when it was read: a commit from this read passes it back as `messagesBefore`. */
  messageCount: number;
};

export type CommitInput = {
  sessionId: string;
  expectedVersion: number;
  /** The step this commit belongs to; null for changes outside a step (submit). */
  expectedSeq: number | null;
  state: SessionView;
  /** The loaded session's `messageCount`: the state's messages after it are appended (the rest are stored already). */
  messagesBefore: number;
  mode: CommitMode;
  nextAgent?: AgentName;
  events: NewEvent[];
  runSteps: RunStep[];
};
export type CommitResult = { ok: true; version: number; step: Step | null } | { ok: false };

/**
 * A turn as accepted; `options` carries per-turn settings (a product's options for the turn); `trace` the trace context
 * of the request that sent it, so a step of the turn dispatched later (a queued turn starting, the
 * sweeper's re-enqueue) continues that trace (runner/commit.ts, runner/sweeper.ts).
 */
export type TurnRecord = { message: string | null; acceptedAt: string; options?: Record<string, unknown>; trace?: TraceCarrier | null };

/** Parses a stream id `0-<n>` back into the session's event number. */
export function eventNumber(streamId: string): number {
  const sequence = Number(streamId.split('-')[1]);
  return Number.isFinite(sequence) ? sequence : 0;
}

/**
 * The session's Redis store: state, events, inbox and run steps. Every write
 * of session data goes through a Lua script of scripts.ts (./lua/); this
 * class turns the domain's values into their inputs.
 */
export class SessionStore {
  private readonly tokenHashes = new LRUCache<string, string>({ max: TOKEN_CACHE_SIZE, ttl: TOKEN_CACHE_MS });

  constructor(
    private readonly redis: RedisClient,
    private readonly opts: StoreOptions,
  ) {}

  keys(sessionId: string): SessionKeys {
    return sessionKeys(this.opts.prefix, sessionId);
  }

  /** Creates the session with its bootstrap step (seq 1) already pending. */
  async create(input: { state: SessionState; tokenHash: string; agent: AgentName; turnId: string }): Promise<Step> {
    const created = await this.markedBefore(input.state.sessionId, () =>
      this.insert(input.state, input.tokenHash, input.agent, input.turnId),
    );
    if (!created) throw new SystemError(`session ${input.state.sessionId} already exists`);
    return { seq: 1, agent: input.agent, turnId: input.turnId };
  }

  /**
   * Runs `write`, which leaves the session with a step to run, after storing the sweeper's mark that
   * guards it: a process dying between the two then leaves a mark without a step (the sweeper drops
   * it), never a step nobody will look for. On one Redis both go out at once on this connection, which
   * Redis runs in order (one round trip); on a cluster they go to different nodes, so in turn.
   */
  private async markedBefore<T>(sessionId: string, write: () => Promise<T>): Promise<T> {
    if (isCluster(this.redis)) return this.markPending(sessionId).then(write);
    return (await Promise.all([this.markPending(sessionId), write()]))[1];
  }

  /** Creates a session that waits for its first turn (no bootstrap run); false when the id is taken. */
  async createIdle(input: { state: SessionState; tokenHash: string; agent: AgentName }): Promise<boolean> {
    return this.insert(input.state, input.tokenHash, input.agent, '');
  }

  private async insert(state: SessionState, tokenHash: string, agent: AgentName, bootstrapTurnId: string): Promise<boolean> {
    return createSession.run(this.redis, {
      keys: this.keys(state.sessionId),
      stateJson: documentJson(state),
      kind: state.kind,
      tokenHash,
      agent,
      bootstrapTurnId,
      now: state.createdAt,
      ttlSeconds: this.opts.ttlSeconds,
      status: state.status,
      messagesJson: state.messages.map(messageJson),
    });
  }

  async acceptTurn(input: {
    sessionId: string;
    turnId: string;
    message: string;
    idempotencyKey: string | undefined;
    multitask: 'enqueue' | 'reject';
    maxQueued: number;
    /** Turns the session may accept in its life; past it, `turn_limit`. */
    turnLimit: number;
    acceptedAt: string;
    options?: Record<string, unknown>;
  }): Promise<AcceptResult> {
    const trace = injectTrace();
    const turn: TurnRecord = {
      message: input.message,
      acceptedAt: input.acceptedAt,
      ...(input.options ? { options: input.options } : {}),
      ...(trace ? { trace } : {}),
    };
    const accept = () =>
      acceptTurn.run(this.redis, {
        keys: this.keys(input.sessionId),
        turnId: input.turnId,
        turnJson: JSON.stringify(turn),
        idempotencyKey: input.idempotencyKey,
        multitask: input.multitask,
        maxQueued: input.maxQueued,
        ttlSeconds: this.opts.ttlSeconds,
        eventsMaxLen: this.opts.eventsMaxLen,
        fingerprint: createHash('sha256')
          .update(JSON.stringify([input.message, input.options ?? null]))
          .digest('hex'),
        turnLimit: input.turnLimit,
      });
    const accepted = await this.markedBefore(input.sessionId, accept);
    if (accepted.outcome === 'queued') this.notify(input.sessionId);
    return accepted;
  }

  /**
   * Tells the gateways following the session that its stream grew. Only on a cluster: there a gateway
   * cannot block on many sessions' streams with one XREAD (they live in different slots), so it reads
   * a stream when told; a lost notice is caught by its periodic read.
   */
  private notify(sessionId: string): void {
    if (!isCluster(this.redis)) return;
    this.redis.publish(this.liveChannel(sessionId), APPENDED).catch(() => undefined);
  }

  async load(sessionId: string): Promise<LoadedSession | null> {
    const record = await readSession.run(this.redis, { keys: this.keys(sessionId) });
    if (!record) return null;
    return {
      version: record.version,
      state: readState(sessionId, record.stateJson, record.messagesJson),
      step: record.step,
      activeTurn: record.activeTurn,
      status: record.status,
      tokenHash: record.tokenHash,
      lastEventId: record.eventSeq,
      firstRetainedEventId: record.firstStreamId ? eventNumber(record.firstStreamId) : null,
      queued: record.queued,
      cancelTurn: record.cancelTurn,
      stepTurn: record.stepTurnJson ? (JSON.parse(record.stepTurnJson) as TurnRecord) : null,
      messageCount: record.messagesJson.length,
    };
  }

  /**
   * Cancels a queued turn at once, or marks the running one (and tells the
   * workers, so the one running it aborts its model call).
   */
  async cancelTurn(sessionId: string, turnId: string): Promise<CancelOutcome> {
    const outcome = await cancelTurn.run(this.redis, {
      keys: this.keys(sessionId),
      turnId,
      message: 'The turn was cancelled.',
      ttlSeconds: this.opts.ttlSeconds,
      eventsMaxLen: this.opts.eventsMaxLen,
    });
    if (outcome === 'cancelled') this.notify(sessionId);
    if (outcome === 'cancelling') {
      await this.markPending(sessionId);
      await this.redis.publish(cancelChannel(this.opts.prefix), JSON.stringify({ sessionId, turnId }));
    }
    return outcome;
  }

  /** Pub/Sub channel of the session's live-only events. */
  liveChannel(sessionId: string): string {
    return liveChannel(this.opts.prefix, sessionId);
  }

  get cancelChannel(): string {
    return cancelChannel(this.opts.prefix);
  }

  /** Sends a live-only event (a message delta) to the session's SSE clients; not stored, not replayed. */
  async publishLive(sessionId: string, ev: NewEvent): Promise<void> {
    await this.redis.publish(this.liveChannel(sessionId), JSON.stringify(ev));
  }

  /**
   * The hash of the session's token. A session's token never changes, so a gateway keeps what it
   * read for TOKEN_CACHE_MS: the check before every request of a session's client (a turn, its
   * event stream) is a Redis round trip once per half minute instead of once per request. A deleted
   * session leaves this process's cache at once, and any other gateway's within that time; until
   * then its requests find no session anyway (404).
   */
  async getTokenHash(sessionId: string): Promise<string | null> {
    const kept = this.tokenHashes.get(sessionId);
    if (kept !== undefined) return kept;
    const hash = await this.redis.hget(this.keys(sessionId).hash, 'tokenHash');
    if (hash !== null) this.tokenHashes.set(sessionId, hash);
    return hash;
  }

  async getTurn(sessionId: string, turnId: string): Promise<TurnRecord | null> {
    const raw = await this.redis.hget(this.keys(sessionId).turns, turnId);
    return raw ? (JSON.parse(raw) as TurnRecord) : null;
  }

  /** Replaces a turn's stored message (prohibited content the respondent volunteered is masked). */
  async redactTurn(sessionId: string, turnId: string, message: string): Promise<void> {
    const keys = this.keys(sessionId);
    // Turn records do not change once accepted; the compare-and-set only guards against one that did.
    for (let attempt = 0; attempt < 3; attempt++) {
      const readJson = await this.redis.hget(keys.turns, turnId);
      if (!readJson) return;
      const turn = JSON.parse(readJson) as TurnRecord;
      if (await replaceTurn.run(this.redis, { keys, turnId, readJson, newJson: JSON.stringify({ ...turn, message }) })) return;
    }
    throw new SystemError(`turn ${turnId} of session ${sessionId} kept changing while being redacted`);
  }

  /** Atomically applies a step's effects if nobody committed since `expectedVersion`. */
  async commit(input: CommitInput): Promise<CommitResult> {
    const result = await commitStep.run(this.redis, {
      keys: this.keys(input.sessionId),
      expectedVersion: input.expectedVersion,
      expectedSeq: input.expectedSeq,
      stateJson: documentJson(input.state),
      status: input.state.status,
      agent: input.state.currentAgent,
      mode: input.mode,
      nextAgent: input.nextAgent,
      ttlSeconds: this.opts.ttlSeconds,
      eventsMaxLen: this.opts.eventsMaxLen,
      events: input.events.map((event) => ({ type: validateEvent(event).type, dataJson: JSON.stringify(event.data) })),
      runSteps: input.runSteps.map((step) => ({ id: step.runStepId, json: JSON.stringify(step) })),
      messagesBefore: input.messagesBefore,
      messagesJson: input.state.messages.slice(input.messagesBefore).map(messageJson),
    });
    if (result.ok && input.events.length > 0) this.notify(input.sessionId);
    return result;
  }

  /** Events with id > afterId, oldest first. */
  async readEvents(sessionId: string, afterId: number, count = 500): Promise<SessionEvent[]> {
    const entries = await this.redis.xrange(this.keys(sessionId).events, `(0-${afterId}`, '+', 'COUNT', count);
    return entries.map(([id, fields]) => parseStreamEntry(id, fields));
  }

  /**
   * Every event with id > afterId, oldest first, read in batches as the
   * caller consumes them: the one loop for replays, waits and scans.
   */
  async *eventsAfter(sessionId: string, afterId: number, batchSize = 500): AsyncGenerator<SessionEvent> {
    let cursor = afterId;
    for (;;) {
      const batch = await this.readEvents(sessionId, cursor, batchSize);
      yield* batch;
      if (batch.length < batchSize) return;
      cursor = batch.at(-1)!.id;
    }
  }

  async getRunSteps(sessionId: string): Promise<RunStep[]> {
    const redisKeys = this.keys(sessionId);
    const ids = await this.redis.lrange(redisKeys.runStepIds, 0, -1);
    if (ids.length === 0) return [];
    const raws = await this.redis.hmget(redisKeys.runSteps, ...ids);
    return raws.filter((raw): raw is string => raw !== null).map((raw) => JSON.parse(raw) as RunStep);
  }

  async delete(sessionId: string): Promise<boolean> {
    this.tokenHashes.delete(sessionId);
    const deleted = await this.redis.del(...allSessionKeys(this.keys(sessionId)));
    await this.redis.zrem(pendingStepsKey(this.opts.prefix, sessionId), sessionId);
    return deleted > 0;
  }

  /** Flags a session for the sweeper; written before the step so a crash in between is still found. */
  async markPending(sessionId: string): Promise<void> {
    await this.redis.zadd(pendingStepsKey(this.opts.prefix, sessionId), Date.now(), sessionId);
  }

  /** Sessions whose mark is older than `olderThanMs`, up to `limit` from each shard. */
  async listStalePending(olderThanMs: number, limit = 100): Promise<string[]> {
    const before = Date.now() - olderThanMs;
    const shards = await Promise.all(
      Array.from({ length: PENDING_SHARDS }, (_, shard) =>
        this.redis.zrangebyscore(pendingShardKey(this.opts.prefix, shard), '-inf', before, 'LIMIT', 0, limit),
      ),
    );
    return shards.flat();
  }

  async clearPending(sessionId: string): Promise<void> {
    await this.redis.zrem(pendingStepsKey(this.opts.prefix, sessionId), sessionId);
  }
}

/** The state document as stored: everything but the messages, which have their own append-only list. */
function documentJson(state: SessionView): string {
  const { messages: _messages, ...document } = state;
  return JSON.stringify({ ...document, [SCHEMA_MARK]: stateSchemaId() });
}

/**
 * Which SessionState schema wrote a document: a digest of the schema itself (its JSON Schema), so
 * any change to it, in any release, is a new id. A document this schema wrote has every default
 * filled and nothing the schema would strip (the steps work on parsed states, under its type), so
 * reading it back needs JSON.parse alone; zod parses only a document of another schema (an older
 * or a newer release's), where defaults may be missing, and refuses one that breaks it. zod at
 * every read was about a tenth of an agent step's CPU.
 */
let schemaId: string | null = null;

/** Worked out at the first read or write (about 15 ms), not at every process's start. */
function stateSchemaId(): string {
  schemaId ??= createHash('sha256')
    .update(JSON.stringify(z.toJSONSchema(SessionState, { unrepresentable: 'any' })))
    .digest('base64url')
    .slice(0, 16);
  return schemaId;
}
const SCHEMA_MARK = '$schema';

/** How long a gateway trusts a token hash it read, and how many it keeps (getTokenHash). */
const TOKEN_CACHE_MS = 30_000;
const TOKEN_CACHE_SIZE = 20_000;

/** A message is checked against its schema once, when it is appended; reads trust the list. */
function messageJson(message: SessionView['messages'][number]): string {
  return JSON.stringify(ChatMessage.parse(message));
}

/**
 * The state as a step sees it, validated where it enters the process: the
 * document (without the conversation) against the schema, which also fills
 * defaults a newer release added; the messages as appended. A document from
 * before the messages had their own list still carries them, and they move to
 * the list with the session's next commit.
 */
function readState(sessionId: string, stateJson: string, messagesJson: readonly string[]): SessionState {
  const document = JSON.parse(stateJson) as { messages?: unknown; [SCHEMA_MARK]?: string };
  const stored = messagesJson.length > 0 ? messagesJson.map((json) => JSON.parse(json) as ChatMessage) : null;
  if (document[SCHEMA_MARK] === stateSchemaId() && stored) {
    delete document[SCHEMA_MARK];
    return { ...(document as unknown as SessionState), messages: stored };
  }
  const parsed = SessionState.safeParse({ ...document, messages: stored ? [] : (document.messages ?? []) });
  if (!parsed.success)
    throw new SystemError(
      `session ${sessionId}: the stored state does not match its schema: ${parsed.error.issues
        .slice(0, 3)
        .map((i) => `${i.path.join('.')}: ${i.message}`)
        .join('; ')}`,
    );
  if (stored) parsed.data.messages = stored;
  return parsed.data;
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
