/**
 * @convo/client: the gateway's public contract (docs/api.md) for Node ≥ 20 and
 * browsers. Imports nothing at run time but its own modules (the contract's
 * types are erased), so the browser bundle has no zod in it.
 */
export { createClient, type ClientOptions, type ConvoClient, type SampleForm } from './client.js';
export { ApiError, ProblemConflictError, describeError } from './errors.js';
export {
  EventStream,
  DEFAULT_RECONNECT_MS,
  type EventStreamOptions,
  type StreamSource,
  type StreamState,
  type StreamStateDetail,
} from './event-stream.js';
export {
  EVENT_TYPE_NAMES,
  endsTurn,
  isEventType,
  toStreamEvent,
  type EventData,
  type EventOf,
  type EventType,
  type StreamEvent,
} from './events.js';
export { DialogStream, type DialogCallOptions, type DialogInput, type DocumentList, type UpsertResult } from './faq.js';
export { newIdempotencyKey } from './ids.js';
export { parseRetryAfter, retryDelayMs, sleep, withRetry, type RetryNotice, type RetryOptions } from './retry.js';
export { type CreateSessionInput, type EventsOptions, type TurnInput } from './sessions.js';
export { SseParser, type SseMessage, type SseParserHandlers } from './sse-parser.js';
export { type CallOptions } from './transport.js';
export type * from './types.js';
export { AgentStream } from './workbench.js';
