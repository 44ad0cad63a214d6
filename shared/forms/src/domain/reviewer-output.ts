import { AnswerType, Derivation } from '@convo/contract';
import { z } from 'zod';

/**
 * What the reviewer hands back, as data. The interviewer (offline policy or
 * model) acts on these fields, never on the sentences in `note`, `notice.text`
 * or `feedback`: those are written for the respondent and for logs, in any
 * wording, and rewording them changes no follow-up.
 *
 * These are wire schemas (docs/seeds/004): every property present, optional
 * ones nullable, no transforms, so the model's `review` tool parameters are
 * generated from {@link ReviewerVerdict} itself.
 */

/**
 * Why a fact is not established yet:
 * - `absent`: nothing was said about it;
 * - `not_found`: no value of its kind was found in the answer (no email address, no date);
 * - `too_brief`: it was touched on, too briefly to count ("stuff");
 * - `too_vague`: something was said without what the fact asks ("a little", a name with no number or code);
 * - `conflicting`: several values were offered ("2012? Or 2013?");
 * - `invalid`: a value was given that is not valid or not complete (a date without its year, half a name, not one of the options).
 */
export const MissingReason = z.enum(['absent', 'not_found', 'too_brief', 'too_vague', 'conflicting', 'invalid']);
export type MissingReason = z.infer<typeof MissingReason>;

/** One fact the answers do not establish, and why. */
export const MissingFact = z.object({
  fact: z.string().describe('The fact, exactly as the field lists it.'),
  reason: MissingReason.describe(
    'absent: nothing said about it; not_found: no value of its kind in the answer; too_brief: touched on too briefly; too_vague: said without what it asks; conflicting: several values offered; invalid: a value that is not valid or complete.',
  ),
  kind: AnswerType.describe("The fact's kind as judged (text for free text)."),
  heard: z.string().nullable().describe('What the respondent said for this fact, as written; null when nothing.'),
  options: z.array(z.string()).describe('The values they hesitated between, or the choices to pick from; otherwise [].'),
  note: z
    .string()
    .nullable()
    .describe(
      'One short sentence for the respondent about this fact, in the session language; null when there is nothing to add to asking for it.',
    ),
});
export type MissingFact = z.infer<typeof MissingFact>;

/**
 * Why the answer, as a whole, could not count, said before the missing facts:
 * - `required_no_skip`: a required question the respondent asked to skip;
 * - `required_approximate_ok`: a required question they could not answer (an approximate answer is fine);
 * - `optional_may_skip`: an optional question they could not answer (it may be skipped).
 */
export const ReviewNoticeCode = z.enum(['required_no_skip', 'required_approximate_ok', 'optional_may_skip']);
export type ReviewNoticeCode = z.infer<typeof ReviewNoticeCode>;

export const ReviewNotice = z.object({
  code: ReviewNoticeCode,
  text: z.string().describe('The same, said to the respondent in the session language.'),
});
export type ReviewNotice = z.infer<typeof ReviewNotice>;

/** The reviewer's verdict on a field's answers: the `review` tool's input, from the offline rules or a model. */
export const ReviewerVerdict = z.object({
  passed: z.boolean(),
  skipped: z.boolean().nullable().describe('true only when the respondent declined an optional field'),
  field_value: z
    .string()
    .nullable()
    .describe('The value to store when passed: the normalised value of a single typed fact, otherwise the answer text.'),
  missing: z.array(MissingFact).nullable().describe('Every fact still missing, each with why; [] or null when passed.'),
  extracted_facts: z.array(z.string()).nullable().describe('"factKey: value" for each fact established.'),
  derivation: Derivation.nullable().describe(
    'How field_value was read: verbatim, extracted (picked out of a longer reply as written), normalised, option_exact, option_loose (an option named by a part, an abbreviation, a paraphrase or in the other language), inferred (you filled in something not said: am/pm, a month, a relative day), conflicting (one of several readings), partial (part of the reply left out), confirmed; null when not passed.',
  ),
  certain: z
    .boolean()
    .nullable()
    .describe('false when field_value is not exactly what the respondent said and could be wrong: they will be asked to confirm it.'),
  notice: ReviewNotice.nullable().describe('Set when the answer was a refusal or "I don\'t know"; otherwise null.'),
  feedback: z
    .string()
    .nullable()
    .describe('The verdict in a sentence or two, in the session language (for logs; the follow-up is built from the fields above).'),
});
export type ReviewerVerdict = z.infer<typeof ReviewerVerdict>;

/** What the code did with a verdict (form-flow.applyReview). */
export const ReviewOutcomeKind = z.enum(['done', 'confirm', 'skipped', 'follow_up', 'needs_review', 'corrected', 'correction_rejected']);
export type ReviewOutcomeKind = z.infer<typeof ReviewOutcomeKind>;

/**
 * The reviewer sub-agent's result, as the interviewer receives it (the
 * subtask's `reviewerAgentOutput`): the verdict as recorded (nulls resolved)
 * and what the code made of it.
 */
export const ReviewerOutput = z.object({
  fieldId: z.string(),
  outcome: ReviewOutcomeKind,
  /** The follow-up this verdict leads to is the field's last. */
  finalAttempt: z.boolean(),
  passed: z.boolean(),
  skipped: z.boolean(),
  field_value: z.string().nullable(),
  missing: z.array(MissingFact),
  extracted_facts: z.array(z.string()),
  notice: ReviewNotice.nullable(),
  feedback: z.string().nullable(),
  /** How the value was read, and whether the respondent is asked to confirm it (outcome `confirm`). */
  derivation: Derivation.nullable(),
});
export type ReviewerOutput = z.infer<typeof ReviewerOutput>;
