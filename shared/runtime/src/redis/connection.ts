import { Cluster, Redis, type ClusterOptions, type RedisOptions } from 'ioredis';
import type { RedisTarget } from '../config.js';

/** A connection to one Redis or to a Redis Cluster: the commands this project uses work the same on both. */
export type RedisClient = Redis | Cluster;

/**
 * Connection roles differ in how they behave when Redis is away:
 * - `worker`: BullMQ workers and blocking readers wait forever (`maxRetriesPerRequest: null`).
 * - `producer`: the gateway fails fast so a request gets 503 instead of hanging.
 */
export type RedisRole = 'worker' | 'producer';

/** A client of one server, or of the cluster when the target has seed nodes. */
export function createRedis(target: RedisTarget, role: RedisRole, name?: string): RedisClient {
  const { url, clusterNodes } = target;
  const base: RedisOptions = {
    connectionName: name,
    // BullMQ is tested on RESP2; ioredis 5 speaks it by default.
    lazyConnect: false,
  };
  const opts: RedisOptions =
    role === 'worker'
      ? { ...base, maxRetriesPerRequest: null, enableReadyCheck: true }
      : { ...base, maxRetriesPerRequest: 1, enableOfflineQueue: false, connectTimeout: 2_000 };
  if (!clusterNodes) return new Redis(url, opts);
  const { enableOfflineQueue, ...nodeOptions } = opts;
  const cluster: ClusterOptions = {
    redisOptions: nodeOptions,
    // The offline queue is a cluster-level switch; per node it would hold commands the cluster already failed.
    enableOfflineQueue: enableOfflineQueue ?? true,
    enableReadyCheck: true,
    // Every command on masters: the guarantees rest on reading what was just written.
    scaleReads: 'master',
    // A failover or resharding moves slots: follow MOVED/ASK a few times before failing the command.
    maxRedirections: 16,
    slotsRefreshTimeout: 2_000,
  };
  return new Cluster([...clusterNodes], cluster);
}

/** Resolves once the connection is ready (or rejects after `timeoutMs`). */
export async function waitReady(redis: RedisClient, timeoutMs = 10_000): Promise<void> {
  if (redis.status === 'ready') return;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      cleanup();
      reject(new Error(`redis not ready after ${timeoutMs} ms`));
    }, timeoutMs);
    const onReady = () => {
      cleanup();
      resolve();
    };
    const cleanup = () => {
      clearTimeout(timer);
      redis.off('ready', onReady);
    };
    redis.on('ready', onReady);
  });
}

/**
 * Whether the connection answers a PING within `ms` (false on an error too). A PING is answered
 * after every reply and message queued on the connection before it, so awaiting one also waits for
 * those to be handled (the SSE hub's order of deltas and messages).
 */
export async function pingWithin(redis: RedisClient, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
    timer.unref();
  });
  try {
    return await Promise.race([redis.ping().then(() => true), late]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

/** Every master of a cluster, or the one server: for commands that act per node (SCAN, INFO, FLUSHDB). */
export function nodesOf(redis: RedisClient): Redis[] {
  return isCluster(redis) ? redis.nodes('master') : [redis];
}

/** Whether the client talks to a cluster, where keys of different slots live on different nodes. */
export function isCluster(redis: RedisClient): redis is Cluster {
  return redis instanceof Cluster;
}
