import { EVENT_TYPES } from '@convo/contract';
import { SseParser, EVENT_TYPE_NAMES, toStreamEvent, type SseMessage } from '@convo/client';
import { describe, expect, it } from 'vitest';

/** The client's text/event-stream parser, fed the way a network delivers bytes: in arbitrary pieces. */
function parse(chunks: string[]) {
  const events: SseMessage[] = [];
  const comments: string[] = [];
  const retries: number[] = [];
  const parser = new SseParser({ onEvent: (m) => events.push(m), onComment: (c) => comments.push(c), onRetry: (ms) => retries.push(ms) });
  for (const chunk of chunks) parser.push(chunk);
  return { events, comments, retries };
}

/** Every way of cutting `text` into two pieces, and into single characters. */
function cuts(text: string): string[][] {
  const out: string[][] = [[text], Array.from(text)];
  for (let i = 1; i < text.length; i++) out.push([text.slice(0, i), text.slice(i)]);
  return out;
}

const STREAM =
  'retry: 2000\r\n\r\n' +
  ': ping\n\n' +
  'id: 1\nevent: turn.started\ndata: {"turnId":"t1"}\n\n' +
  'id: 2\r\nevent: message\r\ndata: {"text":\r\ndata: "two lines"}\r\n\r\n' +
  'id: 3\revent: turn.completed\rdata:{"turnId":"t1","awaitingUserResponse":true}\r\r';

describe('SSE parser', () => {
  it('yields the same events, comments and retry however the stream is cut into chunks (CRLF, CR and LF line ends)', () => {
    for (const chunks of cuts(STREAM)) {
      const { events, comments, retries } = parse(chunks);
      expect(events, JSON.stringify(chunks)).toEqual([
        { id: '1', type: 'turn.started', data: '{"turnId":"t1"}' },
        { id: '2', type: 'message', data: '{"text":\n"two lines"}' },
        { id: '3', type: 'turn.completed', data: '{"turnId":"t1","awaitingUserResponse":true}' },
      ]);
      expect(comments).toEqual(['ping']);
      expect(retries).toEqual([2000]);
    }
  });

  it('joins multi-line data with LF, drops one leading space only, and dispatches nothing without data', () => {
    const { events } = parse(['data:  a\ndata:b\ndata\n\nevent: x\n\nid: 9\n\n']);
    expect(events).toEqual([{ id: null, type: 'message', data: ' a\nb\n' }]);
  });

  it('ignores unknown fields and a retry that is not a number; waits for the blank line before dispatching', () => {
    const { events, retries } = parse(['retry: soon\nfoo: bar\nid: 4\nevent: review\ndata: {}\n']);
    expect(retries).toEqual([]);
    expect(events).toEqual([]);
  });

  it('reports an id only on the event that carried it', () => {
    const { events } = parse(['id: 5\ndata: a\n\ndata: b\n\n']);
    expect(events.map((e) => e.id)).toEqual(['5', null]);
  });

  it('refuses a line that never ends instead of buffering without bound', () => {
    const parser = new SseParser({ onEvent: () => undefined });
    expect(() => parser.push(`data: ${'x'.repeat(4 * 1024 * 1024 + 1)}`)).toThrow(/exceeds/);
  });
});

describe('typed events', () => {
  it('knows every event type of the contract, and no other', () => {
    expect([...EVENT_TYPE_NAMES].sort()).toEqual([...EVENT_TYPES].sort());
  });

  it('types a contract event by its name and id', () => {
    expect(toStreamEvent({ id: '7', type: 'message', data: '{"text":"hi"}' })).toEqual({ id: 7, type: 'message', data: { text: 'hi' } });
  });

  it('leaves out what is not a contract event: unknown type, missing or bad id, data that is not a JSON object', () => {
    expect(toStreamEvent({ id: '1', type: 'telemetry', data: '{}' })).toBeNull();
    expect(toStreamEvent({ id: null, type: 'message', data: '{}' })).toBeNull();
    expect(toStreamEvent({ id: 'x', type: 'message', data: '{}' })).toBeNull();
    expect(toStreamEvent({ id: '0', type: 'message', data: '{}' })).toBeNull();
    expect(toStreamEvent({ id: '3', type: 'message', data: '{not json' })).toBeNull();
    expect(toStreamEvent({ id: '3', type: 'message', data: '[1]' })).toBeNull();
  });

  it('accepts a live delta before any stored event (id 0)', () => {
    expect(toStreamEvent({ id: '0', type: 'message.delta', data: '{"messageId":"m","delta":"x"}' })).toMatchObject({
      id: 0,
      type: 'message.delta',
    });
  });
});
