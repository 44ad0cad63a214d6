import type { MultiStepQueryPlan } from '@convo/contract';
import type { LlmProvider } from '@convo/agent-kit';
import type { Analyzer } from '@convo/text';
import { buildLlmPlannerMessages } from './llm-prompt.js';
import { parseLlmPlan } from './llm-plan.js';
import { planRuleBased } from './rule-planner.js';
import type { PlanFallbackReason, PlanInput, PlanMeta, PlannerCorpus } from './types.js';

/**
 * `planMultiStepQuery` (docs/seeds/002 §3): the rule-based planner, or with
 * `useLlmPlanner` the LLM planner, which falls back to the rules whenever its
 * answer cannot be used; `meta.fallback` says why.
 */

export type { PlanFallbackReason, PlanInput, PlanMeta, PlannerCorpus, PlannerHistoryEntry, PlanLanguage } from './types.js';
export { planRuleBased, planLanguage } from './rule-planner.js';
export { buildLlmPlannerMessages, PLANNER_SYSTEM_PROMPT } from './llm-prompt.js';
export { parseLlmPlan, type ParsedLlmPlan } from './llm-plan.js';

export type PlanDeps = {
  analyzer: Analyzer;
  corpus: PlannerCorpus;
  useLlmPlanner: boolean;
  llm?: LlmProvider;
  model?: string;
  signal?: AbortSignal;
  /** The rule-based plan of this input when the caller already made it: the fallback, and a fact in the model's context. */
  rulePlan?: MultiStepQueryPlan;
};

export async function planMultiStepQuery(input: PlanInput, deps: PlanDeps): Promise<{ plan: MultiStepQueryPlan; meta: PlanMeta }> {
  if (!deps.useLlmPlanner) return { plan: deps.rulePlan ?? planRuleBased(input, deps), meta: { planner: 'rule' } };
  const llm = await planWithLlm(input, deps);
  if (llm.ok) return { plan: llm.plan, meta: { planner: 'llm' } };
  return {
    plan: deps.rulePlan ?? planRuleBased(input, deps),
    meta: { planner: 'rule', fallback: { reason: llm.reason, detail: llm.detail } },
  };
}

type LlmOutcome = { ok: true; plan: MultiStepQueryPlan } | { ok: false; reason: PlanFallbackReason; detail: string };

async function planWithLlm(input: PlanInput, deps: PlanDeps): Promise<LlmOutcome> {
  if (!deps.llm) return { ok: false, reason: 'llm_unavailable', detail: 'useLlmPlanner is set but no LLM provider is configured' };
  if (!deps.model) return { ok: false, reason: 'llm_unavailable', detail: 'no model is configured for the planner' };
  let content: string | null;
  try {
    // ChatRequest has no JSON mode; the system prompt demands JSON only and parseLlmPlan tolerates wrapping.
    const res = await deps.llm.chat({
      agent: 'planner',
      model: deps.model,
      messages: buildLlmPlannerMessages(input),
      tools: [],
      // The rule plan is data a model may compare against; the offline planner answers with it.
      context: {
        message: input.message,
        topK: input.topK,
        language: input.language,
        historyLength: input.history.length,
        ...(deps.rulePlan ? { rulePlan: deps.rulePlan } : {}),
      },
      ...(deps.signal ? { signal: deps.signal } : {}),
    });
    content = res.content;
  } catch (err) {
    // The caller gave up: that is not the model failing, so no fallback plan either.
    if (deps.signal?.aborted) throw err;
    return { ok: false, reason: 'llm_error', detail: err instanceof Error ? `${err.name}: ${err.message}` : String(err) };
  }
  return parseLlmPlan(content ?? '', input);
}
