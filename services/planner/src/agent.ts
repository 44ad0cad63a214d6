import { type StepContext, type StepHandler, type StepOutcome, SystemError } from '@convo/runtime';
import type { FaqConfig, FaqDraft } from '@convo/faq';
import { event, type FaqHistoryEntry, mutableCopy, type MultiStepQueryPlan, type ResolvedDialogOptions } from '@convo/contract';
import { type LlmProvider, success } from '@convo/agent-kit';
import {
  buildCrewRequest,
  type CorpusReplica,
  parseLlmPlan,
  type PlanInput,
  type PlanMeta,
  type PlannerCorpus,
  planMultiStepQuery,
  planOrchestrationSteps,
  planRuleBased,
  pushHistory,
  requestCrewPlan,
  singleStepPlan,
  startTurnResult,
  updateTurnResult,
} from '@convo/faq';
import { detectLanguage, type Analyzer } from '@convo/text';

export type PlannerDeps = {
  replica: CorpusReplica;
  analyzer: Analyzer;
  llm: LlmProvider;
  model: string;
  config: { faq: FaqConfig };
};

/**
 * The planner's step of an FAQ turn: plan the message with the dialog's
 * history (rule-based, LLM with fallback, or an external crew orchestrator),
 * then either ask the clarifying questions and wait for the user, or hand the
 * plan to the search agent.
 */
export function createPlannerHandler(deps: PlannerDeps): StepHandler<FaqDraft> {
  return async (ctx: StepContext<FaqDraft>): Promise<StepOutcome> => {
    const { turn, draft } = ctx;
    if (turn.message === null) throw new SystemError('an FAQ turn needs a message');
    const history = mutableCopy<FaqHistoryEntry[]>(draft.state.faq.history);
    const result = startTurnResult(draft, {
      turnId: turn.turnId,
      message: turn.message,
      options: ctx.turnOptions,
      defaultTopK: deps.config.faq.topK,
    });
    const options = result.options;
    const index = await deps.replica.fresh();
    const input: PlanInput = { message: turn.message, history, topK: options.topK, language: options.language };
    const language = options.language === 'auto' ? detectLanguage(turn.message) : options.language;

    const startedAt = draft.now();
    const { plan, meta } = await makePlan(input, options, language, {
      ...deps,
      corpus: {
        probe: (q, k) => index.search(q, { topK: k, language: options.language }),
        ...(index.confidence ? { confidence: index.confidence.bind(index) } : {}),
        abstainBelow: deps.config.faq.abstainBelow,
      },
      signal: ctx.signal,
    });
    updateTurnResult(draft, turn.turnId, (record) => {
      record.plan = plan;
      record.planMeta = { ...meta, corpusVersion: deps.replica.corpusVersion };
      record.orchestrationSteps.push(...planOrchestrationSteps(plan));
    });
    draft.runSteps.push({
      runStepId: `rs-${ctx.step.seq}-1`,
      turnId: turn.turnId,
      agent: 'planner',
      toolName: 'plan_multi_step_query',
      input: { message: turn.message, historyLength: history.length, options },
      output: success(
        `${meta.planner} plan with ${plan.steps.length} steps${meta.fallback ? ` (fallback: ${meta.fallback.reason})` : ''}`,
        { plan, meta },
      ),
      startedAt,
      finishedAt: draft.now(),
    });
    ctx.log.info(
      { planner: meta.planner, fallback: meta.fallback?.reason, steps: plan.steps.map((s) => s.type), clarify: plan.needsClarification },
      'planned',
    );
    draft.emit(event('plan', plan));
    pushHistory(draft, { role: 'user', content: turn.message });

    if (plan.needsClarification) {
      const questions = clarifyingQuestions(plan);
      updateTurnResult(draft, turn.turnId, (record) => {
        record.needsClarification = true;
        record.clarifyingQuestions = questions;
        record.orchestrationSteps.push({ type: 'clarify_plan', questions });
        record.finishedAt = draft.now();
      });
      const text = questions.join('\n');
      draft.addAssistantMessage('planner', text, turn.turnId, null);
      draft.emit(event('clarify', { questions }));
      pushHistory(draft, { role: 'assistant', content: text, plan });
      return { kind: 'await_user' };
    }
    return { kind: 'continue', to: 'search' };
  };
}

function clarifyingQuestions(plan: MultiStepQueryPlan): string[] {
  if (plan.clarifyingQuestions && plan.clarifyingQuestions.length > 0) return plan.clarifyingQuestions;
  return plan.steps.flatMap((s) => (s.type === 'clarify' ? s.questions : []));
}

type MakePlanDeps = PlannerDeps & {
  corpus: PlannerCorpus;
  signal?: AbortSignal;
};

async function makePlan(
  input: PlanInput,
  options: ResolvedDialogOptions,
  language: 'ja' | 'en',
  deps: MakePlanDeps,
): Promise<{ plan: MultiStepQueryPlan; meta: PlanMeta & { orchestrator?: 'crew' } }> {
  // At most once per turn: a fallback and the offline model's context would otherwise plan again.
  let rulePlan: MultiStepQueryPlan | undefined;
  const rule = () => (rulePlan ??= planRuleBased(input, { analyzer: deps.analyzer, corpus: deps.corpus }));
  if (options.mode === 'crew') {
    const crewUrl = deps.config.faq.crewUrl;
    if (!crewUrl) return { plan: rule(), meta: { planner: 'rule', fallback: { reason: 'crew_not_configured' } } };
    try {
      const body = buildCrewRequest({
        history: input.history,
        message: input.message,
        language,
        topK: options.topK,
        optionLanguage: options.language,
        contentTerms: deps.analyzer.contentTerms(input.message).length,
        debug: options.debug,
      });
      const crewPlan = await requestCrewPlan(crewUrl, body, { timeoutMs: deps.config.faq.crewTimeoutMs, signal: deps.signal });
      const parsed = parseLlmPlan(JSON.stringify(crewPlan), input);
      if (!parsed.ok)
        return { plan: rule(), meta: { planner: 'rule', fallback: { reason: `crew_${parsed.reason}`, detail: parsed.detail } } };
      return { plan: { ...parsed.plan, raw: crewPlan.raw ?? crewPlan }, meta: { planner: 'llm', orchestrator: 'crew' } };
    } catch (err) {
      return {
        plan: rule(),
        meta: { planner: 'rule', fallback: { reason: 'crew_error', detail: err instanceof Error ? err.message : String(err) } },
      };
    }
  }
  if (!options.useMultiStepPlanner) return { plan: singleStepPlan(input.message, options.topK, language), meta: { planner: 'rule' } };
  // Planned by the rules once, up front (a few index probes, nothing next to a model call): the
  // fallback if the model's plan is unusable, and part of the model's context.
  return planMultiStepQuery(input, {
    analyzer: deps.analyzer,
    corpus: deps.corpus,
    useLlmPlanner: options.useLlmPlanner,
    llm: deps.llm,
    model: deps.model,
    signal: deps.signal,
    rulePlan: rule(),
  });
}
