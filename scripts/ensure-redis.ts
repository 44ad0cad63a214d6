import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, mkdirSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { Redis } from 'ioredis';

/**
 * Finding or starting a Redis for `npm start`, plus the small pieces that the
 * test setup (`test/support/redis.ts`) reuses: a one-shot PING, a PATH lookup
 * and spawning `redis-server` until it answers.
 */

export type RedisSource = 'env' | 'local' | 'spawned' | 'testcontainers';

export interface RedisHandle {
  url: string;
  source: RedisSource;
  /** Stops what this process started; a no-op for a Redis it only found. */
  stop(): Promise<void>;
  /** Only for a server this process started: resolves when it exits, expectedly or not. */
  exited?: Promise<unknown>;
}

export interface RedisServerProcess {
  url: string;
  port: number;
  child: ChildProcess;
  /** Resolves with the exit code once redis-server has exited. */
  exited: Promise<number | null>;
  /** SIGTERM (redis flushes its AOF on it), then SIGKILL after `graceMs`. */
  stop(graceMs?: number): Promise<void>;
}

export interface SpawnRedisOptions {
  port: number;
  /** Flags after `--port N --bind 127.0.0.1`. */
  args?: string[];
  /** How long to wait for the first PONG. */
  readyTimeoutMs?: number;
  /** Every output line of redis-server, e.g. to prefix and print it. */
  onLine?: (line: string) => void;
  /** Own process group, so a terminal's Ctrl-C reaches only the supervisor. */
  detached?: boolean;
}

/** True when `url` answers PING within `timeoutMs`; never throws, never retries. */
export async function pingRedis(url: string, timeoutMs = 1_000): Promise<boolean> {
  const redis = new Redis(url, {
    lazyConnect: true,
    connectTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
  });
  // A refused connection is an answer here, not an error worth printing.
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    return (await redis.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}

/** Full path of an executable on PATH, or undefined. */
export function findOnPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir === '') continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not in this directory
    }
  }
  return undefined;
}

/**
 * Spawns `redis-server` on 127.0.0.1:`port` and resolves once it answers PING.
 * Rejects with its output if it exits first (port taken, bad flag) or stays silent.
 */
export async function spawnRedisServer(opts: SpawnRedisOptions): Promise<RedisServerProcess> {
  const { port, args = [], readyTimeoutMs = 10_000, onLine, detached = false } = opts;
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    detached,
  });
  const output: string[] = [];
  const collect = (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n')) {
      if (line.trim() === '') continue;
      output.push(line);
      onLine?.(line);
    }
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code) => resolve(code));
    child.once('error', () => resolve(null));
  });
  const url = `redis://127.0.0.1:${port}`;
  const ready = await waitForPing(url, exited, readyTimeoutMs);
  if (!ready) {
    child.kill('SIGKILL');
    await exited;
    throw new Error(`redis-server on port ${port} did not start:\n${output.join('\n')}`);
  }
  return { url, port, child, exited, stop: (graceMs = 5_000) => stopChild(child, exited, graceMs) };
}

/** Polls PING until it answers, the process exits, or the deadline passes. */
async function waitForPing(url: string, exited: Promise<number | null>, timeoutMs: number): Promise<boolean> {
  let gone = false;
  void exited.then(() => (gone = true));
  const deadline = Date.now() + timeoutMs;
  while (!gone && Date.now() < deadline) {
    if (await pingRedis(url, 500)) return true;
    // redis-server needs a few ms to bind; this is a startup poll, not a test wait.
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}

/** SIGTERM, then SIGKILL when the child outlives `graceMs`. */
export async function stopChild(child: ChildProcess, exited: Promise<unknown>, graceMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

export interface EnsureRedisOptions {
  /** Repo root; the spawned server keeps its AOF in `<root>/.data/redis`. */
  repoRoot: string;
  log: (msg: string) => void;
  onServerLine?: (line: string) => void;
}

const LOCAL_URL = 'redis://127.0.0.1:6379';

/** Thrown when there is no Redis and no way to start one; the message says what to do. */
export class NoRedisError extends Error {
  constructor() {
    super(
      [
        'No Redis found: nothing answers on 127.0.0.1:6379, REDIS_URL is not set, and redis-server is not on PATH.',
        'Do one of:',
        '  sudo apt-get install -y redis-server   # then run `npm start` again (it starts redis-server itself)',
        '  docker compose up                      # the whole system, Redis included, in containers',
        '  REDIS_URL=redis://host:6379 npm start  # use a Redis you already have',
      ].join('\n'),
    );
    this.name = 'NoRedisError';
  }
}

/**
 * `npm start`'s Redis: REDIS_URL if set; else whatever answers on 127.0.0.1:6379;
 * else a durable redis-server (AOF everysec, noeviction) that `stop()` shuts down.
 */
export async function ensureRedis(opts: EnsureRedisOptions): Promise<RedisHandle> {
  const fromEnv = process.env.REDIS_URL;
  if (fromEnv !== undefined && fromEnv !== '') {
    if (!(await pingRedis(fromEnv, 3_000))) opts.log(`warning: REDIS_URL=${redact(fromEnv)} does not answer PING yet`);
    opts.log(`redis: using REDIS_URL ${redact(fromEnv)}`);
    return { url: fromEnv, source: 'env', stop: async () => undefined };
  }
  if (await pingRedis(LOCAL_URL)) {
    await warnIfEvicting(LOCAL_URL, opts.log);
    opts.log(`redis: using the one already running on ${LOCAL_URL}`);
    return { url: LOCAL_URL, source: 'local', stop: async () => undefined };
  }
  if (findOnPath('redis-server') === undefined) throw new NoRedisError();
  const dir = join(opts.repoRoot, '.data', 'redis');
  mkdirSync(dir, { recursive: true });
  const server = await spawnRedisServer({
    port: 6379,
    args: ['--dir', dir, '--appendonly', 'yes', '--appendfsync', 'everysec', '--maxmemory-policy', 'noeviction'],
    onLine: opts.onServerLine,
    detached: true,
  });
  opts.log(`redis: started redis-server on ${server.url} (data in ${dir})`);
  return { url: server.url, source: 'spawned', stop: () => server.stop(10_000), exited: server.exited };
}

/** BullMQ loses jobs silently under eviction, so say so loudly (but keep going: it is not ours to reconfigure). */
async function warnIfEvicting(url: string, log: (msg: string) => void): Promise<void> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    const [, policy] = (await redis.config('GET', 'maxmemory-policy')) as [string, string];
    if (policy !== 'noeviction') log(`warning: redis maxmemory-policy is ${policy}; BullMQ needs noeviction`);
  } catch {
    // CONFIG may be disabled (managed Redis); nothing to check then.
  } finally {
    redis.disconnect();
  }
}

/** Hides a password in a redis URL before it is printed. */
function redact(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString();
  } catch {
    return url;
  }
}
