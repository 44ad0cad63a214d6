import type { MultiStepQueryPlan, PlanStep } from '@convo/contract';
import type { PlanLanguage } from './types.js';

/** Building the plans the rule planner returns; step ids follow docs/seeds/002 (`step_search_1`). */

/** What `raw` holds on a rule plan: which rules fired and what they saw, for debugging and for the next turn. */
export type RuleTrace = {
  planner: 'rule';
  rules: string[];
  /** Offered with a clarifying question, for the client to show as buttons. */
  choices?: string[];
  /** The query a clarifying question is about; the answer is searched together with it. */
  pendingQuery?: string;
  /** What the search was about, for a later follow-up to borrow ("沖縄は？"). */
  topic?: string;
  [key: string]: unknown;
};

export function answerStep(n: number, language: PlanLanguage): PlanStep {
  return {
    id: `step_answer_${n}`,
    type: 'answer',
    description: language === 'ja' ? '検索結果から FAQ の回答を作成する' : 'Compose the FAQ answer from the search results',
    style: 'faq',
    includeSources: true,
  };
}

export function searchPlan(o: {
  kind: 'search' | 'followup_search';
  basedOn?: 'user' | 'previous_answer';
  queries: string[];
  description: string;
  topK: number;
  language: PlanLanguage;
  confidence: MultiStepQueryPlan['confidence'];
  raw: RuleTrace;
}): MultiStepQueryPlan {
  const steps: PlanStep[] = o.queries.map((query, i) =>
    o.kind === 'search'
      ? { id: `step_search_${i + 1}`, type: 'search', description: o.description, query, topK: o.topK }
      : {
          id: `step_followup_${i + 1}`,
          type: 'followup_search',
          description: o.description,
          basedOn: o.basedOn ?? 'user',
          query,
          topK: o.topK,
        },
  );
  steps.push(answerStep(1, o.language));
  // The orchestrator runs followupQueries when present (docs/seeds/002 §4.1.2): follow-ups and compound parts.
  const listQueries = o.kind === 'followup_search' || o.queries.length > 1;
  return {
    steps,
    needsClarification: false,
    ...(listQueries ? { followupQueries: [...o.queries] } : {}),
    confidence: o.confidence,
    language: o.language,
    raw: o.raw,
  };
}

export function clarifyPlan(o: { question: string; language: PlanLanguage; raw: RuleTrace }): MultiStepQueryPlan {
  return {
    steps: [
      {
        id: 'step_clarify_1',
        type: 'clarify',
        description: o.language === 'ja' ? '検索の前に質問の内容を確認する' : 'Ask what the user means before searching',
        questions: [o.question],
      },
    ],
    needsClarification: true,
    clarifyingQuestions: [o.question],
    confidence: 'low',
    language: o.language,
    raw: o.raw,
  };
}
