import { type AgentDefinition, createAgent, createTool, failure, success } from '@convo/agent-kit';
import type { ToolContext } from '@convo/agent-kit';
import type { ApplicationDraft } from '@convo/forms';
import type { CheckerContext } from './context.js';
import { applyCheck, CheckerVerdict, currentField, formField, pendingSubtask, subAgentResult } from '@convo/forms';
import { CHECKER_PROMPT } from './prompt.js';

/** What the interviewer asked to have checked: the `subtask` call's own arguments. */
export function pendingQuestion(draft: ApplicationDraft): { callId: string; fieldId: string | null; question: string } | null {
  const call = pendingSubtask(draft.state);
  return call?.question ? { callId: call.callId, fieldId: call.fieldId, question: call.question.trim() } : null;
}

/**
 * The verdict tool's identity (its instances differ only in the rephrasing bound), for the offline policy. Its input
 * is the forms product's CheckerVerdict (the seed's QuickCheckResultSchema, `violations` nullable, docs/seeds/004).
 */
export const CHECK_RESULT_TOOL = { name: 'result', schema: CheckerVerdict } as const;

function createResultTool(maxRephrasings: number) {
  return createTool({
    ...CHECK_RESULT_TOOL,
    description: 'Return your quick-check verdict on the question.',
    execute(args, context: ToolContext<ApplicationDraft>) {
      const { log } = context;
      const draft = context.draft;
      const pending = pendingQuestion(draft);
      if (!pending) return { result: failure('There is no question under check.') };
      if (pending.callId in draft.state.subSessionResults) return { result: failure('The verdict was already recorded.') };
      const applied = applyCheck(draft, { ...pending, passed: args.passed, violations: args.violations ?? [], maxRephrasings });
      if (applied.fieldSkipped)
        log.warn(
          { fieldId: pending.fieldId, reason: 'compliance', violations: applied.violations.map((violation) => violation.type) },
          'field skipped: its question failed every quick-check',
        );
      const message = applied.passed
        ? 'Passed. Send exactly this text with ask.'
        : applied.fieldSkipped
          ? `Failed ${applied.attempts} times: the field was skipped for compliance and will not be asked. Continue with the next field.`
          : `Failed: ${applied.violations.map((violation) => `${violation.type}: ${violation.message}`).join('; ')}. Rephrase the question to fix this and check it again.`;
      draft.setSubtaskResult(
        pending.callId,
        success(
          message,
          subAgentResult('checker', {
            question: pending.question,
            fieldId: pending.fieldId,
            passed: applied.passed,
            violations: applied.violations,
            attempts: applied.attempts,
            fieldSkipped: applied.fieldSkipped,
          }),
        ),
      );
      return { result: success('Verdict recorded.') };
    },
  });
}

export function checkerContext(draft: ApplicationDraft): CheckerContext {
  const state = draft.state;
  const pending = pendingQuestion(draft);
  const cur = pending?.fieldId ? currentField(state) : null;
  return {
    agent: 'checker',
    language: state.bootstrap.language === 'ja' ? 'ja' : 'en',
    question: pending?.question ?? '',
    field: cur ? { fieldId: cur.field.fieldId, label: cur.field.label, intent: cur.field.intent, required: cur.field.required } : null,
    facts: cur
      ? cur.facts.map((fact) => ({
          factKey: fact.factKey,
          fact: fact.fact,
          doneCriteria: fact.doneCriteria,
          questioningHints: fact.questioningHints,
        }))
      : [],
    answered: state.fields
      .filter((field) => field.status === 'done')
      .map((field) => {
        const def = formField(state, field.fieldId);
        return {
          fieldId: field.fieldId,
          label: def?.label ?? field.fieldId,
          facts: (state.form?.facts ?? []).filter((fact) => fact.formFieldId === def?.id).map((fact) => fact.fact),
        };
      }),
    prohibitedTopics: [...(state.form?.compliance?.prohibitedTopics ?? [])],
  };
}

export function createCheckerAgent(opts: { maxRephrasings: number }): AgentDefinition<ApplicationDraft> {
  return createAgent<ApplicationDraft>({
    name: 'checker',
    tools: [createResultTool(opts.maxRephrasings)],
    instructions: () => CHECKER_PROMPT,
    context: (draft) => checkerContext(draft),
    remainingTasks: (draft) => {
      const pending = pendingQuestion(draft);
      return pending && !(pending.callId in draft.state.subSessionResults) ? ['Return your verdict using result'] : [];
    },
    completion: (draft) => {
      const pending = pendingQuestion(draft);
      return pending && pending.callId in draft.state.subSessionResults ? { type: 'return' } : null;
    },
    initialMessages: (draft) => [
      {
        role: 'user',
        content: `Check this question before it is asked:\n${checkerContext(draft).question}\n\nQuestion under check and its field:\n${JSON.stringify(checkerContext(draft))}`,
      },
    ],
  });
}
