import { z } from 'zod';
import { AGENT_NAMES, type AgentName as AgentNameType } from './agents-list.js';
import { FaqState } from './faq.js';
import { WorkbenchState } from './workbench.js';
import { Plan, ReviewResult, SessionForm } from './form.js';

export const AgentName = z.enum(AGENT_NAMES);
export type AgentName = AgentNameType;
export const SessionKind = z.enum(['form', 'application', 'faq']);
export type SessionKind = z.infer<typeof SessionKind>;
export const SessionStatus = z.enum(['active', 'awaiting_confirmation', 'submitted', 'failed']);
export type SessionStatus = z.infer<typeof SessionStatus>;
export const FieldStatus = z.enum(['pending', 'interviewing', 'reviewing', 'done', 'skipped']);
export type FieldStatus = z.infer<typeof FieldStatus>;
export const Language = z.enum(['ja', 'en']);
export type Language = z.infer<typeof Language>;

export const ChatMessage = z.object({
  messageId: z.string(),
  role: z.enum(['user', 'assistant']),
  agent: AgentName.nullable(),
  text: z.string(),
  turnId: z.string(),
  createdAt: z.string(),
  /** Field the assistant asked about, or the user answered (drives the reviewer's context). */
  fieldId: z.string().nullable().default(null),
  /** A user message that corrects an earlier, already resolved field (it is reviewed for that field). */
  correction: z.boolean().default(false),
  /**
   * additionalData (seed 004): what this turn's tools produced that the UI
   * shows with the message (ids, the fields changed, scores, ideas), baked
   * into the assistant message; a tool's intermediate results stay in its
   * run step.
   */
  data: z.record(z.string(), z.unknown()).optional(),
});
export type ChatMessage = z.infer<typeof ChatMessage>;

export const FieldState = z.object({
  fieldId: z.string(),
  status: FieldStatus,
  value: z.string().nullable(),
  followUps: z.number().int(),
  /** Why a field ended `skipped` (declined optional field, follow-ups exhausted). */
  skipReason: z.string().nullable().default(null),
  lastReview: ReviewResult.nullable().default(null),
  /** The last user message the reviewer has judged for this field: nothing after a verdict is pending until the user writes again. */
  reviewedMessageId: z.string().nullable().default(null),
  /**
   * A required field the respondent could not answer within the bounded follow-ups: the answer is kept
   * as given and flagged for a human (the field counts as done so the interview can end).
   */
  needsReview: z.boolean().default(false),
  /** The next failed verdict ends the field: the follow-up says what is still needed and how to get out. */
  finalAttempt: z.boolean().default(false),
});
export type FieldState = z.infer<typeof FieldState>;

/** An LLM message as the agent loop keeps it (provider-neutral). */
export const ToolCall = z.object({ id: z.string(), name: z.string(), arguments: z.string() });
export type ToolCall = z.infer<typeof ToolCall>;
export const LlmMessage = z.discriminatedUnion('role', [
  z.object({ role: z.literal('system'), content: z.string() }),
  z.object({ role: z.literal('user'), content: z.string() }),
  z.object({ role: z.literal('assistant'), content: z.string().nullable(), toolCalls: z.array(ToolCall).default([]) }),
  z.object({ role: z.literal('tool'), toolCallId: z.string(), name: z.string(), content: z.string() }),
]);
export type LlmMessage = z.infer<typeof LlmMessage>;

/**
 * A suspended agent loop: the agent called `subtask`, its conversation so far
 * is kept here while the sub-agent runs as its own job, and the result lands
 * in `pendingResult` for the loop to resume with.
 */
export const LoopCheckpoint = z.object({
  agent: AgentName,
  messages: z.array(LlmMessage),
  iterations: z.number().int(),
  pendingCall: ToolCall,
  subAgent: AgentName,
  pendingStartedAt: z.string(),
  pendingResult: z.unknown().optional(),
});
export type LoopCheckpoint = z.infer<typeof LoopCheckpoint>;

export const CheckViolation = z.object({
  type: z.enum(['prohibited_topic', 'duplicate_question', 'tone_violation', 'no_intent_binding']),
  message: z.string(),
});
export type CheckViolation = z.infer<typeof CheckViolation>;

/** The auditor's review of a whole job-application interview (docs/seeds/001 AuditResultSchema). */
export const AuditReport = z.object({
  passed: z.boolean(),
  violations: z.array(z.object({ type: z.string(), message: z.string(), severity: z.enum(['error', 'warning']) })),
  summary: z.string(),
});
export type AuditReport = z.infer<typeof AuditReport>;

export const ComplianceState = z.object({
  checks: z.array(
    z.object({ fieldId: z.string().nullable(), question: z.string(), passed: z.boolean(), violations: z.array(CheckViolation) }),
  ),
  failedChecks: z.record(z.string(), z.number().int()),
  volunteered: z.array(z.object({ messageId: z.string(), topics: z.array(z.string()) })),
});
export type ComplianceState = z.infer<typeof ComplianceState>;

/** Tokens of model calls: prompt (of which cached), completion (of which reasoning), and how many calls. */
export const TokenTotals = z.object({
  modelCalls: z.number().int(),
  promptTokens: z.number().int(),
  cachedTokens: z.number().int(),
  completionTokens: z.number().int(),
  reasoningTokens: z.number().int(),
});
export type TokenTotals = z.infer<typeof TokenTotals>;
export const NO_TOKENS: TokenTotals = Object.freeze({
  modelCalls: 0,
  promptTokens: 0,
  cachedTokens: 0,
  completionTokens: 0,
  reasoningTokens: 0,
});

/**
 * What every session has, whatever its product: identity, status, which agent
 * holds the conversation, the messages, the settled language/country/time zone
 * (the snapshot shows them for every kind), and the suspended agent loop.
 */
const CoreSessionState = z.object({
  v: z.literal(1),
  sessionId: z.string(),
  status: SessionStatus,
  currentAgent: AgentName,
  agentStack: z.array(z.object({ agent: AgentName, since: z.string() })),
  messages: z.array(ChatMessage),
  bootstrap: z.object({
    language: z.string().nullable(),
    country: z.string().nullable(),
    timezone: z.string().nullable(),
    /** The greeter asked which city/zone, because the country spans several. */
    timezoneAsked: z.boolean().default(false),
    languageFixed: z.boolean().default(false),
    /** The respondent did not name a country within the greeter's bounded questions: the interview goes on without one. */
    countryUnknown: z.boolean().default(false),
  }),
  /** The turn whose user message has been added (a rerun must not add it twice). */
  startedTurnId: z.string().nullable(),
  loop: LoopCheckpoint.nullable(),
  subSessionResults: z.record(z.string(), z.unknown()).default({}),
  /** Model usage of the whole session, and of the turn being run (reset when a turn begins). */
  usage: TokenTotals.default(NO_TOKENS),
  turnUsage: TokenTotals.default(NO_TOKENS),
  createdAt: z.string(),
  updatedAt: z.string(),
});

/** The interview's part: the form, its plan, and where each field stands. */
const FormPart = {
  form: SessionForm.nullable(),
  plan: Plan.nullable(),
  fields: z.array(FieldState),
  currentFieldIndex: z.number().int(),
  collectedFields: z.record(z.string(), z.string()),
  followUpCount: z.number().int(),
  /** The day relative dates are read from (options.referenceDate); null: the day each answer arrives. */
  referenceDate: z.iso.date().nullable().default(null),
};

/**
 * The seed's MainSessionState, stored as one JSON document per session and
 * changed only by compare-and-set commits that also append its events: the
 * core plus the part of its product, told apart by `kind`.
 */
export const SessionState = z.discriminatedUnion('kind', [
  CoreSessionState.extend({ kind: z.literal('form'), ...FormPart }),
  CoreSessionState.extend({
    kind: z.literal('application'),
    ...FormPart,
    /** Quick-check history, failed checks per field, prohibited topics the respondent volunteered (masked). */
    compliance: ComplianceState,
    audit: AuditReport.nullable().default(null),
  }),
  /** The dialog context (history with plans) and the results of recent turns. */
  CoreSessionState.extend({ kind: z.literal('faq'), faq: FaqState }),
  /** A worksheet, its problems' edit histories and the agent's recent answers. */
  CoreSessionState.extend({ kind: z.literal('workbench'), workbench: WorkbenchState }),
]);
export type SessionState = z.infer<typeof SessionState>;
/** A form or job-application interview. */
export type FormSessionState = Extract<SessionState, { kind: 'form' | 'application' }>;
export type ApplicationSessionState = Extract<SessionState, { kind: 'application' }>;
export type FaqSessionState = Extract<SessionState, { kind: 'faq' }>;
export type WorkbenchSessionState = Extract<SessionState, { kind: 'workbench' }>;
export type WorkbenchSessionView = DeepReadonly<WorkbenchSessionState>;

/** A value seen through a read-only lens, all the way down: what a draft hands out to read. */
export type DeepReadonly<T> = T extends (...args: never[]) => unknown
  ? T
  : T extends ReadonlyArray<infer Item>
    ? ReadonlyArray<DeepReadonly<Item>>
    : T extends object
      ? { readonly [Key in keyof T]: DeepReadonly<T[Key]> }
      : T;

/** What a step reads: the state through a read-only lens (a draft's mutators are the only way to change it). */
export type SessionView = DeepReadonly<SessionState>;
export type FormSessionView = DeepReadonly<FormSessionState>;
export type ApplicationSessionView = DeepReadonly<ApplicationSessionState>;
export type FaqSessionView = DeepReadonly<FaqSessionState>;
export type FieldStateView = DeepReadonly<FieldState>;

/** A private, changeable copy of something read from a view. */
export function mutableCopy<T>(view: DeepReadonly<T>): T {
  return structuredClone(view) as T;
}

/** The core of a new session, before its product adds its part: `firstAgent` holds the conversation. */
export function coreSessionState(input: {
  sessionId: string;
  language: 'ja' | 'en' | null;
  firstAgent: AgentName;
  now: string;
}): z.infer<typeof CoreSessionState> {
  return {
    v: 1,
    sessionId: input.sessionId,
    status: 'active',
    currentAgent: input.firstAgent,
    agentStack: [{ agent: input.firstAgent, since: input.now }],
    messages: [],
    bootstrap: {
      language: input.language,
      country: null,
      timezone: null,
      timezoneAsked: false,
      languageFixed: input.language !== null,
      countryUnknown: false,
    },
    startedTurnId: null,
    loop: null,
    subSessionResults: {},
    usage: { ...NO_TOKENS },
    turnUsage: { ...NO_TOKENS },
    createdAt: input.now,
    updatedAt: input.now,
  };
}

/** The single step a session expects next: which agent runs, for which turn. */
export const Step = z.object({ seq: z.number().int().min(1), agent: AgentName, turnId: z.string() });
export type Step = z.infer<typeof Step>;
