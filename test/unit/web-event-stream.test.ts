import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openEventStream, type StreamState } from '../../services/gateway/web/lib/event-stream.js';

/**
 * The page's resumable stream. The browser's own EventSource (and its automatic
 * reconnect) is exercised in Chromium by test/e2e/web-chat.test.ts; here a
 * stand-in with the same surface drives the cases a live server makes hard to
 * stage: a reconnect refused with a non-200 answer, and a session that is gone.
 */
class FakeEventSource {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 2;
  static instances: FakeEventSource[] = [];
  readyState = FakeEventSource.CONNECTING;
  onopen: (() => void) | null = null;
  onerror: (() => void) | null = null;
  private listeners = new Map<string, ((e: { lastEventId: string; data: string }) => void)[]>();

  constructor(readonly url: string) {
    FakeEventSource.instances.push(this);
  }
  addEventListener(type: string, fn: (e: { lastEventId: string; data: string }) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), fn]);
  }
  close() {
    this.readyState = FakeEventSource.CLOSED;
  }
  // What the server does:
  open() {
    this.readyState = FakeEventSource.OPEN;
    this.onopen?.();
  }
  emit(type: string, id: number, data: unknown) {
    for (const fn of this.listeners.get(type) ?? []) fn({ lastEventId: String(id), data: JSON.stringify(data) });
  }
  /** A network error: the browser will retry by itself. */
  drop() {
    this.readyState = FakeEventSource.CONNECTING;
    this.onerror?.();
  }
  /** A reconnect answered with a non-200: the browser gives up on this EventSource. */
  fail() {
    this.readyState = FakeEventSource.CLOSED;
    this.onerror?.();
  }
}

beforeEach(() => {
  FakeEventSource.instances = [];
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

function open(canResume?: () => Promise<boolean>) {
  let last = 0;
  const events: number[] = [];
  const states: [StreamState, number][] = [];
  const stream = openEventStream({
    url: (lastEventId) => `/events?token=t${lastEventId > 0 ? `&lastEventId=${lastEventId}` : ''}`,
    lastEventId: () => last,
    onEvent: (streamEvent) => {
      if (streamEvent.id <= last) return;
      last = streamEvent.id;
      events.push(streamEvent.id);
    },
    onState: (s, d) => states.push([s, d.delayMs]),
    canResume,
    EventSourceImpl: FakeEventSource as unknown as typeof EventSource,
  });
  return { stream, events, states, current: () => FakeEventSource.instances.at(-1)! };
}

describe('openEventStream', () => {
  it('leaves network errors to the browser and resumes from the last applied event after a refused reconnect', async () => {
    const harness = open();
    harness.current().open();
    harness.current().emit('message', 1, { text: 'a' });
    harness.current().emit('turn.completed', 2, { turnId: 't', awaitingUserResponse: true });
    expect(harness.events).toEqual([1, 2]);

    harness.current().drop();
    expect(FakeEventSource.instances).toHaveLength(1);
    expect(harness.states.at(-1)).toEqual(['reconnecting', 0]);

    harness.current().fail();
    expect(harness.states.at(-1)).toEqual(['reconnecting', 500]);
    await vi.advanceTimersByTimeAsync(500);
    expect(FakeEventSource.instances).toHaveLength(2);
    expect(harness.current().url).toBe('/events?token=t&lastEventId=2');
    harness.current().open();
    expect(harness.states.at(-1)).toEqual(['open', 0]);
  });

  it('backs off while reconnects keep failing, and reconnectNow skips the wait', async () => {
    const harness = open();
    harness.current().fail();
    await vi.advanceTimersByTimeAsync(500);
    harness.current().fail();
    expect(harness.states.at(-1)).toEqual(['reconnecting', 1000]);
    harness.stream.reconnectNow();
    await vi.advanceTimersByTimeAsync(0);
    expect(FakeEventSource.instances).toHaveLength(3);
  });

  it('stops for good when the session is gone', async () => {
    const harness = open(async () => false);
    harness.current().fail();
    await vi.advanceTimersByTimeAsync(500);
    expect(FakeEventSource.instances).toHaveLength(1);
    expect(harness.states.at(-1)).toEqual(['closed', 0]);
  });

  it('ignores what an abandoned EventSource still reports after close', () => {
    const harness = open();
    const first = harness.current();
    harness.stream.close();
    first.fail();
    expect(harness.states).toEqual([['connecting', 0], ['closed', 0]]);
  });
});
