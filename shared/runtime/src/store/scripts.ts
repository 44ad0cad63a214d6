import { defineScript } from '../redis/script.js';
import { Step } from '@convo/contract';
import { allSessionKeys, type SessionKeys } from './keys.js';

/**
 * The session's atomic operations, one Lua file each under ./lua/ (the file's
 * header states its KEYS and ARGV). Every state change and the events it
 * produces are written by one script, guarded by the session's version, so a
 * job that runs twice commits once. Event ids are the session's own integer
 * sequence, stored in the stream as `0-<n>` so XRANGE can resume from any id.
 */

const file = (name: string) => new URL(`./lua/${name}.lua`, import.meta.url);

/** The step a script returns as JSON, or null for ''. */
function stepOf(json: unknown): Step | null {
  return json ? Step.parse(JSON.parse(String(json))) : null;
}

export const createSession = defineScript({
  name: 'convoCreateSession',
  file: file('create-session'),
  encode: (input: {
    keys: SessionKeys;
    stateJson: string;
    kind: string;
    tokenHash: string;
    agent: string;
    /** '' = no bootstrap run: the session waits for its first turn. */
    bootstrapTurnId: string;
    now: string;
    ttlSeconds: number;
    status: string;
    messagesJson: readonly string[];
  }) => ({
    keys: allSessionKeys(input.keys),
    args: [
      input.stateJson,
      input.kind,
      input.tokenHash,
      input.agent,
      input.bootstrapTurnId,
      input.now,
      input.ttlSeconds,
      input.status,
      ...input.messagesJson,
    ],
  }),
  decode: (reply) => reply === 1,
});

export type AcceptResult =
  | { outcome: 'not_found' | 'submitted' | 'busy' | 'inbox_full' | 'key_reused' | 'turn_limit' }
  | { outcome: 'queued' | 'started' | 'duplicate'; turnId: string; position: number; step: Step | null };

export const acceptTurn = defineScript({
  name: 'convoAcceptTurn',
  file: file('accept-turn'),
  encode: (input: {
    keys: SessionKeys;
    turnId: string;
    turnJson: string;
    idempotencyKey: string | undefined;
    multitask: 'enqueue' | 'reject';
    maxQueued: number;
    ttlSeconds: number;
    eventsMaxLen: number;
    /** What the turn asks (message and options), so a retry is told from another request under the same key. */
    fingerprint: string;
    turnLimit: number;
  }) => ({
    keys: allSessionKeys(input.keys),
    args: [
      input.turnId,
      input.turnJson,
      input.idempotencyKey ?? '',
      input.multitask,
      input.maxQueued,
      input.ttlSeconds,
      input.eventsMaxLen,
      input.fingerprint,
      input.turnLimit,
    ],
  }),
  decode: (reply): AcceptResult => {
    const [outcome, turnId, position, step] = reply as [string, string?, number?, string?];
    if (outcome === 'queued' || outcome === 'started' || outcome === 'duplicate') {
      return { outcome, turnId: String(turnId), position: Number(position), step: stepOf(step) };
    }
    return { outcome: outcome as 'not_found' | 'submitted' | 'busy' | 'inbox_full' | 'key_reused' | 'turn_limit' };
  },
});

export type CommitMode = 'none' | 'continue' | 'end_turn';

export const commitStep = defineScript({
  name: 'convoCommitStep',
  file: file('commit-step'),
  encode: (input: {
    keys: SessionKeys;
    expectedVersion: number;
    /** null: a change outside any step (submit). */
    expectedSeq: number | null;
    stateJson: string;
    status: string;
    agent: string;
    mode: CommitMode;
    nextAgent: string | undefined;
    ttlSeconds: number;
    eventsMaxLen: number;
    events: readonly { type: string; dataJson: string }[];
    runSteps: readonly { id: string; json: string }[];
    /** How many messages the committing step read: the commit loses if the list has changed since. */
    messagesBefore: number;
    messagesJson: readonly string[];
  }) => ({
    keys: allSessionKeys(input.keys),
    args: [
      input.expectedVersion,
      input.expectedSeq ?? '',
      input.stateJson,
      input.status,
      input.agent,
      input.mode,
      input.nextAgent ?? '',
      input.ttlSeconds,
      input.eventsMaxLen,
      input.events.length,
      ...input.events.flatMap((e) => [e.type, e.dataJson]),
      input.runSteps.length,
      ...input.runSteps.flatMap((s) => [s.id, s.json]),
      input.messagesBefore,
      input.messagesJson.length,
      ...input.messagesJson,
    ],
  }),
  decode: (reply): { ok: true; version: number; step: Step | null } | { ok: false } => {
    const [status, version, step] = reply as [string, number?, string?];
    return status === 'ok' ? { ok: true, version: Number(version), step: stepOf(step) } : { ok: false };
  },
});

/** What one atomic read of a session returns; null when it does not exist. */
export type SessionRecord = {
  version: number;
  stateJson: string;
  step: Step | null;
  activeTurn: string | null;
  status: string;
  tokenHash: string;
  eventSeq: number;
  /** Stream id of the oldest retained event, or null when the stream is empty. */
  firstStreamId: string | null;
  queued: number;
  /** The active turn when a cancel of it is pending, else null. */
  cancelTurn: string | null;
  /** The stored record (JSON) of the pending step's turn, or null when there is no step. */
  stepTurnJson: string | null;
  /** The conversation, one JSON message each, oldest first. */
  messagesJson: string[];
};

export const readSession = defineScript({
  name: 'convoReadSession',
  file: file('read-session'),
  encode: (input: { keys: SessionKeys }) => ({ keys: allSessionKeys(input.keys), args: [] }),
  decode: (reply): SessionRecord | null => {
    const values = reply as unknown[];
    const [version, stateJson, step, activeTurn, eventSeq, tokenHash, status, queued, firstStreamId, cancelTurn, stepTurnJson] = values
      .slice(0, 11)
      .map(String);
    if (!version || !stateJson) return null;
    return {
      version: Number(version),
      stateJson,
      step: stepOf(step),
      activeTurn: activeTurn || null,
      status: status || 'active',
      tokenHash: tokenHash ?? '',
      eventSeq: Number(eventSeq),
      firstStreamId: firstStreamId || null,
      queued: Number(queued),
      cancelTurn: cancelTurn || null,
      stepTurnJson: stepTurnJson || null,
      messagesJson: ((values[11] ?? []) as unknown[]).map(String),
    };
  },
});

export const replaceTurn = defineScript({
  name: 'convoReplaceTurn',
  file: file('replace-turn'),
  encode: (input: { keys: SessionKeys; turnId: string; readJson: string; newJson: string }) => ({
    keys: [input.keys.turns],
    args: [input.turnId, input.readJson, input.newJson],
  }),
  decode: (reply) => reply === 1,
});

export type CancelOutcome = 'not_found' | 'turn_not_found' | 'cancelled' | 'cancelling' | 'not_active';

export const cancelTurn = defineScript({
  name: 'convoCancelTurn',
  file: file('cancel-turn'),
  encode: (input: { keys: SessionKeys; turnId: string; message: string; ttlSeconds: number; eventsMaxLen: number }) => ({
    keys: allSessionKeys(input.keys),
    args: [input.turnId, input.message, input.ttlSeconds, input.eventsMaxLen],
  }),
  decode: (reply): CancelOutcome => String((reply as unknown[])[0]) as CancelOutcome,
});
