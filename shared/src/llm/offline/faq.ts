import type { MultiStepQueryPlan } from '../../schemas/faq.js';
import type { Policy } from './protocol.js';

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

/** The offline answer synthesiser returns the extractive answer it is handed. */
export const searchPolicy: Policy = (req) => ({ text: String((req.context as { extractive?: string }).extractive ?? '') });
