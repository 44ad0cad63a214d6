import { createAgent, createTool, failure, success } from '@convo/agent-kit';
import type { ToolContext } from '@convo/agent-kit';
import type { FormDraft } from '@convo/forms';
import type { ArchitectContext } from './context.js';
import { applyPlan, validatePlan } from '@convo/forms';
import { type FormSessionView, Plan, PlanField } from '@convo/contract';
import { z } from 'zod';
import { ARCHITECT_PROMPT } from './prompt.js';

/** Tool input: the seed's PlanSchema (every property required, nothing optional). */
export const CreatePlanInput = z.object({ fields: z.array(PlanField) });

/**
 * create_plan: the model decides the order; code checks the plan covers the
 * form's fields exactly once before it is stored (Zod-parsed, as the seed asks).
 */
export const createPlan = createTool({
  name: 'create_plan',
  description: 'Submit the interview plan: every form field once, in the order to ask them.',
  schema: CreatePlanInput,
  execute(args, context: ToolContext<FormDraft>) {
    const draft = context.draft;
    const plan = Plan.parse(args);
    const problem = validatePlan(draft.state, plan);
    if (problem) return { result: failure(`Plan rejected: ${problem}. Include every field exactly once.`) };
    applyPlan(draft, plan);
    return { result: success(`Plan saved with ${plan.fields.length} fields.`) };
  },
});

export const architectAgent = createAgent<FormDraft>({
  name: 'architect',
  tools: [createPlan],
  instructions: () => ARCHITECT_PROMPT,
  context: (draft) => architectContext(draft.state),
  remainingTasks: (draft) => (draft.state.plan ? [] : ['Create the interview plan using create_plan']),
  completion: (draft) => (draft.state.plan ? { type: 'handoff', to: 'interviewer' } : null),
  // The architect plans from the form, not from the conversation.
  initialMessages: (draft) => [
    {
      role: 'user',
      content: `Design the interview plan for this form.\nForm fields:\n${JSON.stringify(architectContext(draft.state).fields)}`,
    },
  ],
});

function architectContext(state: FormSessionView): ArchitectContext {
  return {
    agent: 'architect',
    language: state.bootstrap.language,
    fields: (state.form?.fields ?? []).map((field) => ({
      fieldId: field.fieldId,
      label: field.label,
      intent: field.intent,
      required: field.required,
      sortOrder: field.sortOrder,
    })),
  };
}
