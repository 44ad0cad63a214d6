import type { EventData, EventType } from '@convo/contract';
import { isRecord } from './errors.js';
import type { SseMessage } from './sse-parser.js';

/**
 * One event of a session's stream, typed by the contract's EventSchemas: a
 * union discriminated on `type`. `id` is the event's place in the session
 * (from 1, usable as Last-Event-ID), except for `message.delta`, which is live
 * only and repeats the id of the last stored event its connection delivered
 * (0 before any).
 */
export type StreamEvent = { [T in EventType]: { id: number; type: T; data: EventData<T> } }[EventType];
export type { EventData, EventType };
/** The event of one type, e.g. `EventOf<'turn.completed'>`. */
export type EventOf<T extends EventType> = Extract<StreamEvent, { type: T }>;

/**
 * Every event type of the contract, without importing its zod schemas (the
 * browser bundle stays free of zod): the compiler refuses this record when a
 * type is missing or one the contract does not have is listed.
 */
const EVENT_TYPE_SET: Record<EventType, true> = {
  'turn.started': true,
  'turn.queued': true,
  resync: true,
  message: true,
  'message.delta': true,
  'message.discarded': true,
  'agent.changed': true,
  'state.changed': true,
  review: true,
  check: true,
  audit: true,
  plan: true,
  search: true,
  answer: true,
  clarify: true,
  'turn.completed': true,
  'turn.failed': true,
  'workbench.step': true,
  'workbench.result': true,
  'session.completed': true,
};

/** The contract's event types, in the order of its EventSchemas. */
export const EVENT_TYPE_NAMES = Object.keys(EVENT_TYPE_SET) as readonly EventType[];

export function isEventType(type: string): type is EventType {
  return Object.prototype.hasOwnProperty.call(EVENT_TYPE_SET, type);
}

/**
 * One SSE message as a typed event, or null when it is not one of the
 * contract's: an unknown type (a newer server), an id that is not an integer
 * (stored events count from 1), or data that is not a JSON object. The data
 * is not validated against the schemas: the server validated it when the
 * event was committed, and the client carries no zod.
 */
export function toStreamEvent(message: SseMessage): StreamEvent | null {
  if (!isEventType(message.type) || message.id === null || !/^\d{1,15}$/.test(message.id)) return null;
  const id = Number(message.id);
  if (id < (message.type === 'message.delta' ? 0 : 1)) return null;
  let data: unknown;
  try {
    data = JSON.parse(message.data);
  } catch {
    return null;
  }
  return isRecord(data) ? ({ id, type: message.type, data } as StreamEvent) : null;
}

/** Whether `ev` ends turn `turnId`. */
export function endsTurn(ev: StreamEvent, turnId: string): ev is EventOf<'turn.completed'> | EventOf<'turn.failed'> {
  return (ev.type === 'turn.completed' || ev.type === 'turn.failed') && ev.data.turnId === turnId;
}
