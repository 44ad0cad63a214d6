import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { freePort } from '../../test/support/free-port.js';
import { findOnPath, spawnRedisServer, type RedisServerProcess } from '../ensure-redis.js';

const run = promisify(execFile);

/** A Redis Cluster of `masters` redis-server processes on loopback ports, no replicas, nothing kept on disk. */
export interface LocalCluster {
  /** `host:port,…`, the value of REDIS_CLUSTER_NODES. */
  nodes: string;
  servers: RedisServerProcess[];
  stop(): Promise<void>;
}

/** Whether this machine can start one (redis-server and redis-cli on PATH). */
export function canStartLocalCluster(): boolean {
  return findOnPath('redis-server') !== undefined && findOnPath('redis-cli') !== undefined;
}

/**
 * Starts the servers in cluster mode (each with a free client port and a free
 * bus port: the default bus port, client port + 10000, can fall outside the
 * port range), joins them with `redis-cli --cluster create`, and waits until
 * every node reports `cluster_state:ok` with all 16384 slots assigned.
 */
export async function startLocalCluster(opts: { masters?: number; log?: (line: string) => void } = {}): Promise<LocalCluster> {
  const masters = opts.masters ?? 3;
  const dir = mkdtempSync(join(tmpdir(), 'convo-cluster-'));
  const servers: RedisServerProcess[] = [];
  const stop = async () => {
    await Promise.all(servers.map((server) => server.stop(2_000).catch(() => undefined)));
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    for (let i = 0; i < masters; i++) servers.push(await spawnClusterNode(dir));
    const addresses = servers.map((server) => `127.0.0.1:${server.port}`);
    // `--cluster create` wants three masters at least; one node just takes every slot.
    if (masters >= 3)
      await run('redis-cli', ['--cluster', 'create', ...addresses, '--cluster-replicas', '0', '--cluster-yes'], { timeout: 30_000 });
    else if (masters === 1)
      await run('redis-cli', ['-p', String(servers[0]!.port), 'cluster', 'addslotsrange', '0', '16383'], { timeout: 10_000 });
    else throw new Error('a local cluster has 1 or at least 3 masters');
    await waitClusterOk(servers);
    opts.log?.(`[redis cluster] ${masters} masters at ${addresses.join(',')}`);
    return { nodes: addresses.join(','), servers, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

async function spawnClusterNode(dir: string): Promise<RedisServerProcess> {
  let lastError: unknown;
  for (let attempt = 0; attempt < 3; attempt++) {
    const [port, busPort] = [await freePort(), await freePort()];
    try {
      return await spawnRedisServer({
        port,
        args: [
          '--cluster-enabled',
          'yes',
          '--cluster-port',
          String(busPort),
          '--cluster-config-file',
          join(dir, `nodes-${port}.conf`),
          '--cluster-node-timeout',
          '5000',
          // A lone node never learns its own address from a peer: announce it, or CLUSTER SLOTS names it with an empty host.
          '--cluster-announce-ip',
          '127.0.0.1',
          '--dir',
          dir,
          '--save',
          '',
          '--appendonly',
          'no',
        ],
      });
    } catch (err) {
      lastError = err;
    }
  }
  throw lastError;
}

async function waitClusterOk(servers: RedisServerProcess[], timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const states = await Promise.all(
      servers.map(async (server) => {
        const client = new Redis(server.url, { lazyConnect: true, maxRetriesPerRequest: 0 });
        try {
          await client.connect();
          return String(await client.cluster('INFO'));
        } finally {
          client.disconnect();
        }
      }),
    );
    if (states.every((info) => info.includes('cluster_state:ok') && info.includes('cluster_slots_assigned:16384'))) return;
    if (Date.now() > deadline) throw new Error(`the local cluster did not settle:\n${states.join('\n')}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
