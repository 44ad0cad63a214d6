import { z } from 'zod';
import { MultiStepQueryPlan, RetrievalMode } from './faq.js';
import { AgentName } from './session.js';

/**
 * Every event of the SSE contract (docs/API.md section 1) as one zod schema.
 * No transforms: what a worker appends is exactly what a client receives.
 */
const ErrorBody = z.object({ code: z.string(), message: z.string() });

export const EventSchemas = {
  'turn.started': z.object({ turnId: z.string() }),
  'turn.queued': z.object({ turnId: z.string(), position: z.number().int() }),
  resync: z.object({ snapshot: z.record(z.string(), z.unknown()) }),
  message: z.object({
    messageId: z.string(),
    role: z.enum(['user', 'assistant']),
    agent: AgentName.nullable(),
    text: z.string(),
    turnId: z.string(),
  }),
  /**
   * Live only (never stored or replayed): text of an assistant message while
   * the model writes it. `offset` (extension) is where `delta` starts in the
   * message's text: a client keeps the first `offset` characters and appends,
   * so a restarted generation overwrites instead of repeating.
   */
  'message.delta': z.object({ messageId: z.string(), delta: z.string(), offset: z.number().int().min(0).optional(), turnId: z.string().optional() }),
  /** Partial text streamed by a turn that failed (or was cancelled) is withdrawn: `messageIds` never get their `message`. */
  'message.discarded': z.object({ turnId: z.string(), messageIds: z.array(z.string()) }),
  'agent.changed': z.object({ from: AgentName.nullable(), to: AgentName }),
  'state.changed': z.object({
    type: z.enum(['SET_LANGUAGE', 'SET_COUNTRY', 'SET_TIMEZONE', 'FIELD_STATUS', 'FIELD_VALUE', 'PLAN_CREATED']),
    payload: z.record(z.string(), z.unknown()),
  }),
  review: z.object({
    fieldId: z.string(),
    passed: z.boolean(),
    missingFacts: z.array(z.string()),
    feedback: z.string().nullable(),
  }),
  check: z.object({ passed: z.boolean(), violations: z.array(z.object({ type: z.string(), message: z.string() })) }),
  audit: z.object({
    passed: z.boolean(),
    violations: z.array(z.object({ type: z.string(), message: z.string(), severity: z.enum(['error', 'warning']) })),
    summary: z.string(),
  }),
  plan: MultiStepQueryPlan,
  search: z.object({
    query: z.string(),
    topK: z.number().int(),
    hits: z.array(z.object({ id: z.string(), title: z.string(), score: z.number() })),
    /** Query words the engine expanded with synonyms (Sudachi, WordNet, the deployment's own), and to what. */
    expansions: z.array(z.object({ word: z.string(), synonyms: z.array(z.string()) })).optional(),
    /** With an embedding model configured: `hybrid`, or `lexical` with a `warning` when the embeddings were unavailable. */
    retrieval: RetrievalMode.optional(),
    warning: z.string().optional(),
  }),
  answer: z.object({ answer: z.string().nullable(), sources: z.array(z.string()), final: z.boolean() }),
  clarify: z.object({ questions: z.array(z.string()) }),
  'turn.completed': z.object({
    turnId: z.string(),
    awaitingUserResponse: z.boolean(),
    /** Extension: the model usage of this turn (all its steps). */
    usage: z.object({ modelCalls: z.number().int(), promptTokens: z.number().int(), cachedTokens: z.number().int(), completionTokens: z.number().int(), reasoningTokens: z.number().int() }).optional(),
  }),
  'turn.failed': z.object({ turnId: z.string(), error: ErrorBody }),
  /** Workbench: one tool of the problem-management agent has run (streamed while the agent works). */
  'workbench.step': z.object({ turnId: z.string(), problemId: z.string(), tool: z.string(), status: z.enum(['success', 'error']), summary: z.string() }),
  /** Workbench: the agent's answer to a request, or the worksheet once generated. */
  'workbench.result': z.object({ turnId: z.string(), problemId: z.string().nullable(), worksheetId: z.string() }),
  'session.completed': z.object({
    collectedFields: z.record(z.string(), z.string()),
    audit: z.unknown().nullable(),
    /** Fields kept as given after the bounded follow-ups, for a human to check (an extension of the contract). */
    needsReview: z.array(z.string()).optional(),
  }),
} as const;

/**
 * The major version of the event schemas. Adding an event type or a field is
 * not a new major (clients ignore what they do not know); removing or
 * changing one is, and gets a new API path. Every stored event records it
 * (field `v` of its stream entry).
 */
export const EVENT_SCHEMA_VERSION = 1;

export type EventType = keyof typeof EventSchemas;
export type EventData<T extends EventType> = z.infer<(typeof EventSchemas)[T]>;
/** An event before it has an id (what a commit appends). */
export type NewEvent = { [T in EventType]: { type: T; data: EventData<T> } }[EventType];
/** An event as stored and streamed: `id` is the session's monotonically increasing sequence. */
export type SessionEvent = NewEvent & { id: number };

export const EVENT_TYPES = Object.keys(EventSchemas) as EventType[];

/** Builds a typed event; validation happens once, at commit time. */
export function event<T extends EventType>(type: T, data: EventData<T>): NewEvent {
  return { type, data } as NewEvent;
}

/** Validates an event against its schema (used before every commit). */
export function validateEvent(e: NewEvent): NewEvent {
  const schema = EventSchemas[e.type] as z.ZodType;
  schema.parse(e.data);
  return e;
}
