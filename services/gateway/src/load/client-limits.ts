import { defineScript, type RedisClient } from '@convo/runtime';
import type { FastifyRequest } from 'fastify';

/**
 * What one client may use, client being its address (X-Forwarded-For's with
 * TRUST_PROXY): one request budget across every route that creates work, a
 * number of live sessions and worksheets, and of open event streams. Counters
 * that must hold across gateway replicas live in Redis; open streams are a
 * gateway's own connections and are counted where they are held.
 */
export function clientOf(req: FastifyRequest): string {
  return req.ip;
}

// The project's script mechanism (Lua in its own file, run by EVALSHA): the rate count runs on every work request.
const file = (name: string) => new URL(`./lua/${name}.lua`, import.meta.url);

const countRequest = defineScript({
  name: 'gatewayClientRate',
  file: file('client-rate'),
  encode: (input: { key: string; windowMs: number }) => ({ keys: [input.key], args: [input.windowMs] }),
  decode: (reply) => reply as [count: number, ttlMs: number],
});

const takePlace = defineScript({
  name: 'gatewayQuotaTake',
  file: file('quota-take'),
  encode: (input: { key: string; now: number; max: number; expiresAt: number; id: string; ttlMs: number }) => ({
    keys: [input.key],
    args: [input.now, input.max, input.expiresAt, input.id, input.ttlMs],
  }),
  decode: (reply) => reply === 1,
});

/**
 * RATE_LIMIT_MAX work requests per RATE_LIMIT_WINDOW_MS per client, one
 * budget for every work route together (a fixed window, counted in Redis, so
 * it holds across gateways). If Redis cannot count, the request passes (and
 * fails on its own with 503 if Redis is really gone).
 */
export class ClientRateLimiter {
  constructor(
    private readonly redis: RedisClient,
    private readonly opts: { prefix: string; max: number; windowMs: number },
  ) {}

  async hit(client: string): Promise<{ allowed: boolean; remaining: number; resetMs: number }> {
    const key = `${this.opts.prefix}:rl:${client}`;
    try {
      const [count, ttl] = await countRequest.run(this.redis, { key, windowMs: this.opts.windowMs });
      const resetMs = ttl > 0 ? ttl : this.opts.windowMs;
      return { allowed: count <= this.opts.max, remaining: Math.max(0, this.opts.max - count), resetMs };
    } catch {
      return { allowed: true, remaining: this.opts.max, resetMs: this.opts.windowMs };
    }
  }
}

/**
 * How many live things (sessions, worksheets) a client holds: one sorted set
 * per client and kind, each member expiring with its thing. A new one is
 * refused at `max`; deleting one gives its place back (its owner is recorded
 * beside it, since the delete may come from another address).
 */
export class ClientQuota {
  constructor(
    private readonly redis: RedisClient,
    private readonly opts: { prefix: string; kind: 'sessions' | 'worksheets'; max: number; ttlSeconds: number },
  ) {}

  private setKey(client: string): string {
    return `${this.opts.prefix}:quota:${this.opts.kind}:{${client}}`;
  }

  private ownerKey(id: string): string {
    return `${this.opts.prefix}:quota:owner:${id}`;
  }

  /** Takes a place for `id`; false when the client already holds `max` live ones. */
  async take(client: string, id: string): Promise<boolean> {
    if (this.opts.max <= 0) return true;
    const now = Date.now();
    const taken = await takePlace.run(this.redis, {
      key: this.setKey(client),
      now,
      max: this.opts.max,
      expiresAt: now + this.opts.ttlSeconds * 1000,
      id,
      ttlMs: this.opts.ttlSeconds * 1000,
    });
    if (!taken) return false;
    await this.redis.set(this.ownerKey(id), client, 'EX', this.opts.ttlSeconds);
    return true;
  }

  /** Gives the place of `id` back (it was deleted). */
  async release(id: string): Promise<void> {
    if (this.opts.max <= 0) return;
    const owner = await this.redis.get(this.ownerKey(id));
    if (owner === null) return;
    await this.redis.zrem(this.setKey(owner), id);
    await this.redis.del(this.ownerKey(id));
  }
}

/** Open event streams per client on this gateway; a stream over CLIENT_MAX_STREAMS is refused. */
export class StreamQuota {
  private readonly open = new Map<string, number>();

  constructor(private readonly max: number) {}

  /** A release to call when the stream closes, or null when the client has `max` open here already. */
  tryOpen(client: string): (() => void) | null {
    const count = this.open.get(client) ?? 0;
    if (this.max > 0 && count >= this.max) return null;
    this.open.set(client, count + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.open.get(client) ?? 1) - 1;
      if (left <= 0) this.open.delete(client);
      else this.open.set(client, left);
    };
  }
}
