import { type LlmMessage, type LlmProvider, parseAndValidateToolArgs, toolSpec } from '@convo/agent-kit';
import { ModelBehaviorError } from '@convo/runtime';
import type { Problem } from '@convo/contract';
import { assembleWorksheet, autoFix, checkProblem, MULTIPLE_CHOICE_COUNT, WRITTEN_COUNT, type WorkbenchDraft } from '@convo/workbench';
import { z } from 'zod';

/**
 * Generation by the model (docs/seeds/003 "問題生成"): the model submits ten
 * problems through a tool with a zod-validated input; each is checked by the
 * consistency checker; what the auto-fixer can fix is fixed, and the problems
 * still faulty are asked for again (bounded), with the checker's findings.
 */

/** Tool input (docs/seeds/004): every field present, nullable instead of optional. */
const ModelProblem = z.object({
  type: z.enum(['multiple_choice', 'written']),
  prompt: z.string().min(1),
  choices: z.union([z.array(z.string()), z.null()]).describe('multiple_choice: exactly four; written: null'),
  correct_choice_index: z.union([z.number().int().min(0).max(3), z.null()]),
  model_answer: z.union([z.string(), z.null()]).describe('written: the model answer; multiple_choice: null'),
  rubric: z.union([z.array(z.string()), z.null()]).describe('written: the points a grader looks for'),
  explanation: z.string().min(1),
});
type ModelProblem = z.infer<typeof ModelProblem>;

export const SubmitWorksheetInput = z.object({ problems: z.array(ModelProblem) });
export const SubmitProblemsInput = z.object({ problems: z.array(ModelProblem.extend({ index: z.number().int().min(1).max(10) })) });

/** Tool input → internal problem (the explicit transform of docs/seeds/004). */
export function toGeneratedProblem(input: ModelProblem): Omit<Problem, 'id' | 'worksheetId' | 'index' | 'version'> {
  const choice = input.type === 'multiple_choice';
  return {
    type: input.type,
    prompt: input.prompt.trim(),
    choices: choice ? (input.choices ?? []).map((text) => text.trim()) : null,
    correctChoiceIndex: choice ? input.correct_choice_index : null,
    modelAnswer: choice ? null : (input.model_answer ?? '').trim(),
    rubric: choice ? null : (input.rubric ?? []),
    explanation: input.explanation.trim(),
    source: null,
  };
}

/** What is wrong with a submitted problem's shape, or null. */
function shapeProblem(problem: ModelProblem, position: number): string | null {
  const expected = position < MULTIPLE_CHOICE_COUNT ? 'multiple_choice' : 'written';
  if (problem.type !== expected) return `problem ${position + 1} must be ${expected}`;
  if (expected === 'multiple_choice' && (problem.choices?.length !== 4 || problem.correct_choice_index === null))
    return `problem ${position + 1} needs exactly four choices and correct_choice_index`;
  if (expected === 'written' && (!problem.model_answer?.trim() || !problem.rubric?.length))
    return `problem ${position + 1} needs model_answer and rubric`;
  return null;
}

const MAX_ATTEMPTS = 3;

export function modelGenerator(deps: { llm: LlmProvider; model: string }) {
  return async (draft: WorkbenchDraft): Promise<void> => {
    const request = draft.state.workbench.request;
    const language = request.language;
    const system = `You write school worksheets. Submit exactly ${MULTIPLE_CHOICE_COUNT + WRITTEN_COUNT} problems with submit_worksheet: first ${MULTIPLE_CHOICE_COUNT} multiple_choice (four choices, one correct, distractors from typical mistakes), then ${WRITTEN_COUNT} written (model answer and a grading rubric). Every problem has an explanation that leads to the correct answer. Language: ${language === 'ja' ? 'Japanese' : 'English'}.`;
    const user = `Subject: ${request.subject}. Difficulty: ${request.difficulty}.${request.topic ? ` Topic: ${request.topic}.` : ''}`;
    const messages: LlmMessage[] = [
      { role: 'system', content: system },
      { role: 'user', content: user },
    ];
    let problems: ModelProblem[] | null = null;
    for (let attempt = 0; attempt < MAX_ATTEMPTS && !problems; attempt++) {
      const reply = await deps.llm.chat({
        agent: 'workbench',
        model: deps.model,
        messages,
        tools: [toolSpec('submit_worksheet', 'Submit the worksheet.', SubmitWorksheetInput)],
        context: { request },
      });
      const callArgs = reply.toolCalls[0];
      const parsed = callArgs
        ? parseAndValidateToolArgs(callArgs.arguments, SubmitWorksheetInput, 'submit_worksheet')
        : { success: false as const, error: 'Call submit_worksheet.' };
      const problem = parsed.success
        ? parsed.data.problems.length === 10
          ? parsed.data.problems.map(shapeProblem).find(Boolean)
          : `submit exactly 10 problems, not ${parsed.data.problems.length}`
        : parsed.error;
      if (parsed.success && !problem) problems = parsed.data.problems;
      else {
        messages.push(
          { role: 'assistant', content: reply.content, toolCalls: reply.toolCalls },
          ...reply.toolCalls.map((toolCall) => ({
            role: 'tool' as const,
            toolCallId: toolCall.id,
            name: toolCall.name,
            content: JSON.stringify({ status: 'error', result: { message: problem } }),
          })),
        );
        if (reply.toolCalls.length === 0) messages.push({ role: 'user', content: String(problem) });
      }
    }
    if (!problems) throw new ModelBehaviorError('the model did not submit a valid worksheet');
    const sheet = assembleWorksheet(draft.state.sessionId, request, problems.map(toGeneratedProblem), draft.now());
    sheet.problems = await repaired(sheet.problems, language, deps, messages);
    draft.updateWorkbench((workbench) => (workbench.worksheet = sheet));
  };
}

/** Faulty problems fixed by the auto-fixer, else asked for again with what the checker found (one round). */
async function repaired(
  problems: Problem[],
  language: 'ja' | 'en',
  deps: { llm: LlmProvider; model: string },
  messages: LlmMessage[],
): Promise<Problem[]> {
  const out = [...problems];
  const faulty: Array<{ index: number; issues: string[] }> = [];
  for (const [position, problem] of out.entries()) {
    const facts = await checkProblem(problem, language);
    if (!facts.issues.some((issue) => issue.severity === 'error')) continue;
    const fix = await autoFix(problem, language, facts);
    const fixed = { ...problem, ...fix.fixes };
    if (Object.keys(fix.fixes).length > 0 && !(await checkProblem(fixed, language)).issues.some((issue) => issue.severity === 'error'))
      out[position] = fixed;
    else faulty.push({ index: problem.index, issues: facts.issues.map((issue) => issue.issue) });
  }
  if (faulty.length === 0) return out;
  const request = [
    ...messages,
    {
      role: 'user' as const,
      content: `These problems are faulty; submit replacements with submit_problems (same index and type):\n${JSON.stringify(faulty)}`,
    },
  ];
  const reply = await deps.llm.chat({
    agent: 'workbench',
    model: deps.model,
    messages: request,
    tools: [toolSpec('submit_problems', 'Submit replacement problems.', SubmitProblemsInput)],
    context: { faulty },
  });
  const parsed = reply.toolCalls[0] ? parseAndValidateToolArgs(reply.toolCalls[0].arguments, SubmitProblemsInput, 'submit_problems') : null;
  if (!parsed?.success) return out;
  for (const replacement of parsed.data.problems) {
    const position = out.findIndex((problem) => problem.index === replacement.index);
    if (position < 0 || shapeProblem(replacement, position)) continue;
    out[position] = { ...out[position]!, ...toGeneratedProblem(replacement) };
  }
  return out;
}
