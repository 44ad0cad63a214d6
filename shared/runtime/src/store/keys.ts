import { stableHash } from '../redis/hash.js';

/**
 * Every key of one session shares the `{sessionId}` hash tag, so the Lua
 * scripts that touch several of them stay legal on Redis Cluster.
 */
export type SessionKeys = {
  hash: string;
  events: string;
  inbox: string;
  turns: string;
  idem: string;
  runStepIds: string;
  runSteps: string;
  /** The conversation, one JSON message per entry, appended and never rewritten (the state document holds everything else). */
  messages: string;
};

export function sessionKeys(prefix: string, sessionId: string): SessionKeys {
  const base = `${prefix}:s:{${sessionId}}`;
  return {
    hash: base,
    events: `${base}:ev`,
    inbox: `${base}:inbox`,
    turns: `${base}:turns`,
    idem: `${base}:idem`,
    runStepIds: `${base}:rs`,
    runSteps: `${base}:rsd`,
    messages: `${base}:msgs`,
  };
}

export function allSessionKeys(k: SessionKeys): string[] {
  return [k.hash, k.events, k.inbox, k.turns, k.idem, k.runStepIds, k.runSteps, k.messages];
}

/**
 * Sessions with a pending step, scored by when it was set; read by the sweeper. Split into
 * PENDING_SHARDS sorted sets, each its own hash tag, so on a Redis Cluster the marks every step
 * writes spread over the shards instead of landing on one.
 */
export const PENDING_SHARDS = 16;

export function pendingStepsKey(prefix: string, sessionId: string): string {
  return pendingShardKey(prefix, stableHash(sessionId) % PENDING_SHARDS);
}

export function pendingShardKey(prefix: string, shard: number): string {
  return `${prefix}:pending-steps:{p${shard}}`;
}

/** Pub/Sub channel of a session's live-only events (message deltas); not part of the stored session. */
export function liveChannel(prefix: string, sessionId: string): string {
  return `${prefix}:live:{${sessionId}}`;
}

/** Pub/Sub channel on which workers hear that a running turn was cancelled. */
export function cancelChannel(prefix: string): string {
  return `${prefix}:cancel`;
}
