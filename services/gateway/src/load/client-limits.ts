import type { RedisClient } from '@convo/runtime';
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
      const [count, ttl] = (await this.redis.eval(
        "local n = redis.call('INCR', KEYS[1]) if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end return {n, redis.call('PTTL', KEYS[1])}",
        1,
        key,
        this.opts.windowMs,
      )) as [number, number];
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
    const taken = await this.redis.eval(
      `redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
       if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
       redis.call('ZADD', KEYS[1], ARGV[3], ARGV[4])
       redis.call('PEXPIRE', KEYS[1], ARGV[5])
       return 1`,
      1,
      this.setKey(client),
      now,
      this.opts.max,
      now + this.opts.ttlSeconds * 1000,
      id,
      this.opts.ttlSeconds * 1000,
    );
    if (taken !== 1) return false;
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
