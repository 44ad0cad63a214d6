import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_AGENTS, HARNESS_ENV, startService, type ServiceProcess } from './processes.js';
import { createSemaphore, serveStartSlots, serviceStartConcurrency } from './start-slots.js';

/**
 * Shared stacks, owned by the test run's global setup (the main vitest process)
 * and lent to test files over a loopback HTTP call (shared-stack.ts).
 *
 * Starting the gateway and five agents costs about ten seconds of both cores, and
 * most integration files only talk to the public API: they do not kill, restart
 * or read the logs of the processes. Those files ask for a stack by its
 * configuration (the services and the environment); the broker starts it the
 * first time, adds the services a later file needs, and keeps it until the run
 * ends. Files isolate themselves by their own sessions, ids and documents, as
 * they would against one deployed system. A file that kills, restarts or reads a
 * process keeps starting its own stack with startStack.
 *
 * The same server hands out the run's start slots (start-slots.ts) at
 * `GET /start-slot`, so every process of the run that starts a service — test
 * files running side by side and the broker itself — shares them.
 */

/** What a file asks for: agents besides the gateway, and environment added to the shared defaults. */
export type SharedStackRequest = { services?: string[]; env?: Record<string, string> };

/** What it gets: the gateway's URL and the environment the stack runs with (prefixes, keys). */
export type SharedStackInfo = { url: string; env: Record<string, string>; services: string[] };

/**
 * Keys every shared stack runs with, so files that write the FAQ corpus or read
 * operator routes can share a stack. Test-only values, never a deployment's.
 */
export const SHARED_STACK_KEYS = {
  FAQ_WRITE_KEY: 'shared-stack-faq-writer-key-0123456789',
  OPERATOR_KEY: HARNESS_ENV.OPERATOR_KEY,
} as const;

type Entry = {
  env: Record<string, string>;
  procs: Map<string, ServiceProcess>;
  /** Set once the gateway is up. */
  url?: string;
  /** Serialises changes to this stack (a start, an added agent, a replaced process). */
  queue: Promise<unknown>;
};

export type StackBroker = {
  url: string;
  /** For SERVICE_START_SLOTS_URL. */
  startSlotsUrl: string;
  close(): Promise<void>;
};

export async function startStackBroker(redisUrl: string, log: (msg: string) => void = console.log): Promise<StackBroker> {
  const stacks = new Map<string, Entry>();

  const acquire = (request: SharedStackRequest): Promise<SharedStackInfo> => {
    const extra = request.env ?? {};
    const key = JSON.stringify(Object.entries(extra).sort(([a], [b]) => a.localeCompare(b)));
    let entry = stacks.get(key);
    if (!entry) {
      const prefix = `shared${stacks.size + 1}-${randomUUID().slice(0, 6)}`;
      // No per-client limits: every file's requests come from 127.0.0.1 within the same minutes.
      const env = { REDIS_URL: redisUrl, KEY_PREFIX: prefix, QUEUE_PREFIX: `{${prefix}}`, ...HARNESS_ENV, ...SHARED_STACK_KEYS, ...extra };
      entry = { env, procs: new Map(), queue: Promise.resolve() };
      stacks.set(key, entry);
    }
    const target = entry;
    const wanted = ['gateway', ...(request.services ?? DEFAULT_AGENTS)];
    const next = target.queue.catch(() => undefined).then(() => ensure(target, wanted));
    target.queue = next;
    return next;
  };

  /** Starts what is missing or has died since; the gateway first, so its port is known and kept. */
  const ensure = async (entry: Entry, wanted: string[]): Promise<SharedStackInfo> => {
    const missing = wanted.filter((name) => {
      const proc = entry.procs.get(name);
      return proc === undefined || proc.exitCode !== undefined;
    });
    for (const name of missing.filter((name) => entry.procs.has(name))) {
      log(`[shared stack ${entry.env.KEY_PREFIX}] ${name} had exited (code ${String(entry.procs.get(name)?.exitCode)}); starting it again`);
    }
    const gatewayEnv = (port: string) => ({ ...entry.env, PORT: port, HOST: '127.0.0.1' });
    const port = entry.url === undefined ? '0' : new URL(entry.url).port;
    const started = await Promise.allSettled(
      missing.map(async (name) => {
        const proc = await startService(name, name === 'gateway' ? gatewayEnv(port) : entry.env);
        entry.procs.set(name, proc);
        if (name === 'gateway') {
          if (proc.port === undefined) throw new Error('gateway logged ready without a port');
          entry.url = `http://127.0.0.1:${proc.port}`;
        }
      }),
    );
    const errors = started.flatMap((result) => (result.status === 'rejected' ? [result.reason as Error] : []));
    if (errors.length > 0) throw new AggregateError(errors, errors.map((err) => err.message).join('\n\n'));
    if (entry.url === undefined) throw new Error('the shared stack has no gateway');
    return { url: entry.url, env: entry.env, services: [...entry.procs.keys()] };
  };

  const startSlots = serveStartSlots(createSemaphore(serviceStartConcurrency()));
  const server = createServer((req, res) => void handle(req, res));
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    try {
      if (req.method === 'GET' && req.url === '/start-slot') return await startSlots(req, res);
      if (req.method !== 'POST' || req.url !== '/stacks') return reply(res, 404, { error: 'GET /start-slot or POST /stacks' });
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const request = JSON.parse(Buffer.concat(chunks).toString('utf8')) as SharedStackRequest;
      reply(res, 200, await acquire(request));
    } catch (err) {
      reply(res, 500, { error: (err as Error).message });
    }
  };
  // A stack start can take a while on a busy machine; the caller's own timeout is the bound.
  server.requestTimeout = 0;
  server.headersTimeout = 0;
  await new Promise<void>((resolveListen) => server.listen(0, '127.0.0.1', resolveListen));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    startSlotsUrl: `http://127.0.0.1:${port}/start-slot`,
    async close() {
      const closed = new Promise<void>((resolveClose) => server.close(() => resolveClose()));
      // Slot holders are test processes that have ended by now; their sockets must not keep the server open.
      server.closeAllConnections();
      await closed;
      await Promise.all(
        [...stacks.values()].map(async (entry) => {
          await entry.queue.catch(() => undefined);
          await Promise.all([...entry.procs.values()].map((proc) => proc.kill()));
        }),
      );
    },
  };
}

function reply(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}
