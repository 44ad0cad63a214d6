import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { AGENT_NAMES } from '@convo/contract';
import { buildAll, serviceArgs } from './build/compile.js';
import { ensureRedis, NoRedisError, type RedisHandle } from './ensure-redis.js';
import { startInTurn } from './start/in-turn.js';

/**
 * `npm start`: the whole platform on one machine without Docker. Builds the
 * services (scripts/build/compile.ts), finds or starts Redis, runs the gateway and
 * every agent as its own process of compiled JavaScript (as in production, one
 * process per service), prefixes their output, restarts a crashed one with
 * backoff, and on SIGINT/SIGTERM stops them all before Redis.
 *
 * Starting is CPU work (compiling the code, loading dictionaries), so no more
 * services start at once than the machine has cores, the gateway first: each
 * starts as fast as it would alone (what a replica added by an operator or an
 * autoscaler takes), and the whole takes no longer than ten processes fighting
 * over the cores did.
 */

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SERVICES = ['gateway', ...AGENT_NAMES] as const;
/** Per service, on shutdown; after it the process is SIGKILLed. Above the services' own SHUTDOWN_TIMEOUT_MS. */
const STOP_DEADLINE_MS = 20_000;
/** A service that ran this long before crashing is considered healthy again: backoff starts over. */
const STABLE_AFTER_MS = 30_000;
const BACKOFF_BASE_MS = 1_000;
const BACKOFF_MAX_MS = 30_000;
/** How long to wait for every service's `ready` line before printing the banner anyway. */
const BANNER_WAIT_MS = 60_000;
/** Services starting at once: one per core. */
const STARTS_AT_ONCE = Math.max(1, availableParallelism());

const COLORS = [36, 33, 35, 32, 34, 91, 92, 93, 94, 95];
const useColor = process.stdout.isTTY === true;
const width = Math.max(...SERVICES.map((s) => s.length), 'supervisor'.length);

function prefix(name: string, index: number): string {
  const label = name.padEnd(width);
  return useColor ? `\x1b[${COLORS[index % COLORS.length]}m${label}\x1b[0m | ` : `${label} | `;
}

function say(msg: string): void {
  process.stdout.write(`${prefix('supervisor', 9)}${msg}\n`);
}

/** One supervised service: spawned, prefixed, restarted with exponential backoff until stopped. */
class Supervised {
  private child: ChildProcess | undefined;
  private exited: Promise<void> = Promise.resolve();
  private restartTimer: NodeJS.Timeout | undefined;
  private failures = 0;
  private stopping = false;
  private readyOnce = false;
  private settled: Array<() => void> = [];

  constructor(
    readonly name: string,
    private readonly index: number,
    private readonly env: NodeJS.ProcessEnv,
    private readonly onReady: (name: string, line: Record<string, unknown>) => void,
  ) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** `fn` runs once, when the service is first ready or first exits, whichever comes first. */
  onSettled(fn: () => void): void {
    this.settled.push(fn);
  }

  private settle(): void {
    const handlers = this.settled;
    this.settled = [];
    handlers.forEach((fn) => fn());
  }

  start(): void {
    if (this.stopping) return;
    const startedAt = Date.now();
    // Own process group: a terminal's Ctrl-C reaches only the supervisor, which
    // then sends exactly one SIGTERM, instead of each service getting two signals.
    const child = spawn(process.execPath, serviceArgs(this.name), {
      cwd: REPO_ROOT,
      env: this.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    this.child = child;
    const tag = prefix(this.name, this.index);
    const onLine = (line: string) => {
      process.stdout.write(`${tag}${line}\n`);
      this.watchReady(line);
    };
    if (child.stdout) createInterface({ input: child.stdout }).on('line', onLine);
    if (child.stderr) createInterface({ input: child.stderr }).on('line', onLine);
    this.exited = new Promise((done) => {
      child.once('exit', (code, signal) => {
        this.child = undefined;
        this.settle();
        if (!this.stopping) this.scheduleRestart(code, signal, Date.now() - startedAt);
        done();
      });
      // A failed spawn emits no 'exit'; without this, stop() would wait forever.
      child.once('error', (err) => {
        say(`${this.name}: could not spawn: ${err.message}`);
        this.child = undefined;
        this.settle();
        done();
      });
    });
  }

  private watchReady(line: string): void {
    if (this.readyOnce || !line.startsWith('{')) return;
    try {
      const json = JSON.parse(line) as Record<string, unknown>;
      if (json.msg !== 'ready') return;
      this.readyOnce = true;
      this.onReady(this.name, json);
      this.settle();
    } catch {
      // not a JSON log line
    }
  }

  private scheduleRestart(code: number | null, signal: NodeJS.Signals | null, uptimeMs: number): void {
    if (uptimeMs >= STABLE_AFTER_MS) this.failures = 0;
    const delay = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** this.failures);
    this.failures++;
    const how = signal === null ? `code ${code}` : `signal ${signal}`;
    say(`${this.name} exited (${how}) after ${(uptimeMs / 1000).toFixed(1)} s; restart #${this.failures} in ${delay / 1000} s`);
    this.restartTimer = setTimeout(() => this.start(), delay);
  }

  /** SIGTERM, SIGKILL after `deadlineMs`; resolves when the process is gone. */
  async stop(deadlineMs: number): Promise<void> {
    this.stopping = true;
    clearTimeout(this.restartTimer);
    const child = this.child;
    if (child === undefined) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => {
      say(`${this.name} did not stop within ${deadlineMs / 1000} s; killing it`);
      child.kill('SIGKILL');
    }, deadlineMs);
    await this.exited;
    clearTimeout(timer);
  }

  /** Last resort when the supervisor itself is dying: no waiting possible. */
  killNow(): void {
    this.child?.kill('SIGKILL');
  }
}

function existingServices(): string[] {
  return SERVICES.filter((name) => {
    const present = existsSync(join(REPO_ROOT, 'services', name, 'src', 'main.ts'));
    if (!present) say(`warning: skipping ${name}: services/${name}/src/main.ts does not exist yet`);
    return present;
  });
}

/** Prints where to open the app once every service is ready, or after BANNER_WAIT_MS regardless. */
function bannerPrinter(names: readonly string[]): (name: string, line: Record<string, unknown>) => void {
  const waiting = new Set(names);
  let port = process.env.PORT ?? '8080';
  let printed = false;
  const print = () => {
    if (printed) return;
    printed = true;
    const pending = [...waiting];
    if (pending.length > 0) say(`not ready yet: ${pending.join(', ')}`);
    say(
      names.includes('gateway')
        ? `chat page: http://localhost:${port}/ · API docs: http://localhost:${port}/docs`
        : 'no gateway running: nothing to open',
    );
  };
  setTimeout(print, BANNER_WAIT_MS).unref();
  return (name, line) => {
    waiting.delete(name);
    if (name === 'gateway' && typeof line.port === 'number') port = String(line.port);
    if (waiting.size === 0) print();
  };
}

async function main(): Promise<void> {
  const built = await buildAll();
  say(built.upToDate ? `the services are built (checked in ${built.ms} ms)` : `built the services in ${built.ms} ms`);
  // A cluster given is used as it is (the services read REDIS_CLUSTER_NODES); otherwise find or start one Redis.
  const clusterNodes = process.env.REDIS_CLUSTER_NODES?.trim();
  if (clusterNodes) say(`using the Redis Cluster at ${clusterNodes}`);
  const redis: RedisHandle = clusterNodes
    ? { url: '', source: 'env', stop: async () => undefined }
    : await ensureRedis({
        repoRoot: REPO_ROOT,
        log: say,
        onServerLine: (line) => process.stdout.write(`${prefix('redis', 8)}${line}\n`),
      });
  const names = existingServices();
  if (names.length === 0) {
    say('no service has a src/main.ts yet: nothing to run');
    await redis.stop();
    process.exitCode = 1;
    return;
  }
  const env: NodeJS.ProcessEnv = clusterNodes ? { ...process.env } : { ...process.env, REDIS_URL: redis.url };
  const onReady = bannerPrinter(names);
  const services = names.map((name) => new Supervised(name, (SERVICES as readonly string[]).indexOf(name), env, onReady));
  process.once('exit', () => services.forEach((s) => s.killNow()));
  startInTurn(services, STARTS_AT_ONCE);
  say(`starting ${names.join(', ')} (${STARTS_AT_ONCE} at a time)`);
  await untilShutdown(services, redis);
}

/** Resolves after a signal (or the death of our own Redis) once everything has stopped. */
function untilShutdown(services: Supervised[], redis: RedisHandle): Promise<void> {
  return new Promise((done) => {
    let shuttingDown = false;
    const shutdown = async (reason: string, exitCode: number) => {
      if (shuttingDown) {
        say(`${reason} again: killing everything now`);
        services.forEach((s) => s.killNow());
        process.exit(exitCode || 130);
      }
      shuttingDown = true;
      say(`${reason}: stopping ${services.length} service(s)`);
      await Promise.all(services.map((s) => s.stop(STOP_DEADLINE_MS)));
      // Redis goes last so that services can finish their writes while stopping.
      await redis.stop();
      say('stopped');
      process.exitCode = exitCode;
      done();
    };
    process.on('SIGINT', () => void shutdown('SIGINT', 0));
    process.on('SIGTERM', () => void shutdown('SIGTERM', 0));
    // Our own redis-server dying takes the platform with it: stop loudly instead of crash-looping.
    void redis.exited?.then(() => {
      if (!shuttingDown) void shutdown('redis-server exited unexpectedly', 1);
    });
  });
}

main().catch((err: unknown) => {
  if (err instanceof NoRedisError) {
    process.stderr.write(`${err.message}\n`);
  } else {
    process.stderr.write(`start failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  }
  process.exit(1);
});
