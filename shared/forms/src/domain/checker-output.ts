import { CheckViolation } from '@convo/contract';
import { z } from 'zod';

/**
 * What the quick-check hands back, as data (docs/seeds/001). Wire schemas:
 * every property present, optional ones nullable, no transforms.
 */

/** The checker's verdict on one question: the `result` tool's input (the seed's QuickCheckResultSchema, `violations` nullable). */
export const CheckerVerdict = z.object({
  passed: z.boolean(),
  violations: z.array(CheckViolation).nullable(),
});
export type CheckerVerdict = z.infer<typeof CheckerVerdict>;

/**
 * The checker sub-agent's result, as the interviewer receives it (the
 * subtask's `checkerAgentOutput`): the verdict as recorded, with the rule
 * floor applied (compliance-flow.applyCheck), and what it means for the field.
 */
export const CheckerOutput = z.object({
  /** The exact text that was checked: only this text may be sent when it passed. */
  question: z.string(),
  fieldId: z.string().nullable(),
  passed: z.boolean(),
  violations: z.array(CheckViolation),
  /** Failed checks of this field (or of the closing message) so far; 0 when it passed. */
  attempts: z.number().int(),
  /** Every rephrasing failed: the field was skipped for compliance and will not be asked. */
  fieldSkipped: z.boolean(),
});
export type CheckerOutput = z.infer<typeof CheckerOutput>;
