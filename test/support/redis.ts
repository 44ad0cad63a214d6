import { findOnPath, pingRedis, spawnRedisServer, type RedisHandle } from '../../scripts/ensure-redis.js';
import { freePort } from './free-port.js';

/**
 * The Redis the test run talks to, chosen in this order:
 * 1. `REDIS_URL` as given (CI with a service container, a developer's own Redis);
 * 2. a Testcontainers Redis, only when a container runtime answers quickly;
 * 3. a throwaway `redis-server` on a free port, nothing written to disk;
 * 4. otherwise a clear error saying how to get one.
 */
export async function startTestRedis(log: (msg: string) => void = console.log): Promise<RedisHandle> {
  const fromEnv = process.env.REDIS_URL;
  if (fromEnv !== undefined && fromEnv !== '') {
    if (!(await pingRedis(fromEnv, 3_000))) throw new Error(`REDIS_URL=${fromEnv} does not answer PING`);
    log(`[test redis] using REDIS_URL ${fromEnv}`);
    return { url: fromEnv, source: 'env', stop: async () => undefined };
  }
  const container = await tryTestcontainers(log);
  if (container) return container;
  if (findOnPath('redis-server') !== undefined) return spawnThrowawayServer(log);
  throw new Error(
    'No Redis for the tests: REDIS_URL is not set, no container runtime works, and redis-server is not on PATH. ' +
      'Install it (`sudo apt-get install -y redis-server`) or set REDIS_URL=redis://host:port.',
  );
}

/** How long the container-runtime check may take before we assume there is none. */
const RUNTIME_CHECK_MS = 5_000;

async function tryTestcontainers(log: (msg: string) => void): Promise<RedisHandle | undefined> {
  // Imported lazily: loading testcontainers costs ~0.5 s that runs with REDIS_URL should not pay.
  const { getContainerRuntimeClient } = await import('testcontainers');
  const runtime = await withTimeout(getContainerRuntimeClient(), RUNTIME_CHECK_MS).catch(() => undefined);
  if (runtime === undefined) return undefined;
  try {
    const { RedisContainer } = await import('@testcontainers/redis');
    const started = await new RedisContainer('redis:7-alpine')
      .withCommand(['redis-server', '--save', '', '--appendonly', 'no', '--maxmemory-policy', 'noeviction'])
      .start();
    const url = started.getConnectionUrl();
    log(`[test redis] using a Testcontainers redis:7-alpine at ${url}`);
    return { url, source: 'testcontainers', stop: async () => void (await started.stop()) };
  } catch (err) {
    // A runtime that answers but cannot pull or run (offline machine) should not end the run.
    log(`[test redis] Testcontainers failed (${(err as Error).message}); falling back to redis-server`);
    return undefined;
  }
}

/** A port can be taken between `freePort()` and redis binding it, so try a few. */
async function spawnThrowawayServer(log: (msg: string) => void): Promise<RedisHandle> {
  let lastError: unknown;
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort();
    try {
      const server = await spawnRedisServer({ port, args: ['--save', '', '--appendonly', 'no'] });
      log(`[test redis] started redis-server on ${server.url} (pid ${server.child.pid})`);
      return { url: server.url, source: 'spawned', stop: () => server.stop() };
    } catch (err) {
      lastError = err;
    }
  }
  throw lastError;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
    timer.unref();
    promise.then(
      (value) => (clearTimeout(timer), resolve(value)),
      (err: unknown) => (clearTimeout(timer), reject(err)),
    );
  });
}
