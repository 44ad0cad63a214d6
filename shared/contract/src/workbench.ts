import { z } from 'zod';
import { JobSchemaVersion, JobTrace } from './jobs.js';

/**
 * The problem workbench (docs/seeds/003): worksheets of ten problems, edited
 * section by section, checked for consistency and scored. These shapes are
 * the HTTP contract (docs/api.md, "5. Workbench") and the workbench session's part.
 */

export const Difficulty = z.enum(['easy', 'normal', 'hard']);
export type Difficulty = z.infer<typeof Difficulty>;
export const WorkbenchLanguage = z.enum(['ja', 'en']);
export type WorkbenchLanguage = z.infer<typeof WorkbenchLanguage>;
export const ProblemType = z.enum(['multiple_choice', 'written']);
export type ProblemType = z.infer<typeof ProblemType>;

/**
 * How a generated problem was made: the generator and its inputs, so the
 * answer can be recomputed after an edit (null for problems a model or a
 * person wrote).
 */
export const ProblemSource = z.object({
  generator: z.string(),
  params: z.record(z.string(), z.unknown()),
  /** Which set of wrong choices the problem was built with: the typical mistakes (absent), the closest ones, or the n-th set along. */
  variant: z.union([z.literal('closest'), z.number().int().min(0)]).optional(),
  /** `context`: the question set in an everyday scene rather than bare numbers. */
  form: z.literal('context').optional(),
});
export type ProblemSource = z.infer<typeof ProblemSource>;

export const Problem = z.object({
  id: z.string(),
  worksheetId: z.string(),
  /** 1-based position in the worksheet. */
  index: z.number().int().min(1),
  type: ProblemType,
  prompt: z.string(),
  /** Multiple choice: exactly four; null for written problems. */
  choices: z.array(z.string()).nullable(),
  correctChoiceIndex: z.number().int().min(0).max(3).nullable(),
  /** Written problems: the model answer and the points a grader looks for. */
  modelAnswer: z.string().nullable(),
  rubric: z.array(z.string()).nullable(),
  explanation: z.string(),
  /** Raised by every edit; a PATCH names the version it was made against. */
  version: z.number().int().min(1),
  source: ProblemSource.nullable(),
});
export type Problem = z.infer<typeof Problem>;

export const EditableField = z.enum(['prompt', 'choices', 'explanation', 'correctChoiceIndex', 'modelAnswer']);
export type EditableField = z.infer<typeof EditableField>;

/**
 * Bounds of what a teacher (or a client) can put into a problem (docs/api.md):
 * a prompt, explanation or model answer of at most PROBLEM_TEXT_MAX_CHARS,
 * four choices of at most CHOICE_MAX_CHARS each; a problem keeps its newest
 * PROBLEM_HISTORY_MAX edits.
 */
export const PROBLEM_TEXT_MAX_CHARS = 4_000;
export const CHOICE_MAX_CHARS = 500;
export const PROBLEM_HISTORY_MAX = 50;

const ProblemText = z.string().max(PROBLEM_TEXT_MAX_CHARS);
const Choices = z.array(z.string().max(CHOICE_MAX_CHARS)).max(4);

/**
 * One change of one field of a problem, kept so it can be shown and undone.
 * A problem rebuilt as a whole (harder, translated, another topic, repaired
 * from its record) changes several fields in one version: their edits share
 * that `version` and are undone together. `rubric` and `source` (how the
 * problem was made) change only that way.
 */
export const ProblemEdit = z.object({
  version: z.number().int(),
  field: z.union([EditableField, z.enum(['rubric', 'source'])]),
  before: z.unknown(),
  after: z.unknown(),
  by: z.enum(['user', 'agent', 'autofix', 'undo']),
  at: z.string(),
});
export type ProblemEdit = z.infer<typeof ProblemEdit>;

export const Worksheet = z.object({
  worksheetId: z.string(),
  title: z.string(),
  subject: z.string(),
  difficulty: Difficulty,
  language: WorkbenchLanguage,
  topic: z.string().nullable(),
  problems: z.array(Problem),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Worksheet = z.infer<typeof Worksheet>;

// --- HTTP bodies (docs/seeds/003 "API仕様詳細") ---

export const CreateWorksheetBody = z.object({
  subject: z.string().trim().min(1).max(100),
  difficulty: Difficulty,
  language: WorkbenchLanguage,
  topic: z.string().trim().min(1).max(200).optional(),
});
export type CreateWorksheetBody = z.infer<typeof CreateWorksheetBody>;

export const PatchProblemBody = z.object({
  field: EditableField,
  value: z
    .union([ProblemText, Choices, z.number().int().min(0).max(3)])
    .describe(
      `a string of at most ${PROBLEM_TEXT_MAX_CHARS} characters (prompt, explanation, modelAnswer), 4 strings of at most ${CHOICE_MAX_CHARS} (choices), or 0–3 (correctChoiceIndex)`,
    ),
  version: z.number().int().min(1),
});
export type PatchProblemBody = z.infer<typeof PatchProblemBody>;

export const ConsistencyIssue = z.object({
  field: z.string(),
  issue: z.string(),
  suggestion: z.string(),
  /** Extension: which check found it, and how serious it is (drives ✅ / ⚠️ / ❌). */
  kind: z.string(),
  severity: z.enum(['error', 'warning']),
});
export type ConsistencyIssue = z.infer<typeof ConsistencyIssue>;

export const CheckConsistencyBody = z
  .object({
    updatedField: z.enum(['prompt', 'choices', 'explanation']),
    newValue: z
      .union([ProblemText, Choices])
      .describe(
        `with updatedField: 4 strings of at most ${CHOICE_MAX_CHARS} characters for \`choices\`, a string of at most ${PROBLEM_TEXT_MAX_CHARS} otherwise`,
      ),
  })
  .partial()
  // A change named without its value (or a value without its field) would check the stored problem and say nothing of the change.
  .superRefine((body, ctx) => {
    if ((body.updatedField === undefined) !== (body.newValue === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: [body.updatedField === undefined ? 'updatedField' : 'newValue'],
        message: 'updatedField and newValue go together',
      });
    } else if (body.updatedField !== undefined && Array.isArray(body.newValue) !== (body.updatedField === 'choices')) {
      ctx.addIssue({
        code: 'custom',
        path: ['newValue'],
        message: body.updatedField === 'choices' ? 'choices takes an array of strings' : `${body.updatedField} takes a string`,
      });
    }
  });
export type CheckConsistencyBody = z.infer<typeof CheckConsistencyBody>;

export const ConsistencyReport = z.object({
  isConsistent: z.boolean(),
  issues: z.array(ConsistencyIssue),
  autoFixAvailable: z.boolean(),
});
export type ConsistencyReport = z.infer<typeof ConsistencyReport>;

export const AutoFixBody = z.object({
  issues: z
    .array(z.object({ field: z.string().max(100), issue: z.string().max(1000) }))
    .max(50)
    .optional(),
});

export const ProblemFixes = z.object({
  choices: z.array(z.string()).optional(),
  explanation: z.string().optional(),
  prompt: z.string().optional(),
  /** Extensions: a marked answer that was wrong is re-marked; a written problem's model answer is rewritten. */
  correctChoiceIndex: z.number().int().min(0).max(3).optional(),
  modelAnswer: z.string().optional(),
  /** A generated problem repaired as a whole from its record also gets the rubric for its numbers. */
  rubric: z.array(z.string()).optional(),
});
export type ProblemFixes = z.infer<typeof ProblemFixes>;

export const AutoFixResponse = z.object({ fixes: ProblemFixes, confidence: z.number().min(0).max(1) });
export type AutoFixResponse = z.infer<typeof AutoFixResponse>;

export const Suggestions = z.object({
  prompt: z.array(z.string()),
  choices: z.array(z.string()).optional(),
  explanation: z.array(z.string()),
});
export type Suggestions = z.infer<typeof Suggestions>;

export const QualityScore = z.object({
  overallScore: z.number().min(0).max(1),
  metrics: z.object({
    clarity: z.number().min(0).max(1),
    difficulty: z.number().min(0).max(1),
    educationalValue: z.number().min(0).max(1),
    consistency: z.number().min(0).max(1),
  }),
});
export type QualityScore = z.infer<typeof QualityScore>;

export const ValidateResponse = z.object({
  problems: z.array(z.object({ id: z.string(), isValid: z.boolean(), issues: z.array(z.string()) })),
  overallScore: z.number().min(0).max(1),
});
export type ValidateResponse = z.infer<typeof ValidateResponse>;

export const AgentRequestBody = z.object({ request: z.string().trim().min(1).max(2000) });

/** The problem-management agent's answer to one request (POST /api/problems/:id/agent). */
export const AgentResult = z.object({
  turnId: z.string(),
  problemId: z.string(),
  request: z.string(),
  intent: z.string(),
  message: z.string(),
  /** The tools run, in order, with what each reported. */
  actions: z.array(z.object({ tool: z.string(), status: z.enum(['success', 'error']), summary: z.string() })),
  before: z.object({ problem: Problem, quality: QualityScore, consistency: ConsistencyReport }),
  after: z.object({ problem: Problem, quality: QualityScore, consistency: ConsistencyReport }),
  /** Fields whose value changed. */
  changed: z.array(z.string()),
});
export type AgentResult = z.infer<typeof AgentResult>;

/** What POST /api/worksheets answers: the worksheet, and the two tokens that open it (shown once; only their hashes are kept). */
export const CreatedWorksheet = Worksheet.extend({
  editToken: z.string().describe('Authorization: Bearer <editToken> reads and changes the worksheet, and deletes it'),
  shareToken: z.string().describe('Authorization: Bearer <shareToken> reads the worksheet, its checks and PDFs, and changes nothing'),
});
export type CreatedWorksheet = z.infer<typeof CreatedWorksheet>;

/**
 * One piece of analysis a request waits for, done by the workbench agent's
 * worker (never on the gateway): a problem's consistency check (of the stored
 * problem, or with one field changed and not saved), its proposed fixes, its
 * suggestions; a worksheet's validation, or one of its PDFs.
 */
export const WorkbenchRequest = z.discriminatedUnion('op', [
  z.object({
    op: z.literal('check'),
    problemId: z.string(),
    change: z.object({ field: z.enum(['prompt', 'choices', 'explanation']), value: z.union([ProblemText, Choices]) }).nullable(),
  }),
  z.object({ op: z.literal('autoFix'), problemId: z.string() }),
  z.object({ op: z.literal('suggest'), problemId: z.string() }),
  z.object({ op: z.literal('validate'), worksheetId: z.string() }),
  z.object({ op: z.literal('pdf'), worksheetId: z.string(), sheet: z.enum(['questions', 'answers']) }),
]);
export type WorkbenchRequest = z.infer<typeof WorkbenchRequest>;

/** Payload of the workbench agent's `request` job (queues/catalog.ts). */
export const WorkbenchRequestJob = z.object({ v: JobSchemaVersion, request: WorkbenchRequest, trace: JobTrace });
export type WorkbenchRequestJob = z.infer<typeof WorkbenchRequestJob>;

/**
 * A request job's return value: the answer (a PDF as base64), or the error the
 * client gets — a request that cannot be served is answered, not failed, so its
 * code reaches the client as it is.
 */
export const WorkbenchRequestResult = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), value: z.unknown() }),
  z.object({ ok: z.literal(false), error: z.object({ code: z.string(), message: z.string(), status: z.number().int() }) }),
]);
export type WorkbenchRequestResult = z.infer<typeof WorkbenchRequestResult>;

/** The workbench session's part: the worksheet once generated, each problem's edits, the agent's recent answers. */
export const WorkbenchState = z.object({
  request: CreateWorksheetBody,
  /** The hash of the read-only share token (CreatedWorksheet); the edit token's is the session's own token hash. */
  shareTokenHash: z.string().nullable().default(null),
  worksheet: Worksheet.nullable(),
  history: z.record(z.string(), z.array(ProblemEdit)),
  results: z.array(AgentResult),
  /** The request the agent is working on in the current turn. */
  active: z
    .object({ turnId: z.string(), problemId: z.string(), request: z.string(), intent: z.string(), section: z.string().nullable() })
    .nullable(),
});
export type WorkbenchState = z.infer<typeof WorkbenchState>;
