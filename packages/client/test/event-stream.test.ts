import { createServer, type IncomingHttpHeaders, type ServerResponse, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiError, createClient, type StreamEvent, type StreamState } from '@convo/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

/**
 * The resumable event stream against a scripted SSE server on a free port:
 * each connection is answered by the next handler of the test's script. A
 * server per test, so no pooled connection outlives the test that made it.
 */
type Handler = (res: ServerResponse, headers: IncomingHttpHeaders) => void;

let server: Server;
let base: string;
let script: Handler[] = [];
const requests: { url: string; headers: IncomingHttpHeaders }[] = [];

beforeEach(async () => {
  server = createServer((req, res) => {
    requests.push({ url: req.url ?? '', headers: req.headers });
    const handler = script.shift();
    if (handler) return handler(res, req.headers);
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(': nothing more scripted\n\n'); // held open
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterEach(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  requests.length = 0;
  script = [];
});

const sse = (id: number, type: string, data: unknown) => `id: ${id}\nevent: ${type}\ndata: ${JSON.stringify(data)}\n\n`;
const open = (res: ServerResponse) => res.writeHead(200, { 'content-type': 'text/event-stream' });

/** Reads until `until` says stop (then leaves the loop, which closes the stream). */
async function collect(stream: AsyncIterable<StreamEvent>, until: (ev: StreamEvent) => boolean): Promise<StreamEvent[]> {
  const events: StreamEvent[] = [];
  for await (const ev of stream) {
    events.push(ev);
    if (until(ev)) break;
  }
  return events;
}

describe('event stream', () => {
  it('reconnects after a drop with Last-Event-ID after the server’s retry delay, and yields a resync like any event', async () => {
    script = [
      (res) => {
        open(res);
        res.end(`retry: 30\n\n${sse(1, 'turn.started', { turnId: 't1' })}id: 2\r\nevent: message\r\ndata: {"text":"hi"}\r\n\r\n`);
      },
      (res) => {
        open(res);
        res.write(`${sse(2, 'message.delta', { messageId: 'm', delta: 'x' })}${sse(3, 'turn.completed', { turnId: 't1' })}: ping\n\n`);
        res.write(`${sse(9, 'resync', { snapshot: { lastEventId: 9 } })}${sse(10, 'turn.started', { turnId: 't2' })}`);
      },
    ];
    const states: StreamState[] = [];
    const stream = createClient({ baseUrl: base, token: 'secret' }).sessions.events('s1', { onState: (s) => states.push(s) });
    const events = await collect(stream, (ev) => ev.id === 10);
    expect(events.map((e) => `${e.id} ${e.type}`)).toEqual([
      '1 turn.started',
      '2 message',
      '2 message.delta',
      '3 turn.completed',
      '9 resync',
      '10 turn.started',
    ]);
    expect(events[1]?.type === 'message' && events[1].data).toEqual({ text: 'hi' });
    expect(requests.map((r) => [r.url, r.headers['last-event-id'], r.headers.authorization, r.headers.accept])).toEqual([
      ['/v1/sessions/s1/events', undefined, 'Bearer secret', 'text/event-stream'],
      ['/v1/sessions/s1/events', '2', 'Bearer secret', 'text/event-stream'],
    ]);
    expect(stream.reconnects).toBe(1);
    expect(stream.lastEventId).toBe(10);
    expect(states).toEqual(['connecting', 'open', 'reconnecting', 'open', 'closed']);
  });

  it('resumes from a given lastEventId, and a live delta does not move it', async () => {
    script = [
      (res) => {
        open(res);
        res.write(sse(7, 'message.delta', { messageId: 'm', delta: 'a' }));
      },
    ];
    const stream = createClient({ baseUrl: base }).sessions.events('s 1', { lastEventId: 7, token: 't' });
    await collect(stream, () => true);
    expect(requests[0]?.url).toBe('/v1/sessions/s%201/events');
    expect(requests[0]?.headers['last-event-id']).toBe('7');
    expect(stream.lastEventId).toBe(7);
  });

  it('waits what Retry-After says when a reconnect is shed, then goes on', async () => {
    script = [
      (res) => {
        open(res);
        res.end(`retry: 10\n\n${sse(1, 'turn.started', { turnId: 't1' })}`);
      },
      (res) => {
        res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '1' });
        res.end(JSON.stringify({ error: { code: 'not_ready', message: 'starting' } }));
      },
      (res) => {
        open(res);
        res.write(sse(2, 'turn.completed', { turnId: 't1' }));
      },
    ];
    const waits: [StreamState, number, string | undefined][] = [];
    const stream = createClient({ baseUrl: base }).sessions.events('s1', { onState: (s, d) => waits.push([s, d.delayMs, d.error?.code]) });
    const events = await collect(stream, (ev) => ev.id === 2);
    expect(events.map((e) => e.id)).toEqual([1, 2]);
    expect(waits.filter(([s]) => s === 'reconnecting')).toEqual([
      ['reconnecting', 10, undefined],
      ['reconnecting', 1000, 'not_ready'],
    ]);
    expect(requests.map((r) => r.headers['last-event-id'])).toEqual([undefined, '1', '1']);
  });

  it('throws the refusal of a session that is gone (404), without reconnecting', async () => {
    script = [
      (res) => {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { code: 'session_not_found', message: 'session s1 not found' } }));
      },
    ];
    const err = await collect(createClient({ baseUrl: base }).sessions.events('s1'), () => false).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 404, code: 'session_not_found' });
    expect(requests).toHaveLength(1);
  });

  it('ends quietly when its signal aborts, while reading or while waiting to reconnect', async () => {
    const controller = new AbortController();
    script = [
      (res) => {
        open(res);
        res.write(sse(1, 'turn.started', { turnId: 't1' }));
      },
    ];
    const events: StreamEvent[] = [];
    for await (const ev of createClient({ baseUrl: base }).sessions.events('s1', { signal: controller.signal })) {
      events.push(ev);
      setTimeout(() => controller.abort(), 10);
    }
    expect(events.map((e) => e.id)).toEqual([1]);

    const waiting = new AbortController();
    script = [(res) => res.destroy()];
    const stream = createClient({ baseUrl: base }).sessions.events('s1', {
      signal: waiting.signal,
      onState: (s) => s === 'reconnecting' && waiting.abort(),
    });
    await expect(collect(stream, () => false)).resolves.toEqual([]);
  });

  it('replaces a connection that has gone silent', async () => {
    script = [
      (res) => {
        open(res);
        res.write(`retry: 0\n\n${sse(1, 'turn.started', { turnId: 't1' })}`); // then nothing, not even a ping
      },
      (res) => {
        open(res);
        res.write(sse(2, 'turn.completed', { turnId: 't1' }));
      },
    ];
    const stream = createClient({ baseUrl: base }).sessions.events('s1', { idleTimeoutMs: 100 });
    const events = await collect(stream, (ev) => ev.id === 2);
    expect(events.map((e) => e.id)).toEqual([1, 2]);
    expect(requests[1]?.headers['last-event-id']).toBe('1');
  });

  it('follows one turn from its start to its end, leaving out the turns before it', async () => {
    script = [
      (res) => {
        open(res);
        res.write(
          sse(1, 'turn.started', { turnId: 'a' }) +
            sse(2, 'agent.changed', { from: null, to: 'greeter' }) +
            sse(3, 'turn.completed', { turnId: 'a' }),
        );
        res.write(
          sse(4, 'turn.queued', { turnId: 'b', position: 1 }) +
            sse(5, 'turn.started', { turnId: 'b' }) +
            sse(6, 'agent.changed', { from: 'greeter', to: 'architect' }),
        );
        res.write(sse(7, 'turn.failed', { turnId: 'b', error: { code: 'x', message: 'y' } }) + sse(8, 'turn.started', { turnId: 'c' }));
      },
    ];
    const events: StreamEvent[] = [];
    for await (const ev of createClient({ baseUrl: base }).sessions.followTurn('s1', 'b')) events.push(ev);
    expect(events.map((e) => e.id)).toEqual([4, 5, 6, 7]);
  });
});
