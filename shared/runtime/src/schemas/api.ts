import { z } from 'zod';
import { SessionForm } from './form.js';
import { SessionKind } from './session.js';

/** HTTP bodies of the public contract (docs/API.md section 1). */
export const CreateSessionBody = z
  .object({
    kind: SessionKind,
    form: SessionForm.optional(),
    options: z.object({ language: z.enum(['ja', 'en', 'auto']).default('auto') }).partial().optional(),
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

export const ErrorResponse = z.object({ error: z.object({ code: z.string(), message: z.string() }) });

export const SessionIdParams = z.object({ id: z.string().min(1).max(100) });
