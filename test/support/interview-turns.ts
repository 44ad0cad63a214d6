import { expect } from 'vitest';
import type { Api } from './api.js';
import type { ReceivedEvent, SseRecorder } from './sse.js';

/** Helpers of the end-to-end interview tests: one turn's events, a turn sent and awaited, the stream's invariants. */

/** Event types of one turn, from its turn.started to its turn.completed. */
export function turnTypes(events: ReceivedEvent[], turnId: string): string[] {
  const start = events.findIndex((e) => e.type === 'turn.started' && e.data.turnId === turnId);
  const end = events.findIndex((e) => (e.type === 'turn.completed' || e.type === 'turn.failed') && e.data.turnId === turnId);
  return events.slice(start, end + 1).map((e) => (e.type === 'state.changed' ? `state.changed:${String(e.data.type)}` : e.type));
}

export function lastAssistant(events: ReceivedEvent[]): string {
  const lastMessage = events.filter((e) => e.type === 'message' && e.data.role === 'assistant').at(-1);
  return String(lastMessage?.data.text ?? '');
}

/** Sends a message and waits for its turn to finish; returns the assistant's reply. */
export async function say(
  api: Api,
  session: { sessionId: string; token: string },
  sse: SseRecorder,
  message: string,
): Promise<{ turnId: string; reply: string }> {
  const response = await api.turn(session.sessionId, session.token, message);
  expect(response.status).toBe(202);
  const turnId = String(response.json.turnId);
  await sse.waitFor((evs) => evs.some((e) => e.type === 'turn.completed' && e.data.turnId === turnId), 20_000, `turn ${message}`);
  return { turnId, reply: lastAssistant(sse.events) };
}

export function assertStreamInvariants(events: ReceivedEvent[]): void {
  const ids = events.map((e) => e.id);
  expect(ids).toEqual(ids.map((_, i) => i + 1)); // 1..n, no gap, no duplicate
}
