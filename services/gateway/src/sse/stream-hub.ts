import type { RedisClient } from '@convo/runtime';
import { APPENDED, type Logger, parseStreamEntry, pingWithin } from '@convo/runtime';
import { type NewEvent, type SessionEvent } from '@convo/contract';

/** What the hub fans events out to: an SSE connection, or a request waiting for its turn (/agent.dialog). */
export interface HubSubscriber {
  readonly sessionId: string;
  /** An SSE connection, as opposed to a request waiting for its turn. */
  readonly isStream: boolean;
  deliver(ev: SessionEvent): void;
  /** A live-only event (a message delta): no id of its own, never replayed. */
  deliverLive?(ev: NewEvent): void;
  comment(text: string): void;
  close(reason: string): void;
  onClose(fn: () => void): void;
}

type Followed = {
  key: string;
  cursor: number;
  clients: Set<HubSubscriber>;
  channel: string | null;
  /** Notified mode: a read of this stream is running, and whether another notice came meanwhile. */
  reading?: boolean;
  again?: boolean;
};

/** Longest the hub waits for the subscriber connection to catch up before it delivers a message anyway. */
const LIVE_BARRIER_MS = 250;

/** A stored assistant message: its text may have gone out as deltas first (a user's never does). */
function mayHaveStreamed(ev: SessionEvent): boolean {
  return ev.type === 'message' && ev.data.role === 'assistant';
}

/** The Pub/Sub side: a connection in subscriber mode and the channel of a session's live-only events. */
export type LiveSource = { subscriber: RedisClient; channelOf: (sessionId: string) => string };

/**
 * Follows the event streams of every session that has an SSE client on this
 * gateway over ONE blocking connection (`XREAD BLOCK … STREAMS k1..kN`), and
 * fans events out to the clients. A new stream interrupts the blocking read
 * with CLIENT UNBLOCK from the shared command connection, so a gateway uses a
 * fixed number of Redis connections however many clients it serves.
 *
 * Live-only events (message deltas) come over Pub/Sub on one more connection:
 * the hub subscribes to a session's channel while it has clients and hands
 * them to the SSE connections beside the stored stream, never into it.
 *
 * On a Redis Cluster one XREAD cannot span sessions (their streams live in
 * different slots), so the hub is built without the blocking connection and
 * runs notified: writers publish APPENDED on
 * the session's live channel after appending events, and the hub reads that
 * stream from its cursor when told, on subscribing, after its subscriber
 * reconnects, and every `blockMs` for every followed session (a notice lost
 * to a crash between the write and its publish is late, never lost).
 */
export class StreamHub {
  private readonly followed = new Map<string, Followed>();
  private running = false;
  private blockedId: number | null = null;
  private reading = false;
  private wakeIdle: (() => void) | null = null;
  private loopDone: Promise<void> | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  private poll: NodeJS.Timeout | null = null;
  private readonly byChannel = new Map<string, Followed>();

  constructor(
    /** The connection for XREAD BLOCK; null on a cluster, where the hub is told of new events instead. */
    private readonly blocking: RedisClient | null,
    private readonly command: RedisClient,
    private readonly keyOf: (sessionId: string) => string,
    private readonly log: Logger,
    private readonly opts: { blockMs: number; batch: number; heartbeatMs: number; live?: LiveSource },
  ) {
    if (!blocking && !opts.live) throw new Error('a stream hub without a blocking connection needs the live channel subscriber');
    opts.live?.subscriber.on('message', (channel: string, payload: string) => this.onLive(channel, payload));
  }

  private onLive(channel: string, payload: string): void {
    const session = this.byChannel.get(channel);
    if (!session) return;
    if (payload === APPENDED) {
      void this.readNotified(session);
      return;
    }
    let ev: NewEvent;
    try {
      ev = JSON.parse(payload) as NewEvent;
    } catch {
      return;
    }
    for (const client of session.clients) client.deliverLive?.(ev);
  }

  get clientCount(): number {
    let count = 0;
    for (const session of this.followed.values()) count += session.clients.size;
    return count;
  }

  /** Subscribers that are SSE connections (not requests waiting for a turn). */
  get streamCount(): number {
    let count = 0;
    for (const session of this.followed.values()) for (const client of session.clients) if (client.isStream) count++;
    return count;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.heartbeat = setInterval(() => this.forEachClient((client) => client.comment('ping')), this.opts.heartbeatMs);
    this.heartbeat.unref();
    const blocking = this.blocking;
    if (!blocking) {
      const readAll = () => {
        for (const session of this.followed.values()) void this.readNotified(session);
      };
      this.poll = setInterval(readAll, this.opts.blockMs);
      this.poll.unref();
      // Notices published while the subscriber was away are gone: read every followed stream once it is back.
      this.opts.live!.subscriber.on('ready', readAll);
      return;
    }
    blocking.on('ready', () => {
      this.blockedId = null;
    });
    this.loopDone = this.loop(blocking);
  }

  /** Notified mode: reads a session's stream from its cursor, once more if told again meanwhile. */
  private async readNotified(session: Followed): Promise<void> {
    if (session.reading) {
      session.again = true;
      return;
    }
    session.reading = true;
    try {
      do {
        session.again = false;
        const items = await this.command.xrange(session.key, `(0-${session.cursor}`, '+', 'COUNT', this.opts.batch);
        const events = items.map(([id, fields]) => parseStreamEntry(id, fields));
        // The periodic read is not ordered after the notices on the subscriber connection either.
        if (events.some(mayHaveStreamed)) await this.liveBarrier();
        this.deliverEvents(session, events);
        if (items.length === this.opts.batch) session.again = true;
      } while (session.again && this.running && this.followed.get(session.key) === session);
    } catch (err) {
      // The next notice or the periodic read tries again.
      this.log.warn({ err: err instanceof Error ? err.message : String(err) }, 'stream read failed');
    } finally {
      session.reading = false;
    }
  }

  /**
   * Waits until every live event Redis had sent this gateway before now has been handed out. A
   * worker publishes a message's deltas and then commits it, on one connection, so Redis runs them
   * in that order; but this gateway may read the XREAD reply before the deltas on the subscriber
   * connection (gateway-sse.test.ts shows it when both reach Redis in one write), and a delta read
   * after its message would be dropped as late. A PING on the subscriber connection is answered
   * after the messages queued on it: once it is back, they have been delivered. Bounded: a
   * subscriber that is away does not hold the stream up.
   */
  private async liveBarrier(): Promise<void> {
    await pingWithin(this.opts.live!.subscriber, LIVE_BARRIER_MS);
  }

  private deliverEvents(session: Followed, events: SessionEvent[]): void {
    for (const ev of events) {
      if (ev.id <= session.cursor) continue;
      session.cursor = ev.id;
      for (const client of session.clients) client.deliver(ev);
    }
  }

  /** Starts following a session for a client whose history is known up to `fromId`. */
  subscribe(client: HubSubscriber, fromId: number): void {
    const key = this.keyOf(client.sessionId);
    let session = this.followed.get(key);
    const isNew = !session;
    if (!session) {
      const channel = this.opts.live ? this.opts.live.channelOf(client.sessionId) : null;
      session = { key, cursor: fromId, clients: new Set(), channel };
      this.followed.set(key, session);
      if (channel) {
        this.byChannel.set(channel, session);
        this.listen(session);
      }
    }
    // Events between fromId and the hub's cursor reach the client through its own replay.
    session.clients.add(client);
    client.onClose(() => this.unsubscribe(key, client));
    if (isNew && this.blocking) void this.wake();
  }

  /** Subscribes to the session's live channel, retrying while the session is followed (without it, a notified hub hears of new events only at its periodic read). */
  private listen(session: Followed, attempt = 0): void {
    const channel = session.channel!;
    this.opts
      .live!.subscriber.subscribe(channel)
      // Notified: what was appended before the subscription took effect is read now.
      .then(() => (this.blocking ? undefined : this.readNotified(session)))
      .catch((err: unknown) => {
        this.log.warn({ err: err instanceof Error ? err.message : String(err), channel, attempt }, 'live subscribe failed; retrying');
        const retry = setTimeout(
          () => {
            if (this.running && this.followed.get(session.key) === session) this.listen(session, attempt + 1);
          },
          Math.min(2_000, 100 * 2 ** attempt),
        );
        retry.unref();
      });
  }

  private unsubscribe(key: string, client: HubSubscriber): void {
    const session = this.followed.get(key);
    if (!session) return;
    session.clients.delete(client);
    if (session.clients.size > 0) return;
    this.followed.delete(key);
    if (session.channel) {
      this.byChannel.delete(session.channel);
      this.opts.live!.subscriber.unsubscribe(session.channel).catch(() => undefined);
    }
  }

  private forEachClient(fn: (client: HubSubscriber) => void): void {
    for (const session of this.followed.values()) for (const client of session.clients) fn(client);
  }

  private async wake(): Promise<void> {
    if (this.wakeIdle) {
      const resume = this.wakeIdle;
      this.wakeIdle = null;
      resume();
      return;
    }
    // The XREAD may not have reached Redis yet when we try: retry briefly until it is unblocked or done.
    for (let i = 0; i < 50 && this.reading && this.blockedId !== null; i++) {
      const unblocked = await this.command.client('UNBLOCK', this.blockedId).catch((err: unknown) => {
        this.log.warn({ err }, 'unblock failed');
        return 0;
      });
      if (Number(unblocked) === 1) return;
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  }

  private async loop(blocking: RedisClient): Promise<void> {
    while (this.running) {
      if (this.followed.size === 0) {
        await new Promise<void>((resolve) => {
          this.wakeIdle = resolve;
        });
        continue;
      }
      try {
        await this.readOnce(blocking);
      } catch (err) {
        if (!this.running) break;
        this.log.warn({ err: err instanceof Error ? err.message : String(err) }, 'stream read failed; retrying');
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    }
  }

  private async readOnce(blocking: RedisClient): Promise<void> {
    if (this.blockedId === null) this.blockedId = Number(await blocking.client('ID'));
    const entries = [...this.followed.values()];
    const args = [...entries.map((session) => session.key), ...entries.map((session) => `0-${session.cursor}`)];
    this.reading = true;
    let res: [string, [string, string[]][]][] | null;
    try {
      res = (await blocking.xread('COUNT', this.opts.batch, 'BLOCK', this.opts.blockMs, 'STREAMS', ...args)) as
        [string, [string, string[]][]][] | null;
    } finally {
      this.reading = false;
    }
    if (!res) return;
    const read = res.flatMap(([key, items]) => {
      const session = this.followed.get(key);
      return session ? [{ session, events: items.map(([id, fields]) => parseStreamEntry(id, fields)) }] : [];
    });
    if (read.some(({ session, events }) => session.channel && events.some(mayHaveStreamed))) await this.liveBarrier();
    for (const { session, events } of read) this.deliverEvents(session, events);
  }

  async stop(): Promise<void> {
    this.running = false;
    if (this.heartbeat) clearInterval(this.heartbeat);
    if (this.poll) clearInterval(this.poll);
    this.forEachClient((client) => client.close('server shutting down'));
    await this.wake();
    if (this.wakeIdle) this.wakeIdle();
    await Promise.race([this.loopDone, new Promise((resolve) => setTimeout(resolve, 1000))]);
  }
}
