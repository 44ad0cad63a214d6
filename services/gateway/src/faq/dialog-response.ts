import type { AgentDialogResponse, FaqTurnResult, MultiStepQueryPlan } from '@convo/contract';

/**
 * The /agent.dialog response body of docs/seeds/002 §4.1.1. `meta` carries the
 * seed's fields (multiStepPlan, orchestratorMode, orchestrationSteps,
 * latencyMs) plus `sources` and `planner` (which planner ran, why it fell
 * back, how the answer was made); with `debug` also the plan's `raw` and the hits.
 */
export function dialogResponse(sessionId: string, r: FaqTurnResult, latencyMs: number): AgentDialogResponse {
  return {
    sessionId,
    answer: r.answer,
    abstained: r.abstained,
    message: r.abstentionMessage,
    confidence: r.confidence,
    needsClarification: r.needsClarification,
    ...(r.needsClarification ? { clarifyingQuestions: r.clarifyingQuestions } : {}),
    steps: r.steps,
    final: r.final,
    meta: {
      ...(r.plan ? { multiStepPlan: r.options.debug ? r.plan : withoutRaw(r.plan) } : {}),
      orchestratorMode: r.options.mode,
      orchestrationSteps: r.orchestrationSteps,
      latencyMs,
      sources: r.sources,
      planner: r.planMeta,
      ...(r.options.debug ? { hits: r.hits.map((h) => ({ id: h.id, question: h.question, score: h.score })) } : {}),
    },
  };
}

function withoutRaw(plan: MultiStepQueryPlan): MultiStepQueryPlan {
  const { raw: _raw, ...rest } = plan;
  return rest;
}
