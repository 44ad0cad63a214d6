import { z } from 'zod';
import { Derivation, SessionForm } from './form.js';
import { RunStep } from './run-step.js';
import { AgentName, AuditReport, FieldStatus, SessionKind, SessionStatus, TokenTotals } from './session.js';

/** HTTP bodies of the public contract (docs/api.md, "Sessions and turns"). */
export const CreateSessionBody = z
  .object({
    kind: SessionKind,
    form: SessionForm.optional(),
    options: z
      .object({
        language: z.enum(['ja', 'en', 'auto']).default('auto'),
        referenceDate: z.iso
          .date()
          .describe(
            'Form and application sessions: the day that relative dates in answers ("tomorrow", "next Friday", "the 9th") are read from, in the respondent\'s time zone. Defaults to the day each answer arrives; set it to replay a conversation recorded on another day.',
          ),
      })
      .partial()
      .optional(),
  })
  .superRefine((b, ctx) => {
    if ((b.kind === 'form' || b.kind === 'application') && !b.form)
      ctx.addIssue({ code: 'custom', path: ['form'], message: `form is required for kind ${b.kind}` });
    if (b.kind === 'faq' && b.form) ctx.addIssue({ code: 'custom', path: ['form'], message: 'form must be absent for kind faq' });
  });
export type CreateSessionBody = z.infer<typeof CreateSessionBody>;

export const CreateSessionResponse = z.object({ sessionId: z.string(), token: z.string(), eventsUrl: z.string() });

/** Message length is checked against config (MAX_MESSAGE_CHARS) at the route, so the limit stays configurable. */
export const PostTurnBody = z.object({
  message: z.string().refine((s) => s.trim().length > 0, 'message must not be empty'),
  idempotencyKey: z.string().min(1).max(200).optional(),
  multitask: z.enum(['enqueue', 'reject']).default('enqueue'),
});
export type PostTurnBody = z.infer<typeof PostTurnBody>;
export const PostTurnResponse = z.object({ turnId: z.string(), position: z.number().int() });

export const ErrorResponse = z
  .object({
    error: z.object({
      code: z.string().describe('stable, machine-readable (snake_case)'),
      message: z.string().describe('for people; may change'),
    }),
  })
  .meta({ id: 'Error' });

/** A field of the interview as the snapshot shows it. */
const SnapshotField = z.object({
  fieldId: z.string(),
  label: z.string(),
  required: z.boolean(),
  status: FieldStatus,
  value: z.string().nullable(),
  followUps: z.number().int(),
  skipReason: z.string().nullable(),
  needsReview: z.boolean(),
  toConfirm: z
    .string()
    .nullable()
    .describe(
      'a reading of the answer that was not certain, which the respondent was asked to confirm; stored on a yes (docs/api.md#certainty)',
    ),
  derivation: Derivation.nullable().describe('how the stored value (or the reading to confirm) was read from the answer'),
});

/**
 * GET /v1/sessions/:id and the `resync` event: the whole client-visible state
 * of a session, of any kind (interview parts are empty for FAQ and workbench
 * sessions).
 */
export const SessionSnapshot = z
  .object({
    sessionId: z.string(),
    kind: z.enum([...SessionKind.options, 'workbench']),
    status: SessionStatus,
    currentAgent: AgentName,
    bootstrap: z.object({ language: z.string().nullable(), country: z.string().nullable(), timezone: z.string().nullable() }),
    fields: z.array(SnapshotField),
    collectedFields: z.record(z.string(), z.string()),
    needsReview: z.array(z.string()),
    audit: AuditReport.nullable(),
    messages: z.array(
      z.object({
        messageId: z.string(),
        role: z.enum(['user', 'assistant']),
        agent: AgentName.nullable(),
        text: z.string(),
        createdAt: z.string(),
        fieldId: z.string().nullable(),
      }),
    ),
    /** `active`: the running turn's id; `queued`: turns waiting behind it. */
    turn: z.object({ active: z.string().nullable(), queued: z.number().int() }),
    usage: TokenTotals,
    /** The id of the last stored event: resume the stream after it. */
    lastEventId: z.number().int(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'SessionSnapshot' });
export type SessionSnapshot = z.infer<typeof SessionSnapshot>;

export const SubmitResponse = z.object({
  sessionId: z.string(),
  status: z.literal('submitted'),
  collectedFields: z.record(z.string(), z.string()),
  needsReview: z.array(z.string()),
  audit: AuditReport.nullable(),
});
export type SubmitResponse = z.infer<typeof SubmitResponse>;

export const CancelTurnResponse = z.object({ turnId: z.string(), status: z.enum(['cancelled', 'cancelling']) });

export const RunStepsResponse = z.object({ runSteps: z.array(RunStep) });

export const SessionIdParams = z.object({ id: z.string().min(1).max(100) });
