import {
  type FaqHistoryEntry,
  type FaqState,
  type FaqTurnResult,
  type MultiStepQueryPlan,
  type OrchestrationStep,
  ResolvedDialogOptions,
  type SessionDraft,
  SystemError,
} from '@convo/runtime';

/** Dialog context kept per session: enough for follow-ups, bounded so the session document stays small. */
export const MAX_HISTORY = 20;
export const MAX_TURN_RESULTS = 20;

export function faqState(draft: SessionDraft): FaqState {
  const faq = draft.state.faq;
  if (!faq) throw new SystemError(`session ${draft.state.sessionId} has no FAQ dialog state`);
  return faq;
}

export function pushHistory(faq: FaqState, entry: FaqHistoryEntry): void {
  faq.history.push(entry);
  if (faq.history.length > MAX_HISTORY) faq.history.splice(0, faq.history.length - MAX_HISTORY);
}

/** The result record of the turn being run, created by the planner's step. */
export function turnResult(draft: SessionDraft, turnId: string): FaqTurnResult {
  const turn = faqState(draft).turns.find((entry) => entry.turnId === turnId);
  if (!turn) throw new SystemError(`FAQ turn ${turnId} has no result record`);
  return turn;
}

export function startTurnResult(draft: SessionDraft, input: { turnId: string; message: string; options: unknown; defaultTopK: number }): FaqTurnResult {
  const faq = faqState(draft);
  const parsed = ResolvedDialogOptions.safeParse(input.options);
  const options = parsed.success
    ? parsed.data
    : { topK: input.defaultTopK, language: 'auto' as const, useLlmPlanner: false, useMultiStepPlanner: true, mode: 'local' as const, debug: false };
  const existing = faq.turns.findIndex((turn) => turn.turnId === input.turnId);
  if (existing >= 0) faq.turns.splice(existing, 1);
  const result: FaqTurnResult = {
    turnId: input.turnId,
    message: input.message,
    options,
    plan: null,
    planMeta: {},
    steps: [],
    orchestrationSteps: [],
    hits: [],
    answer: null,
    sources: [],
    needsClarification: false,
    clarifyingQuestions: [],
    final: false,
    startedAt: draft.now(),
    finishedAt: null,
  };
  faq.turns.push(result);
  if (faq.turns.length > MAX_TURN_RESULTS) faq.turns.splice(0, faq.turns.length - MAX_TURN_RESULTS);
  return result;
}

/** The plan's steps as `meta.orchestrationSteps` lists them (docs/seeds/002 §4.1.1). */
export function planOrchestrationSteps(plan: MultiStepQueryPlan): OrchestrationStep[] {
  return plan.steps.map((step) => {
    switch (step.type) {
      case 'clarify':
        return { id: step.id, type: step.type, questions: step.questions };
      case 'search':
        return { id: step.id, type: step.type, query: step.query };
      case 'followup_search':
        return { id: step.id, type: step.type, basedOn: step.basedOn, query: step.query };
      case 'answer':
        return { id: step.id, type: step.type, style: step.style, includeSources: step.includeSources };
    }
  });
}

/** The seed's v1 planner (`useMultiStepPlanner: false`): the message as one search, then the answer. */
export function singleStepPlan(message: string, topK: number, language: 'ja' | 'en'): MultiStepQueryPlan {
  return {
    steps: [
      { id: 'step_search_1', type: 'search', query: message, topK },
      { id: 'step_answer_1', type: 'answer', style: 'faq', includeSources: true },
    ],
    needsClarification: false,
    followupQueries: [],
    confidence: 'medium',
    language,
    raw: { planner: 'single_step' },
  };
}
