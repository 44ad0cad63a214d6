import {
  conversationMessages,
  createAgent,
  createAskTool,
  createTool,
  failure,
  type LlmProvider,
  loopStepHandler,
  success,
  type ToolContext,
} from '@convo/agent-kit';
import type { WorkbenchDraft } from '@convo/workbench';
import { type StepContext, type StepHandler, type StepOutcome, SystemError } from '@convo/runtime';
import { type AgentResult, type EditableField, event, type Problem, type WorkbenchSessionView } from '@convo/contract';
import {
  analyzeIntent,
  applyEdit,
  assessProblem,
  autoFix,
  consistencyReport,
  generateOfflineWorksheet,
  qualityFor,
  ruleEdit,
  type EditOutcome,
  changesTo,
  COMBINABLE_INTENTS,
  remakeFor,
  remakeProblem,
  suggestionsFor,
  validateEditValue,
} from '@convo/workbench';
import { z } from 'zod';
import type { WorkbenchContext } from './context.js';
import { WORKBENCH_PROMPT } from './prompt.js';

/** How many of the agent's answers a worksheet keeps (the newest). */
const MAX_RESULTS = 20;

type Active = NonNullable<WorkbenchSessionView['workbench']['active']>;

function activeOf(draft: WorkbenchDraft): Active {
  const active = draft.state.workbench.active;
  if (!active) throw new SystemError('the workbench agent runs without a request');
  return active;
}

function currentProblem(draft: WorkbenchDraft): Problem {
  const { problemId } = activeOf(draft);
  const problem = draft.state.workbench.worksheet?.problems.find((candidate) => candidate.id === problemId);
  if (!problem) throw new SystemError(`problem ${problemId} is not in this worksheet`);
  return structuredClone(problem) as Problem;
}

const languageOf = (draft: WorkbenchDraft) => draft.state.workbench.worksheet?.language ?? 'en';

const qualityOf = (problem: Problem, draft: WorkbenchDraft) => qualityFor(problem, draft.state.workbench.worksheet!);

/** Text for the teacher, in the sheet's language (the tools' result messages are for the model). */
function say(draft: WorkbenchDraft, ja: string, en: string): string {
  return languageOf(draft) === 'ja' ? ja : en;
}

const FIELD_NAMES: Record<string, { ja: string; en: string }> = {
  prompt: { ja: '問題文', en: 'prompt' },
  choices: { ja: '選択肢', en: 'choices' },
  correctChoiceIndex: { ja: '正解の印', en: 'correct choice' },
  explanation: { ja: '解説', en: 'explanation' },
  modelAnswer: { ja: '模範解答', en: 'model answer' },
};

/** A problem's field as the teacher calls it, in the sheet's language. */
export function fieldLabel(field: string, language: 'ja' | 'en'): string {
  return FIELD_NAMES[field]?.[language] ?? field;
}

/** What a tool did, for the teacher: the `workbench.step` event, and the agent result's `actions`. */
function step(draft: WorkbenchDraft, tool: string, status: 'success' | 'error', summary: string): void {
  const active = activeOf(draft);
  draft.emit(event('workbench.step', { turnId: active.turnId, problemId: active.problemId, tool, status, summary }));
}

const Section = z.enum(['prompt', 'choices', 'explanation']);

export const editor = createTool({
  name: 'editor',
  description:
    'Edit one section of the problem. Give new_value (choices: all four) to set it yourself, or null to apply the instruction with the rule-based editor.',
  schema: z.object({
    field: Section,
    instruction: z.string().describe('What to change, in the teacher’s words or yours.'),
    new_value: z.union([z.string(), z.array(z.string()), z.null()]).describe('The new text (or four choices), or null.'),
    intent: z
      .enum(COMBINABLE_INTENTS)
      .nullable()
      .describe('Which edit of the instruction to make, when it asks for several (otherwise read from the instruction).'),
  }),
  async execute(args, { draft }: ToolContext<WorkbenchDraft>) {
    const problem = currentProblem(draft);
    const language = languageOf(draft);
    const sheet = draft.state.workbench.worksheet!;
    const intent = args.intent ?? analyzeIntent(args.instruction).intent;
    // A whole problem rebuilt from its record: harder, easier, translated, another topic, other wrong choices.
    const remake = args.new_value === null ? remakeFor(intent, args.instruction, problem, language, args.field) : null;
    if (remake) {
      const outcome = await remakeProblem(problem, sheet, remake);
      if (outcome.kind === 'refused') return notDone(draft, args.field, outcome.reason);
      const changes = changesTo(problem, outcome.problem as Problem);
      const next = applyEdit(draft, problem, changes, 'agent');
      const fields = changes.map((change) => change.field).filter((field) => field !== 'source');
      step(draft, 'editor', 'success', outcome.change);
      return {
        result: success(`Rebuilt the problem (${outcome.change}); changed ${fields.join(', ')}.`, {
          problemId: next.id,
          version: next.version,
          fields,
          changes: [outcome.change],
        }),
      };
    }
    const edit: EditOutcome =
      args.new_value !== null
        ? { kind: 'edited', field: args.field, value: args.new_value, changes: [args.instruction] }
        : ruleEdit(problem, args.field, intent, language);
    if (edit.kind === 'refused') return notDone(draft, args.field, edit.reason);
    const problemError = validateEditValue(problem, edit.field, edit.value);
    if (problemError) return { result: failure(problemError) };
    const next = applyEdit(draft, problem, { field: edit.field, value: edit.value }, 'agent');
    step(draft, 'editor', 'success', edit.changes.join('; '));
    // Minimal, as seed 004 asks: what changed, for the model; the teacher's page reads the problem itself.
    return {
      result: success(`Edited ${edit.field}: ${edit.changes.join('; ')}`, {
        problemId: next.id,
        version: next.version,
        fields: [edit.field],
        changes: edit.changes,
      }),
    };
  },
});

/** Not done, and said so: the reason is in the sheet's language, for the teacher; the model is told to write the text itself. */
function notDone(draft: WorkbenchDraft, field: string, reason: string) {
  step(draft, 'editor', 'error', reason);
  return {
    result: {
      status: 'error' as const,
      result: {
        message: `The rule-based editor did not change ${field}: ${reason} Write the new text in new_value, or choose another section.`,
        notDone: reason,
      },
    },
  };
}

export const consistencyChecker = createTool({
  name: 'consistency_checker',
  description: "Check the problem's logical consistency.",
  schema: z.object({}),
  async execute(_args, { draft }: ToolContext<WorkbenchDraft>) {
    const report = await consistencyReport(currentProblem(draft), languageOf(draft));
    const errors = report.issues.filter((issue) => issue.severity === 'error');
    const summary = report.isConsistent ? 'consistent' : errors.map((issue) => issue.issue).join(' ');
    step(
      draft,
      'consistency_checker',
      'success',
      report.isConsistent ? say(draft, '整合性に問題はありません。', 'No consistency issues.') : summary,
    );
    const score = Math.max(0, 1 - 0.3 * errors.length - 0.1 * (report.issues.length - errors.length));
    // Minimal (seed 004): the verdict and the problem's id; what is wrong is in the message, for the model.
    return {
      result: success(report.isConsistent ? 'Consistent.' : `Not consistent: ${summary}`, {
        problemId: activeOf(draft).problemId,
        isConsistent: report.isConsistent,
        errors: errors.length,
        score,
      }),
    };
  },
});

export const suggestionGenerator = createTool({
  name: 'suggestion_generator',
  description: 'Generate four short improvement ideas per section.',
  schema: z.object({}),
  async execute(_args, { draft }: ToolContext<WorkbenchDraft>) {
    const ideas = await suggestionsFor(currentProblem(draft), draft.state.workbench.worksheet!);
    step(draft, 'suggestion_generator', 'success', [...ideas.prompt, ...(ideas.choices ?? []), ...ideas.explanation].join(' / '));
    return { result: success('Suggestions generated.', { ...ideas }) };
  },
});

export const autoFixer = createTool({
  name: 'auto_fixer',
  description: 'Fix the issues the consistency checker finds; the fixes are applied.',
  schema: z.object({}),
  async execute(_args, { draft }: ToolContext<WorkbenchDraft>) {
    let problem = currentProblem(draft);
    const { fixes, confidence, fixed } = await autoFix(problem, languageOf(draft));
    const fields = Object.entries(fixes) as Array<[EditableField, unknown]>;
    if (fields.length === 0) {
      step(draft, 'auto_fixer', 'error', say(draft, '自動では直せませんでした。', 'Nothing could be fixed automatically.'));
      return { result: failure('No automatic fix is available for this problem.') };
    }
    problem = applyEdit(
      draft,
      problem,
      fields.map(([field, value]) => ({ field, value })),
      'autofix',
    );
    const changedFields = fields.map(([field]) => fieldLabel(field, languageOf(draft))).join(say(draft, '、', ', '));
    step(draft, 'auto_fixer', 'success', say(draft, `自動修正: ${changedFields}`, `Fixed automatically: ${changedFields}`));
    return {
      result: success(`Fixed ${fields.map(([field]) => field).join(', ')} (${fixed.join(', ')}).`, {
        problemId: problem.id,
        version: problem.version,
        fields: fields.map(([field]) => field),
        confidence,
      }),
    };
  },
});

export const qualityScorer = createTool({
  name: 'quality_scorer',
  description: "Score the problem's quality: clarity, difficulty, educational value, consistency (0–1).",
  schema: z.object({}),
  async execute(_args, { draft }: ToolContext<WorkbenchDraft>) {
    const score = await qualityOf(currentProblem(draft), draft);
    step(draft, 'quality_scorer', 'success', say(draft, `品質スコア ${score.overallScore}`, `Quality score ${score.overallScore}`));
    return { result: success(`Overall quality ${score.overallScore}.`, { ...score }) };
  },
});

const answer = createAskTool();

/**
 * The tools run this turn, as the teacher sees them: each run step with the
 * summary its tool wrote for the teacher (the `workbench.step` events, in the
 * sheet's language), not the result message written for the model; the final
 * `ask` with the agent's answer.
 */
function teacherActions(draft: WorkbenchDraft, turnId: string): AgentResult['actions'] {
  const summaries = draft.events
    .filter((emitted) => emitted.type === 'workbench.step' && (emitted.data as { turnId?: string }).turnId === turnId)
    .map((emitted) => emitted.data as { tool: string; summary: string });
  const answer = draft.state.messages.filter((message) => message.role === 'assistant' && message.turnId === turnId).at(-1)?.text ?? '';
  return draft.runSteps.map((run) => {
    const status = (run.output as { status?: string }).status === 'success' ? ('success' as const) : ('error' as const);
    const index = summaries.findIndex((entry) => entry.tool === run.toolName);
    const summary = index >= 0 ? summaries.splice(index, 1)[0]!.summary : run.toolName === 'ask' ? answer : '';
    return { tool: run.toolName, status, summary };
  });
}

export function workbenchContext(draft: WorkbenchDraft): WorkbenchContext {
  const sheet = draft.state.workbench.worksheet!;
  const active = activeOf(draft);
  return {
    agent: 'workbench',
    language: sheet.language,
    subject: sheet.subject,
    difficulty: sheet.difficulty,
    request: active.request,
    intent: active.intent,
    section: (active.section as WorkbenchContext['section']) ?? null,
    problem: currentProblem(draft),
    quality: null,
  };
}

export const workbenchAgent = createAgent<WorkbenchDraft>({
  name: 'workbench',
  tools: [editor, consistencyChecker, suggestionGenerator, autoFixer, qualityScorer, answer],
  instructions: () => WORKBENCH_PROMPT,
  // The teacher's request is their own message; the state carries the rest (the problem changes as tools edit it).
  state: (draft) => {
    const { request: _request, ...rest } = workbenchContext(draft);
    return `Problem and request settings:\n${JSON.stringify(rest)}`;
  },
  context: workbenchContext,
  remainingTasks: () => ['Finish with ask: a short summary for the teacher'],
  // The turn ends through ask.
  completion: () => null,
  initialMessages: (draft) => [...conversationMessages(draft).slice(-1)],
});

export type WorkbenchDeps = { llm: LlmProvider; model: string; maxTurns: number; generate?: (draft: WorkbenchDraft) => Promise<void> };

/**
 * The workbench's step: the session's first run generates the worksheet;
 * every later turn is one request about one problem (turn options name it),
 * answered by the agent's tool loop and recorded with the problem before and
 * after, its consistency report and quality score.
 */
export function createWorkbenchHandler(deps: WorkbenchDeps): StepHandler<WorkbenchDraft> {
  const loop = loopStepHandler(workbenchAgent, deps);
  return async (ctx: StepContext<WorkbenchDraft>): Promise<StepOutcome> => {
    const draft = ctx.draft;
    if (!draft.state.workbench.worksheet) {
      if (deps.generate) await deps.generate(draft);
      else {
        const sheet = await generateOfflineWorksheet(draft.state.sessionId, mutableRequest(draft), draft.now());
        draft.updateWorkbench((workbench) => (workbench.worksheet = sheet));
      }
      draft.emit(event('workbench.result', { turnId: ctx.turn.turnId, problemId: null, worksheetId: draft.state.sessionId }));
      return { kind: 'end' };
    }
    const problemId = typeof ctx.turnOptions?.problemId === 'string' ? ctx.turnOptions.problemId : null;
    const request = ctx.turn.message ?? '';
    const { intent, section } = analyzeIntent(request);
    if (!problemId || !draft.state.workbench.worksheet.problems.some((problem) => problem.id === problemId))
      throw new SystemError(`workbench turn ${ctx.turn.turnId} names no problem of this worksheet`);
    draft.updateWorkbench((workbench) => (workbench.active = { turnId: ctx.turn.turnId, problemId, request, intent, section }));
    const before = currentProblem(draft);
    const sheet = draft.state.workbench.worksheet;
    const beforeView = { problem: before, ...(await assessProblem(before, sheet)) };
    await loop(ctx);
    const after = currentProblem(draft);
    const result: AgentResult = {
      turnId: ctx.turn.turnId,
      problemId,
      request,
      intent,
      message:
        draft.state.messages.filter((message) => message.role === 'assistant' && message.turnId === ctx.turn.turnId).at(-1)?.text ?? '',
      actions: teacherActions(draft, ctx.turn.turnId),
      before: beforeView,
      after: { problem: after, ...(await assessProblem(after, sheet)) },
      changed: (['prompt', 'choices', 'correctChoiceIndex', 'explanation', 'modelAnswer'] as const).filter(
        (field) => JSON.stringify(before[field]) !== JSON.stringify(after[field]),
      ),
    };
    // additionalData: what the teacher's page shows with the answer, baked into it; the tools' inputs and outputs stay in run steps.
    const reply = draft.state.messages.filter((message) => message.role === 'assistant' && message.turnId === ctx.turn.turnId).at(-1);
    if (reply) {
      const suggested = draft.runSteps.some((run) => run.toolName === suggestionGenerator.name && run.turnId === ctx.turn.turnId);
      draft.setMessageData(reply.messageId, {
        problemId,
        version: after.version,
        changed: result.changed,
        consistent: result.after.consistency.isConsistent,
        quality: { before: result.before.quality.overallScore, after: result.after.quality.overallScore },
        ...(suggested ? { suggestions: await suggestionsFor(after, sheet) } : {}),
      });
    }
    draft.updateWorkbench((workbench) => {
      workbench.results = [...workbench.results.filter((entry) => entry.turnId !== result.turnId), result].slice(-MAX_RESULTS);
      workbench.active = null;
    });
    draft.emit(event('workbench.result', { turnId: ctx.turn.turnId, problemId, worksheetId: draft.state.sessionId }));
    return { kind: 'end' };
  };
}

function mutableRequest(draft: WorkbenchDraft) {
  const request = draft.state.workbench.request;
  return {
    subject: request.subject,
    difficulty: request.difficulty,
    language: request.language,
    ...(request.topic ? { topic: request.topic } : {}),
  };
}
