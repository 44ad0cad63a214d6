import { z } from 'zod';
import { AGENT_NAMES, type AgentName as AgentNameType } from '../agents-list.js';
import { FaqState } from './faq.js';
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

export const ComplianceState = z.object({
  checks: z.array(z.object({ fieldId: z.string().nullable(), question: z.string(), passed: z.boolean(), violations: z.array(CheckViolation) })),
  failedChecks: z.record(z.string(), z.number().int()),
  volunteered: z.array(z.object({ messageId: z.string(), topics: z.array(z.string()) })),
});
export type ComplianceState = z.infer<typeof ComplianceState>;

/**
 * The seed's MainSessionState, stored as one JSON document per session and
 * changed only by compare-and-set commits that also append its events.
 */
export const SessionState = z.object({
  v: z.literal(1),
  sessionId: z.string(),
  kind: SessionKind,
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
  form: SessionForm.nullable(),
  plan: Plan.nullable(),
  fields: z.array(FieldState),
  currentFieldIndex: z.number().int(),
  collectedFields: z.record(z.string(), z.string()),
  followUpCount: z.number().int(),
  /** The turn whose user message has been added (a rerun must not add it twice). */
  startedTurnId: z.string().nullable(),
  loop: LoopCheckpoint.nullable(),
  subSessionResults: z.record(z.string(), z.unknown()).default({}),
  audit: z.unknown().nullable().default(null),
  /** Application sessions: quick-check history, failed checks per field, prohibited topics the respondent volunteered (masked). */
  compliance: ComplianceState,
  /** FAQ sessions: the dialog context (history with plans) and the results of recent turns. */
  faq: FaqState.nullable().default(null),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type SessionState = z.infer<typeof SessionState>;

/** The single step a session expects next: which agent runs, for which turn. */
export const Step = z.object({ seq: z.number().int().min(1), agent: AgentName, turnId: z.string() });
export type Step = z.infer<typeof Step>;
