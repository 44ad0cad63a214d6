import { z } from 'zod';

/**
 * The problem workbench (docs/seeds/003): worksheets of ten problems, edited
 * section by section, checked for consistency and scored. These shapes are
 * the HTTP contract (docs/API.md §3) and the workbench session's part.
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

/** One change of one problem, kept so it can be shown and undone. */
export const ProblemEdit = z.object({
  version: z.number().int(),
  field: EditableField,
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
  value: z.unknown(),
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
    newValue: z.union([z.string(), z.array(z.string())]).describe('with updatedField: an array of strings for `choices`, a string otherwise'),
  })
  .partial()
  // A change named without its value (or a value without its field) would check the stored problem and say nothing of the change.
  .superRefine((body, ctx) => {
    if ((body.updatedField === undefined) !== (body.newValue === undefined)) {
      ctx.addIssue({ code: 'custom', path: [body.updatedField === undefined ? 'updatedField' : 'newValue'], message: 'updatedField and newValue go together' });
    } else if (body.updatedField !== undefined && Array.isArray(body.newValue) !== (body.updatedField === 'choices')) {
      ctx.addIssue({ code: 'custom', path: ['newValue'], message: body.updatedField === 'choices' ? 'choices takes an array of strings' : `${body.updatedField} takes a string` });
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
  issues: z.array(z.object({ field: z.string(), issue: z.string() })).optional(),
});

export const ProblemFixes = z.object({
  choices: z.array(z.string()).optional(),
  explanation: z.string().optional(),
  prompt: z.string().optional(),
  /** Extensions: a marked answer that was wrong is re-marked; a written problem's model answer is rewritten. */
  correctChoiceIndex: z.number().int().min(0).max(3).optional(),
  modelAnswer: z.string().optional(),
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

/** The workbench session's part: the worksheet once generated, each problem's edits, the agent's recent answers. */
export const WorkbenchState = z.object({
  request: CreateWorksheetBody,
  worksheet: Worksheet.nullable(),
  history: z.record(z.string(), z.array(ProblemEdit)),
  results: z.array(AgentResult),
  /** The request the agent is working on in the current turn. */
  active: z.object({ turnId: z.string(), problemId: z.string(), request: z.string(), intent: z.string(), section: z.string().nullable() }).nullable(),
});
export type WorkbenchState = z.infer<typeof WorkbenchState>;
