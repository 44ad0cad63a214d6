import { z } from 'zod';
import { MultiStepQueryPlan, RetrievalMode } from './faq.js';
import { SessionSnapshot } from './api.js';
import { PlanField } from './form.js';
import { AgentName, AuditReport, FieldStatus, Language, TokenTotals } from './session.js';

/**
 * Every event of the SSE contract (docs/api.md, "Events") as one zod schema;
 * the AsyncAPI document (/docs/asyncapi.json) is generated from these, with
 * their descriptions. No transforms: what a worker appends is exactly what a
 * client receives.
 */
const ErrorBody = z.object({ code: z.string(), message: z.string() });

/** Where a settled time zone came from. */
export const TimezoneSource = z
  .enum(['explicit', 'city', 'single', 'fallback'])
  .describe(
    'explicit: the respondent named it; city: from the city they named; single: the country has one zone in practice; fallback: could not tell (UTC)',
  );

/** Why a field's status changed, when it is more than the interview moving on. */
export const FieldStatusReason = z
  .enum(['declined', 'max_follow_ups', 'turn_limit', 'corrected', 'compliance', 'confirming', 'unconfirmed'])
  .describe(
    'declined: the respondent declined an optional field; max_follow_ups / turn_limit: the bounded follow-ups or turns ran out (a required field is then kept as given with needsReview, an optional one skipped); corrected: an earlier answer was corrected; compliance: the checker refused every question for it; confirming: the answer was read but not for certain, and the respondent is asked to confirm the reading; unconfirmed: a reading that needed confirming when no question was left, kept with needsReview',
  );

/** FIELD_STATUS's payload: the status, and what explains it. */
export const FieldStatusChange = z.object({
  fieldId: z.string(),
  status: FieldStatus,
  reason: FieldStatusReason.optional(),
  followUps: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe('with `interviewing` after a failed review: follow-up questions asked for this field so far'),
  needsReview: z.boolean().optional().describe('true: the value was kept as given, for a human to check'),
  violations: z.array(z.string()).optional().describe("with reason `compliance`: the checker's violation types"),
});
export type TimezoneSource = z.infer<typeof TimezoneSource>;
export type FieldStatusDetails = Omit<z.infer<typeof FieldStatusChange>, 'fieldId' | 'status'>;

/** `state.changed`: one of the interview's state changes (docs/seeds/001's StateChange), typed by `type`. */
export const StateChanged = z
  .discriminatedUnion('type', [
    z.object({ type: z.literal('SET_LANGUAGE'), payload: z.object({ language: Language }) }),
    z.object({ type: z.literal('SET_COUNTRY'), payload: z.object({ country: z.string().describe('ISO 3166-1 alpha-2') }) }),
    z.object({
      type: z.literal('SET_TIMEZONE'),
      payload: z.object({ timezone: z.string().describe('IANA time zone'), source: TimezoneSource }),
    }),
    z.object({
      type: z.literal('PLAN_CREATED'),
      payload: z.object({
        fields: z.array(PlanField).describe("the architect's order of the form's fields (field_id is the field's fieldId)"),
      }),
    }),
    z.object({ type: z.literal('FIELD_STATUS'), payload: FieldStatusChange }),
    z.object({
      type: z.literal('FIELD_VALUE'),
      payload: z.object({ fieldId: z.string(), value: z.string().nullable().describe('null: the value was cleared') }),
    }),
  ])
  .describe(
    "The interview's state changed: the settled language, country or time zone, the field plan, a field's status or value. Other `type`s may be added: ignore those you do not know.",
  );

export const EventSchemas = {
  'turn.queued': z
    .object({ turnId: z.string(), position: z.number().int().describe('turns ahead of this one in the session (1: next)') })
    .describe('A turn was accepted behind the running one; it starts when those before it end.'),
  'turn.started': z
    .object({ turnId: z.string() })
    .describe("A turn begins: its user message follows. A session's turns run one at a time, in the order accepted."),
  message: z
    .object({
      messageId: z.string(),
      role: z.enum(['user', 'assistant']),
      agent: AgentName.nullable().describe('the agent that wrote an assistant message; null for the user'),
      text: z.string(),
      turnId: z.string(),
    })
    .describe("A message of the conversation, the user's or an agent's, whole. It replaces any text streamed for the same messageId."),
  'message.delta': z
    .object({
      messageId: z.string(),
      delta: z.string(),
      offset: z
        .number()
        .int()
        .min(0)
        .optional()
        .describe('where `delta` starts in the message text (UTF-16 code units): keep that many characters, then append'),
      turnId: z.string().optional(),
    })
    .describe(
      'Live only (never stored or replayed; its `id:` repeats the last stored event id): text of an assistant message while the model writes it.',
    ),
  'message.discarded': z
    .object({ turnId: z.string(), messageIds: z.array(z.string()) })
    .describe(
      'Text streamed for these messages is withdrawn: they will never arrive (a failed or cancelled turn, a question that was not sent after all).',
    ),
  'agent.changed': z.object({ from: AgentName.nullable(), to: AgentName }).describe('Another agent holds the conversation.'),
  'state.changed': StateChanged,
  review: z
    .object({
      fieldId: z.string(),
      passed: z.boolean(),
      missingFacts: z.array(z.string()),
      feedback: z.string().nullable(),
    })
    .describe("The reviewer's verdict on an answer: the facts still missing drive the follow-up question."),
  check: z
    .object({ passed: z.boolean(), violations: z.array(z.object({ type: z.string(), message: z.string() })) })
    .describe("Job applications: the checker's verdict on a question before it is asked."),
  audit: AuditReport.describe("Job applications: the auditor's review of the whole interview, at its end."),
  plan: MultiStepQueryPlan.describe("FAQ: the planner's multi-step plan for the question (clarify, search, follow-up search, answer)."),
  search: z
    .object({
      query: z.string(),
      topK: z.number().int(),
      hits: z.array(z.object({ id: z.string(), title: z.string(), score: z.number() })),
      expansions: z
        .array(z.object({ word: z.string(), synonyms: z.array(z.string()) }))
        .optional()
        .describe('query words the engine expanded with synonyms, and to what'),
      retrieval: RetrievalMode.optional().describe(
        'with an embedding model configured: `hybrid`, or `lexical` with a `warning` when the embeddings were unavailable',
      ),
      warning: z.string().optional(),
    })
    .describe('FAQ: one search of the corpus and its hits.'),
  answer: z
    .object({
      answer: z.string().nullable(),
      sources: z.array(z.string()),
      final: z.boolean(),
      abstained: z
        .boolean()
        .optional()
        .describe('true when the FAQ holds no answer the search is sure of: `answer` is null, and `message` is what the user is told'),
      message: z.string().optional().describe('with `abstained`: the reply (rephrase, or the configured contact)'),
      confidence: z.number().optional().describe("the answer's calibrated confidence in [0, 1]"),
    })
    .describe('FAQ: the answer synthesised from the hits, with the ids of its sources, or an abstention.'),
  clarify: z
    .object({ questions: z.array(z.string()) })
    .describe('FAQ: the question is ambiguous; these questions ask the user to narrow it.'),
  'turn.completed': z
    .object({
      turnId: z.string(),
      awaitingUserResponse: z.boolean().describe('true when the agents wait for the user (a question was asked)'),
      usage: TokenTotals.optional().describe('the model usage of this turn (all its steps)'),
    })
    .describe('The turn ended; the next queued turn, if any, starts.'),
  'turn.failed': z
    .object({ turnId: z.string(), error: ErrorBody })
    .describe('The turn ended without its result (`error.code`: e.g. `cancelled`, `timeout`, a model error). The session stays usable.'),
  'workbench.step': z
    .object({ turnId: z.string(), problemId: z.string(), tool: z.string(), status: z.enum(['success', 'error']), summary: z.string() })
    .describe('Workbench: one tool of the problem-management agent has run.'),
  'workbench.result': z
    .object({ turnId: z.string(), problemId: z.string().nullable(), worksheetId: z.string() })
    .describe("Workbench: the agent's answer to a request is ready (or the worksheet, once generated)."),
  'session.completed': z
    .object({
      collectedFields: z.record(z.string(), z.string()),
      audit: AuditReport.nullable(),
      needsReview: z.array(z.string()).optional().describe('fields kept as given after the bounded follow-ups, for a human to check'),
    })
    .describe('The interview is over: every required field is done (submit the session to close it).'),
  resync: z
    .object({ snapshot: SessionSnapshot })
    .describe(
      "The stream cannot be replayed from the client's id (history trimmed, or an id from the future): replace all state with this snapshot and go on from its id.",
    ),
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
