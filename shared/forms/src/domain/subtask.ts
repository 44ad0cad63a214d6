import type { FormSessionView } from '@convo/contract';
import { z } from 'zod';

/**
 * The interviewer's `subtask` tool input: the one schema of the call that hands
 * a field to the reviewer or a question to the checker. The sub-agents read
 * the suspended call's arguments through it (pendingSubtask), never as an
 * untyped JSON cast.
 */
export const SubtaskInput = z.object({
  agent: z
    .enum(['reviewer', 'checker'])
    .describe("'reviewer' after the respondent answered; 'checker' (application interviews) to quick-check a question before asking it."),
  field_id: z.union([z.string(), z.null()]).describe('The current field (null only for the closing message).'),
  question: z.union([z.string(), z.null()]).describe("For 'checker': the exact text you intend to send with ask. Otherwise null."),
  note: z.union([z.string(), z.null()]).describe('Anything the sub-agent should know, or null.'),
});
export type SubtaskInput = z.infer<typeof SubtaskInput>;

/** Reading a stored call tolerates absent fields: a call suspended by an older version may lack one. */
const StoredSubtaskArguments = SubtaskInput.partial();

/**
 * The suspended `subtask` call of a session's loop: its id and arguments, each
 * argument null when absent. Arguments that are not JSON or not of the schema
 * read as all null (the call passed the tool's own validation when it was
 * made, so that is only a call stored by another version).
 */
export function pendingSubtask(
  state: Pick<FormSessionView, 'loop'>,
): { callId: string; fieldId: string | null; question: string | null; note: string | null } | null {
  const call = state.loop?.pendingCall;
  if (!call) return null;
  let args: z.infer<typeof StoredSubtaskArguments> = {};
  try {
    const parsed = StoredSubtaskArguments.safeParse(JSON.parse(call.arguments));
    if (parsed.success) args = parsed.data;
  } catch {
    // Not JSON: every argument absent.
  }
  return { callId: call.id, fieldId: args.field_id ?? null, question: args.question ?? null, note: args.note ?? null };
}
