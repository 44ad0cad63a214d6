import { request, type IncomingMessage, type ServerResponse } from 'node:http';
import { availableParallelism } from 'node:os';

/**
 * Start slots: how many services may be starting (loading Node, tsx and their
 * dictionaries) at the same time on this machine.
 *
 * Ten processes loading at once on two cores make every one of them slow and
 * none of them faster in total, so starts wait for a slot, first come first
 * served. Inside a test run the slots are the run's, not a process's: the global
 * setup serves them (SERVICE_START_SLOTS_URL) so two test files starting stacks
 * at the same time share them; elsewhere (bench, chaos, eval) each process has
 * its own.
 */

/** SERVICE_START_CONCURRENCY, else the number of cores. */
export function serviceStartConcurrency(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.SERVICE_START_CONCURRENCY;
  if (raw === undefined || raw === '') return Math.max(1, availableParallelism());
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0)
    throw new Error(`SERVICE_START_CONCURRENCY must be a positive integer, got ${JSON.stringify(raw)}`);
  return value;
}

export type Release = () => void;

/** A FIFO semaphore: `acquire` resolves with the release of the slot it got; an aborted wait leaves the queue. */
export function createSemaphore(slots: number): { acquire(signal?: AbortSignal): Promise<Release>; readonly waiting: number } {
  let free = slots;
  const queue: Array<() => void> = [];
  const releaser = (): Release => {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = queue.shift();
      if (next) next();
      else free++;
    };
  };
  return {
    async acquire(signal) {
      signal?.throwIfAborted();
      if (free > 0) {
        free--;
        return releaser();
      }
      await new Promise<void>((resolveSlot, reject) => {
        const grant = () => {
          signal?.removeEventListener('abort', leave);
          resolveSlot();
        };
        const leave = () => {
          const at = queue.indexOf(grant);
          if (at >= 0) queue.splice(at, 1);
          reject(signal?.reason);
        };
        queue.push(grant);
        signal?.addEventListener('abort', leave, { once: true });
      });
      return releaser();
    },
    get waiting() {
      return queue.length;
    },
  };
}

/**
 * Serves the run's slots over HTTP: a GET is answered (headers only) once it
 * holds a slot, which it keeps until its connection closes — so a test process
 * that dies mid-start gives its slot back with its socket.
 */
export function serveStartSlots(slots: ReturnType<typeof createSemaphore>) {
  return async (_req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const gone = new AbortController();
    let release: Release | undefined;
    res.on('close', () => {
      gone.abort();
      release?.();
    });
    try {
      release = await slots.acquire(gone.signal);
    } catch {
      return; // the client left while it waited
    }
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.flushHeaders();
  };
}

const local = createSemaphore(serviceStartConcurrency());

/** Takes a start slot: the run's when SERVICE_START_SLOTS_URL is set, else this process's. */
export function acquireStartSlot(): Promise<Release> {
  const url = process.env.SERVICE_START_SLOTS_URL;
  if (!url) return local.acquire();
  return new Promise((resolveSlot, reject) => {
    const req = request(url, { method: 'GET' }, (res: IncomingMessage) => {
      if (res.statusCode !== 200) {
        req.destroy();
        reject(new Error(`start slots at ${url} answered ${res.statusCode}`));
        return;
      }
      resolveSlot(() => req.destroy());
    });
    req.on('error', reject);
    req.end();
  });
}
