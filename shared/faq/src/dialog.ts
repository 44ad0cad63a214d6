import { SystemError } from '@convo/runtime';
import type { FaqDraft } from './faq-draft.js';
import {
  coreSessionState,
  type DeepReadonly,
  type FaqHistoryEntry,
  type FaqSessionState,
  type FaqState,
  type FaqTurnResult,
  type MultiStepQueryPlan,
  type OrchestrationStep,
  ResolvedDialogOptions,
} from '@convo/contract';

/** Dialog context kept per session: enough for follow-ups, bounded so the session document stays small. */
export const MAX_HISTORY = 20;
export const MAX_TURN_RESULTS = 20;

/** A new FAQ dialog: the core of a session, with the planner holding the conversation, plus its dialog context. */
export function newFaqSession(input: { sessionId: string; language: 'ja' | 'en' | null; faq: FaqState; now: string }): FaqSessionState {
  return { ...coreSessionState({ ...input, firstAgent: 'planner' }), kind: 'faq', faq: input.faq };
}

/** One more entry in the dialog's history (oldest dropped beyond MAX_HISTORY). */
export function pushHistory(draft: FaqDraft, entry: FaqHistoryEntry): void {
  draft.updateFaq((faq) => {
    faq.history.push(entry);
    if (faq.history.length > MAX_HISTORY) faq.history.splice(0, faq.history.length - MAX_HISTORY);
  });
}

/** The result record of the turn being run, created by the planner's step. */
export function turnResult(draft: FaqDraft, turnId: string): DeepReadonly<FaqTurnResult> {
  const turn = draft.state.faq.turns.find((entry) => entry.turnId === turnId);
  if (!turn) throw new SystemError(`FAQ turn ${turnId} has no result record`);
  return turn;
}

/** Changes the result record of turn `turnId` (the planner's plan, the search agent's hits and answer). */
export function updateTurnResult(draft: FaqDraft, turnId: string, change: (result: FaqTurnResult) => void): void {
  turnResult(draft, turnId);
  draft.updateFaq((faq) => change(faq.turns.find((entry) => entry.turnId === turnId)!));
}

export function startTurnResult(
  draft: FaqDraft,
  input: { turnId: string; message: string; options: unknown; defaultTopK: number },
): DeepReadonly<FaqTurnResult> {
  const parsed = ResolvedDialogOptions.safeParse(input.options);
  const options = parsed.success
    ? parsed.data
    : {
        topK: input.defaultTopK,
        language: 'auto' as const,
        useLlmPlanner: false,
        useMultiStepPlanner: true,
        mode: 'local' as const,
        debug: false,
      };
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
    abstained: false,
    abstentionMessage: null,
    confidence: null,
    needsClarification: false,
    clarifyingQuestions: [],
    final: false,
    startedAt: draft.now(),
    finishedAt: null,
  };
  draft.updateFaq((faq) => {
    const existing = faq.turns.findIndex((turn) => turn.turnId === input.turnId);
    if (existing >= 0) faq.turns.splice(existing, 1);
    faq.turns.push(result);
    if (faq.turns.length > MAX_TURN_RESULTS) faq.turns.splice(0, faq.turns.length - MAX_TURN_RESULTS);
  });
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
