import { EVENT_SCHEMA_VERSION, EVENT_TYPES, EventSchemas, type EventType } from '@convo/contract';
import { z } from 'zod';
import { publicSchemaOverride } from './openapi.js';

/**
 * The AsyncAPI 3 description of the server-sent events, generated from the
 * event schemas (EventSchemas) and their descriptions, so it lists exactly
 * the events the code can append or stream. Served at /docs/asyncapi.json;
 * docs/api.md's event table is rendered from it (scripts/docs.ts).
 */

type Json = Record<string, unknown>;

/** Events that are never stored: no id of their own, not replayed after a reconnect. */
const LIVE_ONLY: ReadonlySet<EventType> = new Set(['message.delta']);
/** Events written by the gateway for one connection, not appended to the session's history. */
const PER_CONNECTION: ReadonlySet<EventType> = new Set(['resync']);

/** What any turn of any product can carry: its lifecycle and its messages. */
const TURN_EVENTS = [
  'turn.queued',
  'turn.started',
  'message',
  'message.delta',
  'message.discarded',
  'agent.changed',
] as const satisfies readonly EventType[];

/**
 * The events of a one-turn stream (POST with Accept: text/event-stream):
 * the turn's own events up to its result, which ends the stream. Never a
 * `turn.completed` (the result comes first) nor a `resync` (the stream
 * starts at the turn, whose events are retained while it runs).
 */
export const DIALOG_TURN_EVENTS = [
  ...TURN_EVENTS,
  'plan',
  'search',
  'clarify',
  'answer',
  'turn.failed',
] as const satisfies readonly EventType[];
export const WORKBENCH_AGENT_EVENTS = [
  ...TURN_EVENTS,
  'workbench.step',
  'workbench.result',
  'turn.failed',
] as const satisfies readonly EventType[];

/**
 * JSON Schema (draft-07, which AsyncAPI's default schema format extends) of
 * an event payload. Objects stay open: a client must ignore fields it does
 * not know (docs/api.md, "Versioning").
 */
export function payloadSchema(schema: z.ZodType): { schema: Json; defs: Record<string, Json> } {
  const json = z.toJSONSchema(schema, {
    target: 'draft-7',
    io: 'output',
    unrepresentable: 'any',
    override: publicSchemaOverride,
  }) as Json;
  const { $schema: _dialect, definitions, ...rest } = json;
  return { schema: rewriteRefs(rest) as Json, defs: (definitions ?? {}) as Record<string, Json> };
}

/** `#/definitions/X` (per schema) → `#/components/schemas/X` (the document's). */
function rewriteRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rewriteRefs);
  if (!value || typeof value !== 'object') return value;
  const out: Json = {};
  for (const [key, inner] of Object.entries(value)) {
    out[key] = key === '$ref' && typeof inner === 'string' ? inner.replace('#/definitions/', '#/components/schemas/') : rewriteRefs(inner);
  }
  return out;
}

function sseHeaders(type: EventType): Json {
  const stored = !LIVE_ONLY.has(type) && !PER_CONNECTION.has(type);
  return {
    type: 'object',
    description: 'The SSE fields around the JSON payload (`data:`).',
    properties: {
      event: { const: type, description: 'the SSE `event:` field' },
      id: {
        type: 'string',
        pattern: '^[0-9]+$',
        description: stored
          ? "the event's sequence number in its session (1, 2, 3, …): send it back as Last-Event-ID to resume after this event"
          : LIVE_ONLY.has(type)
            ? 'repeats the id of the last stored event this connection delivered (this event has none of its own)'
            : "the session's last stored event id: resume from here after applying the snapshot",
      },
    },
    required: ['event', 'id'],
  };
}

/** An AsyncAPI message name: the event type itself (dots are allowed in component keys). */
function messageRef(type: EventType): Json {
  return { $ref: `#/components/messages/${type}` };
}

const RESUME = [
  'Each stored event carries `id:` (its sequence number in the session, strictly increasing). A client that reconnects sends the last id it processed as the `Last-Event-ID` header (or `?lastEventId=`) and receives every later event exactly once and in order, then the live tail.',
  'When the events after that id are no longer retained (or the id is from the future), the stream starts with one `resync` carrying the whole session snapshot; the client replaces its state and continues.',
  '`message.delta` events are live only: not stored and not replayed; the final `message` carries the whole text.',
  'Lines starting with `:` are comments (heartbeats, a closing notice): ignore them. The `retry:` field gives the reconnection delay in milliseconds.',
].join('\n\n');

/** The AsyncAPI 3.0 document; `version` is the gateway's release. */
export function buildAsyncApi(version: string): Json {
  const messages: Json = {};
  const schemas: Record<string, Json> = {};
  for (const type of EVENT_TYPES) {
    const schema = EventSchemas[type] as z.ZodType;
    const { schema: payload, defs } = payloadSchema(schema);
    Object.assign(schemas, rewriteRefs(defs));
    const description = typeof payload.description === 'string' ? payload.description : undefined;
    messages[type] = {
      name: type,
      title: type,
      ...(description ? { summary: description } : {}),
      contentType: 'application/json',
      headers: sseHeaders(type),
      payload,
      'x-stored': !LIVE_ONLY.has(type) && !PER_CONNECTION.has(type),
    };
  }
  const refs = (types: readonly EventType[]) => Object.fromEntries(types.map((type) => [type, messageRef(type)]));
  const receive = (channel: string, types: readonly EventType[]) =>
    types.map((type) => ({ $ref: `#/channels/${channel}/messages/${type}` }));
  const httpBinding = (method: string) => ({ http: { method, bindingVersion: '0.3.0' } });
  return {
    asyncapi: '3.0.0',
    info: {
      title: 'Conversational agents: session events',
      version,
      description: `Server-Sent Events of the gateway. Event schema major: ${EVENT_SCHEMA_VERSION} (every stored event records it). Adding an event type or a field is not breaking: clients ignore what they do not know.\n\n${RESUME}`,
    },
    defaultContentType: 'application/json',
    servers: {
      gateway: { host: 'localhost:8080', protocol: 'http', description: 'The gateway (any deployment: same paths).' },
    },
    channels: {
      sessionEvents: {
        address: '/v1/sessions/{sessionId}/events',
        title: "A session's event stream",
        description: `GET with \`Accept: text/event-stream\` and the session token (\`Authorization: Bearer <token>\` or \`?token=\`). Replays the stored events after Last-Event-ID, then follows the session live; never ends by itself.\n\n${RESUME}`,
        parameters: { sessionId: { description: 'The id POST /v1/sessions answered.' } },
        messages: refs(EVENT_TYPES),
        bindings: httpBinding('GET'),
      },
      dialogTurn: {
        address: '/agent.dialog',
        title: 'One FAQ dialog turn, streamed',
        description:
          'POST /agent.dialog with `Accept: text/event-stream`: the events of that turn only (its `turn.queued`/`turn.started` to its `answer`, `clarify` or `turn.failed`), then `: closing: end of turn` and the response ends. A repeated request with the same Idempotency-Key, or Last-Event-ID, resumes the same turn.',
        messages: refs(DIALOG_TURN_EVENTS),
        bindings: httpBinding('POST'),
      },
      workbenchAgent: {
        address: '/api/problems/{problemId}/agent',
        title: "The workbench agent's work on one request, streamed",
        description:
          "POST with `Accept: text/event-stream`: the request's `workbench.step` events as each tool runs, then `workbench.result` (or `turn.failed`), then `: closing: end of turn` and the response ends.",
        parameters: { problemId: { description: 'The problem the request is about.' } },
        messages: refs(WORKBENCH_AGENT_EVENTS),
        bindings: httpBinding('POST'),
      },
    },
    operations: {
      receiveSessionEvents: {
        action: 'receive',
        channel: { $ref: '#/channels/sessionEvents' },
        summary: "Follow a session's events",
        messages: receive('sessionEvents', EVENT_TYPES),
      },
      receiveDialogTurn: {
        action: 'receive',
        channel: { $ref: '#/channels/dialogTurn' },
        summary: 'Follow one FAQ dialog turn',
        messages: receive('dialogTurn', DIALOG_TURN_EVENTS),
      },
      receiveWorkbenchAgent: {
        action: 'receive',
        channel: { $ref: '#/channels/workbenchAgent' },
        summary: "Follow the workbench agent's work on one request",
        messages: receive('workbenchAgent', WORKBENCH_AGENT_EVENTS),
      },
    },
    components: { messages, schemas },
  };
}
