import type { MultiStepQueryPlan } from '@convo/contract';
import type { Policy } from '@convo/agent-kit';

/**
 * The offline LLM planner answers with the seed's planner JSON (§3.4.1) of
 * the rule-based plan it is handed in its context, so `useLlmPlanner: true`
 * runs the whole parse-validate-map path of the LLM planner offline.
 */
export const plannerPolicy: Policy = (req) => {
  const plan = (req.context as { rulePlan?: MultiStepQueryPlan }).rulePlan;
  if (!plan) return { text: '' };
  const { raw: _raw, ...json } = plan;
  return { text: JSON.stringify(json) };
};
