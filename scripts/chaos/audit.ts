import { Redis } from 'ioredis';
import { sessionKeys } from '@convo/runtime';

/** What Redis says about every session of a run, once the system has settled. */
export type SessionAudit = {
  sessions: number;
  /** Turns the gateway accepted (each has a turn record). */
  acceptedTurns: number;
  completedTurns: number;
  failedTurns: number;
  /** Accepted turns with no turn.completed/turn.failed. */
  lostTurns: number;
  /** Turns that ended twice, or whose user message was recorded twice. */
  duplicatedTurns: number;
  /** Sessions with a running or queued turn after the wait for the system to settle. */
  stuckSessions: number;
  /** Places where a stored stream skips or repeats an event id. */
  streamGaps: number;
  /** Up to ten descriptions of what was wrong, for the report. */
  samples: string[];
};

const TERMINAL = new Set(['turn.completed', 'turn.failed']);

/**
 * Reads every session under `prefix` straight from Redis: waits up to
 * `settleMs` for running and queued turns to end, then counts, per accepted
 * turn, its end events and its user message.
 */
export async function auditSessions(redisUrl: string, prefix: string, opts: { settleMs: number }): Promise<SessionAudit> {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 5 });
  try {
    const ids = await sessionIds(redis, prefix);
    const keys = (id: string) => sessionKeys(prefix, id);
    // One pipelined round trip per sweep over every session.
    const busy = async () => {
      const pipeline = redis.pipeline();
      for (const id of ids) pipeline.hget(keys(id).hash, 'activeTurn').llen(keys(id).inbox);
      const replies = (await pipeline.exec()) ?? [];
      return ids.filter((_, i) => {
        const active = replies[2 * i]?.[1];
        const queued = Number(replies[2 * i + 1]?.[1] ?? 0);
        return (typeof active === 'string' && active !== '') || queued > 0;
      });
    };
    const settleBy = Date.now() + opts.settleMs;
    let stuck = await busy();
    while (stuck.length > 0 && Date.now() < settleBy) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      stuck = await busy();
    }
    const audit: SessionAudit = {
      sessions: ids.length,
      acceptedTurns: 0,
      completedTurns: 0,
      failedTurns: 0,
      lostTurns: 0,
      duplicatedTurns: 0,
      stuckSessions: stuck.length,
      streamGaps: 0,
      samples: [],
    };
    const note = (text: string) => void (audit.samples.length < 10 && audit.samples.push(text));
    for (const id of stuck) note(`session ${id}: a turn still running or queued after ${opts.settleMs} ms`);
    for (const id of ids) {
      const [accepted, entries] = await Promise.all([redis.hkeys(keys(id).turns), redis.xrange(keys(id).events, '-', '+')]);
      let previous: number | null = null;
      const ends = new Map<string, number>();
      const userMessages = new Map<string, number>();
      for (const [streamId, fields] of entries) {
        const n = Number(streamId.split('-')[1]);
        if (previous !== null && n !== previous + 1) {
          audit.streamGaps++;
          note(`session ${id}: event ${n} follows ${previous}`);
        }
        previous = n;
        const type = fields[fields.indexOf('type') + 1];
        const data = JSON.parse(fields[fields.indexOf('data') + 1] ?? '{}') as { turnId?: string; role?: string };
        if (type && TERMINAL.has(type) && data.turnId) {
          ends.set(data.turnId, (ends.get(data.turnId) ?? 0) + 1);
          if (type === 'turn.completed') audit.completedTurns++;
          else audit.failedTurns++;
        }
        if (type === 'message' && data.role === 'user' && data.turnId)
          userMessages.set(data.turnId, (userMessages.get(data.turnId) ?? 0) + 1);
      }
      for (const turnId of accepted) {
        audit.acceptedTurns++;
        const ended = ends.get(turnId) ?? 0;
        if (ended === 0) {
          audit.lostTurns++;
          note(`session ${id}: turn ${turnId} never ended`);
        } else if (ended > 1 || (userMessages.get(turnId) ?? 0) > 1) {
          audit.duplicatedTurns++;
          note(`session ${id}: turn ${turnId} ended ${ended}× with ${userMessages.get(turnId) ?? 0} user messages`);
        }
      }
    }
    return audit;
  } finally {
    redis.disconnect();
  }
}

/** Session ids under the prefix: the hash keys `<prefix>:s:{id}` (the other keys of a session have a suffix). */
async function sessionIds(redis: Redis, prefix: string): Promise<string[]> {
  const ids: string[] = [];
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:s:{*}`, 'COUNT', 1000);
    cursor = next;
    for (const key of keys) {
      const match = /:s:\{(.+)\}$/.exec(key);
      if (match) ids.push(match[1]!);
    }
  } while (cursor !== '0');
  return ids;
}
