import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

/**
 * The evaluation files of eval/forms/<set>/*.json (shape: eval/forms/FORMAT.md).
 * Every file is validated on its own: one that does not parse is reported and
 * skipped, so a set that is still being written can be evaluated.
 */

export const SETS = ['dev', 'heldout'] as const;
export type SetName = (typeof SETS)[number];

export const KINDS = [
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
  // Batch 2 (eval/forms-blind): ranges and compound values, `start/end` and `dateTtime`.
  'time_range',
  'date_range',
  'datetime',
] as const;
export type Kind = (typeof KINDS)[number];

/** Kinds scored by `contains` pieces rather than one canonical value. */
export const CONTAINS_KINDS: ReadonlySet<Kind> = new Set(['period', 'duration', 'text']);

export const STYLES = ['cooperative', 'terse', 'verbose', 'correcting', 'two_at_once', 'unable'] as const;
export type Style = (typeof STYLES)[number];

export const ExpectedStatus = z.enum(['done', 'skipped', 'needs_review']);
export type ExpectedStatus = z.infer<typeof ExpectedStatus>;

export const Expected = z
  .object({
    kind: z.enum(KINDS),
    value: z.string().min(1).optional(),
    contains: z.array(z.string().min(1)).min(1).max(10).optional(),
    status: ExpectedStatus,
  })
  .superRefine((expected, ctx) => {
    // A `done` expectation without its comparison data could only be scored on status, which would inflate accuracy.
    if (expected.status !== 'done') return;
    if (CONTAINS_KINDS.has(expected.kind) && expected.contains === undefined)
      ctx.addIssue({ code: 'custom', path: ['contains'], message: `kind ${expected.kind} needs \`contains\`` });
    if (!CONTAINS_KINDS.has(expected.kind) && expected.value === undefined)
      ctx.addIssue({ code: 'custom', path: ['value'], message: `kind ${expected.kind} needs \`value\`` });
  });
export type Expected = z.infer<typeof Expected>;

export const Correction = z.object({ afterField: z.string().min(1), field: z.string().min(1), message: z.string().min(1) });
export type Correction = z.infer<typeof Correction>;

export const Respondent = z.object({
  id: z.string().min(1),
  style: z.enum(STYLES),
  sessionLanguage: z.enum(['ja', 'en']),
  residence: z.string().min(1),
  replies: z.record(z.string(), z.array(z.string().min(1)).min(1)),
  corrections: z.array(Correction).default([]),
  expected: z.record(z.string(), Expected),
});
export type Respondent = z.infer<typeof Respondent>;

/**
 * Only what the evaluation itself reads of the form; the form is sent to the
 * API exactly as written (see {@link EvalForm.rawForm}), so the API's own
 * validation is what is under test there.
 */
const FormShape = z
  .object({
    title: z.string().optional(),
    fields: z
      .array(
        z.looseObject({
          id: z.string().optional(),
          fieldId: z.string().min(1),
          label: z.string(),
          intent: z.string().nullable().optional(),
          required: z.boolean(),
        }),
      )
      .min(1),
    facts: z
      .array(
        z.looseObject({
          formFieldId: z.string(),
          fact: z.string(),
          doneCriteria: z.string().optional(),
          questioningHints: z.string().nullable().optional(),
          options: z.array(z.string()).optional(),
          id: z.string().optional(),
        }),
      )
      .default([]),
    compliance: z.unknown().optional(),
  })
  .loose();

const FormFile = z.object({
  id: z.string().min(1),
  language: z.enum(['ja', 'en']),
  /** The day the respondent answers (YYYY-MM-DD), for relative dates; batch 2 only. */
  conversationDate: z.iso.date().optional(),
  domain: z.string().optional(),
  form: FormShape,
  respondents: z.array(Respondent).min(1),
});

export interface EvalForm {
  set: SetName;
  file: string;
  id: string;
  language: 'ja' | 'en';
  form: z.infer<typeof FormShape>;
  /** The `form` object exactly as in the file: what POST /v1/sessions receives. */
  rawForm: unknown;
  /** The day the conversations take place: the session's options.referenceDate. */
  conversationDate: string | null;
  respondents: Respondent[];
}

/** A file that could not be used, or a non-fatal inconsistency in one that is used. */
export interface LoadProblem {
  set: SetName;
  file: string;
  fatal: boolean;
  message: string;
}

export interface LoadedSet {
  forms: EvalForm[];
  problems: LoadProblem[];
}

/** Every `*.json` of eval/forms/<set>/, sorted by name; a missing directory is an empty set. */
export function loadSet(root: string, set: SetName): LoadedSet {
  const dir = path.join(root, set);
  if (!existsSync(dir)) return { forms: [], problems: [] };
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort();
  const forms: EvalForm[] = [];
  const problems: LoadProblem[] = [];
  for (const name of files) {
    const loaded = loadFile(path.join(dir, name), set);
    problems.push(...loaded.problems);
    if (loaded.form) forms.push(loaded.form);
  }
  const dup = duplicates(forms.map((f) => f.id));
  for (const id of dup) problems.push({ set, file: id, fatal: false, message: `form id ${id} is used by more than one file` });
  return { forms, problems };
}

export function loadFile(file: string, set: SetName): { form: EvalForm | null; problems: LoadProblem[] } {
  const base = path.basename(file);
  const fail = (message: string) => ({ form: null, problems: [{ set, file: base, fatal: true, message }] });
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    // A held-out file's parse error could quote its text, so say only that it failed.
    return fail(set === 'heldout' ? 'not valid JSON' : `not valid JSON: ${(err as Error).message.slice(0, 160)}`);
  }
  const parsed = FormFile.safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues.slice(0, 5).map((i) => `${i.path.map(String).join('.') || '(root)'}: ${i.message}`);
    const more = parsed.error.issues.length > 5 ? ` (+${parsed.error.issues.length - 5} more)` : '';
    return fail(`invalid: ${issues.join('; ')}${more}`);
  }
  const content = parsed.data;
  const form: EvalForm = {
    set,
    file: base,
    id: content.id,
    language: content.language,
    form: content.form,
    rawForm: (raw as { form: unknown }).form,
    conversationDate: content.conversationDate ?? null,
    respondents: content.respondents,
  };
  return { form, problems: crossCheck(form).map((message) => ({ set, file: base, fatal: false, message })) };
}

/** Inconsistencies that leave the file usable: they are reported, and unscorable fields are left out. */
export function crossCheck(evalForm: EvalForm): string[] {
  const out: string[] = [];
  if (`${evalForm.id}.json` !== evalForm.file) out.push(`id ${evalForm.id} differs from the file name`);
  const fieldIds = new Set(evalForm.form.fields.map((x) => x.fieldId));
  for (const id of duplicates(evalForm.respondents.map((r) => r.id))) out.push(`respondent id ${id} is used twice`);
  for (const respondent of evalForm.respondents) {
    const missing = [...fieldIds].filter((id) => !(id in respondent.expected));
    if (missing.length > 0) out.push(`${respondent.id}: no expectation for ${missing.join(', ')} (not scored)`);
    const unknown = [
      ...Object.keys(respondent.expected),
      ...Object.keys(respondent.replies),
      ...respondent.corrections.flatMap((c) => [c.afterField, c.field]),
    ].filter((id) => !fieldIds.has(id));
    if (unknown.length > 0) out.push(`${respondent.id}: unknown field id(s) ${[...new Set(unknown)].join(', ')}`);
  }
  return out;
}

function duplicates(ids: readonly string[]): string[] {
  const seen = new Set<string>();
  const dup = new Set<string>();
  for (const id of ids) (seen.has(id) ? dup : seen).add(id);
  return [...dup];
}
