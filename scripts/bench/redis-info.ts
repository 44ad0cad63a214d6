import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import type { Redis } from 'ioredis';

/**
 * Redis-side facts for the bench: which connections a given process holds
 * (matched through Linux /proc: its socket inodes → local ports → the
 * `addr=` of CLIENT LIST), counts by connection name, and removal of a
 * bench stack's keys afterwards.
 */
export type ClientInfo = Record<string, string>;

export async function clientList(redis: Redis): Promise<ClientInfo[]> {
  const text = (await redis.client('LIST')) as string;
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) =>
      Object.fromEntries(
        l
          .trim()
          .split(' ')
          .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
      ),
    );
}

/** Counts by `name=` (empty name shown as "(unnamed)"), as "a ×2, b ×1". */
export function byName(clients: readonly ClientInfo[]): string {
  const counts = new Map<string, number>();
  for (const c of clients) counts.set(c.name || '(unnamed)', (counts.get(c.name || '(unnamed)') ?? 0) + 1);
  return [...counts.entries()]
    .sort()
    .map(([n, k]) => `${n} ×${k}`)
    .join(', ');
}

/**
 * Local TCP ports of `pid`'s sockets connected to `remotePort`, or null when
 * /proc cannot tell (not Linux, another user's process).
 */
export function localPortsTo(pid: number, remotePort: number): Set<number> | null {
  let inodes: Set<string>;
  try {
    inodes = new Set();
    for (const fd of readdirSync(`/proc/${pid}/fd`)) {
      try {
        const match = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
        if (match) inodes.add(match[1]!);
      } catch {
        // fd closed while listing
      }
    }
  } catch {
    return null;
  }
  const ports = new Set<number>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols.length < 10) continue;
      const local = Number.parseInt(cols[1]!.split(':')[1] ?? '', 16);
      const remote = Number.parseInt(cols[2]!.split(':')[1] ?? '', 16);
      if (remote === remotePort && inodes.has(cols[9]!)) ports.add(local);
    }
  }
  return ports;
}

/** The CLIENT LIST entries that belong to process `pid` (by its local ports), or null when unknown. */
export async function clientsOfProcess(
  redis: Redis,
  pid: number,
  redisPort: number,
): Promise<{ mine: ClientInfo[] | null; all: ClientInfo[] }> {
  const all = await clientList(redis);
  const ports = localPortsTo(pid, redisPort);
  if (ports === null) return { mine: null, all };
  const mine = all.filter((c) => ports.has(Number(c.addr?.slice(c.addr.lastIndexOf(':') + 1))));
  return { mine, all };
}

/** UNLINKs every key under the stack's key and queue prefixes; returns how many. */
export async function dropPrefixes(redis: Redis, prefixes: readonly string[]): Promise<number> {
  let removed = 0;
  for (const prefix of prefixes) {
    // Escape glob specials so a prefix like `{bench-x}` matches itself only.
    const pattern = `${prefix.replace(/[*?[\]\\]/g, '\\$&')}:*`;
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 2000);
      cursor = next;
      if (keys.length > 0) removed += await redis.unlink(...keys);
    } while (cursor !== '0');
  }
  return removed;
}
