import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createSemaphore, serveStartSlots } from '../support/start-slots.js';

describe('start slots', () => {
  it('hand out at most `slots` at once, to waiters in the order they asked', async () => {
    const slots = createSemaphore(2);
    const order: string[] = [];
    const first = await slots.acquire();
    const second = await slots.acquire();
    const waiting = ['c', 'd', 'e'].map((name) => slots.acquire().then((release) => (order.push(name), release)));
    expect(slots.waiting).toBe(3);
    first();
    first(); // a second release of the same slot frees nothing more
    const c = await waiting[0]!;
    expect(order).toEqual(['c']);
    expect(slots.waiting).toBe(2);
    second();
    c();
    await Promise.all(waiting.slice(1));
    expect(order).toEqual(['c', 'd', 'e']);
  });

  describe('over HTTP, as the test run shares them', () => {
    let server: Server | undefined;
    afterEach(async () => {
      server?.closeAllConnections();
      await new Promise((resolve) => server?.close(resolve));
    });

    /** Resolves with a way to drop the connection once the server has granted a slot (headers arrived). */
    function take(url: string): { granted: Promise<void>; drop(): void } {
      let drop = () => undefined as void;
      const granted = new Promise<void>((resolve, reject) => {
        const req = request(url, (res) => (res.statusCode === 200 ? resolve() : reject(new Error(String(res.statusCode)))));
        req.on('error', () => undefined);
        req.end();
        drop = () => void req.destroy();
      });
      return { granted, drop: () => drop() };
    }

    it('a slot is held while its connection is open and freed when the holder’s socket closes, even if it never released it', async () => {
      const slots = createSemaphore(1);
      const serve = serveStartSlots(slots);
      server = createServer((req, res) => void serve(req, res));
      await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;

      const holder = take(url);
      await holder.granted;
      const next = take(url);
      let nextGranted = false;
      void next.granted.then(() => (nextGranted = true));
      await expect.poll(() => slots.waiting).toBe(1);
      expect(nextGranted).toBe(false);

      holder.drop(); // a test process that died mid-start: its socket closes
      await next.granted;
      expect(slots.waiting).toBe(0);

      // A waiter that gives up before its turn takes no slot with it.
      const quitter = take(url);
      await expect.poll(() => slots.waiting).toBe(1);
      quitter.drop();
      await expect.poll(() => slots.waiting).toBe(0);
      next.drop();
      const last = take(url);
      await last.granted;
      last.drop();
    });
  });
});
