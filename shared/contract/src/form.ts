import { z } from 'zod';

/** A form field as the seed's SessionForm defines it. */
export const FormField = z.object({
  id: z.string().min(1).max(200),
  fieldId: z.string().min(1).max(200),
  label: z.string().min(1).max(500),
  intent: z.string().max(2000).nullable().default(null),
  required: z.boolean(),
  sortOrder: z.number().int().default(0),
});
export type FormField = z.infer<typeof FormField>;

/**
 * What kind of value a fact asks for. Optional on a fact (`answerType`): when
 * absent, the reviewer infers it from the fact's and the field's words.
 */
export const AnswerType = z.enum([
  'choice',
  'yes_no',
  'date',
  'time',
  'year',
  'period',
  'duration',
  'number',
  'email',
  'phone',
  'url',
  'postal_code',
  'name',
  'text',
  // A window of two times (`HH:MM/HH:MM`), two dates (`YYYY-MM-DD/YYYY-MM-DD`), a day with a time (`YYYY-MM-DDTHH:MM`).
  'time_range',
  'date_range',
  'datetime',
]);
export type AnswerType = z.infer<typeof AnswerType>;

/** A fact a field must establish, with the criterion for "done". */
export const FactDefinition = z.object({
  id: z.string().min(1).max(200),
  formFieldId: z.string().min(1).max(200),
  factKey: z.string().min(1).max(200),
  fact: z.string().min(1).max(2000),
  doneCriteria: z.string().max(2000).default(''),
  questioningHints: z.string().max(2000).nullable().default(null),
  /** Extension: the kind of value asked for; inferred from the words when absent. */
  answerType: AnswerType.optional(),
  /** Extension: the allowed values of a `choice` (or `yes_no`) fact, as they should be stored. */
  options: z.array(z.string().trim().min(1).max(200)).min(2).max(50).readonly().optional(),
});
export type FactDefinition = z.infer<typeof FactDefinition>;

export const Compliance = z.object({
  prohibitedTopics: z.array(z.string().min(1).max(200)).max(100).optional(),
  maxFollowUpsPerField: z.number().int().min(0).max(10).optional(),
});
export type Compliance = z.infer<typeof Compliance>;

export const SessionForm = z
  .object({
    title: z.string().max(500).default(''),
    fields: z.array(FormField).min(1).max(200),
    facts: z.array(FactDefinition).max(2000).default([]),
    compliance: Compliance.optional(),
  })
  .superRefine((form, ctx) => {
    const ids = new Set<string>();
    const fieldIds = new Set<string>();
    form.fields.forEach((f, i) => {
      if (ids.has(f.id)) ctx.addIssue({ code: 'custom', path: ['fields', i, 'id'], message: `duplicate field id ${f.id}` });
      if (fieldIds.has(f.fieldId))
        ctx.addIssue({ code: 'custom', path: ['fields', i, 'fieldId'], message: `duplicate fieldId ${f.fieldId}` });
      ids.add(f.id);
      fieldIds.add(f.fieldId);
    });
    form.facts.forEach((k, i) => {
      if (!ids.has(k.formFieldId))
        ctx.addIssue({ code: 'custom', path: ['facts', i, 'formFieldId'], message: `unknown formFieldId ${k.formFieldId}` });
    });
  });
export type SessionForm = z.infer<typeof SessionForm>;

/** The architect's plan, as the seed's PlanSchema. */
export const PlanField = z.object({
  field_id: z.string(),
  label: z.string(),
  intent: z.string(),
  required: z.boolean(),
});
export const Plan = z.object({ fields: z.array(PlanField) });
export type Plan = z.infer<typeof Plan>;

/**
 * How a field's value was read from the answer (docs/api.md#certainty):
 * - `verbatim`: the respondent's own words, as written;
 * - `extracted`: a value of the field's kind picked out of a longer reply, as written;
 * - `normalised`: one reading, rewritten in the kind's canonical form (a date, a phone number, a number in words);
 * - `option_exact`: one of the options, named as the form writes it;
 * - `option_loose`: an option named by a part, an abbreviation, a paraphrase or in the other language;
 * - `inferred`: a reading that filled in what was not said (a relative day, am or pm, a month, a polarity read
 *   through a negation);
 * - `conflicting`: one reading among several the reply allows (an explicit date beside a relative one);
 * - `partial`: a part of the reply that may belong to the value was left out (a bracketed reading);
 * - `confirmed`: a reading the respondent confirmed.
 */
export const Derivation = z.enum([
  'verbatim',
  'extracted',
  'normalised',
  'option_exact',
  'option_loose',
  'inferred',
  'conflicting',
  'partial',
  'confirmed',
]);
export type Derivation = z.infer<typeof Derivation>;

/**
 * The reviewer's verdict (seed's ReviewResultSchema, plus `skipped` for a declined optional field, and the certainty
 * of the value: a passed verdict with `confirm` is a reading the respondent is asked to confirm before it is stored).
 */
export const ReviewResult = z.object({
  passed: z.boolean(),
  feedback: z.string().optional(),
  missing_facts: z.array(z.string()).optional(),
  extracted_facts: z.array(z.string()).optional(),
  field_value: z.string().optional(),
  skipped: z.boolean().optional(),
  derivation: Derivation.optional(),
  confirm: z.boolean().optional(),
});
export type ReviewResult = z.infer<typeof ReviewResult>;
