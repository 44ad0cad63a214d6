import type { MultiStepQueryPlan, SearchHit } from '@convo/contract';

/** One earlier entry of the dialog, newest last; assistant entries keep the plan that produced them. */
export type PlannerHistoryEntry = { role: 'user' | 'assistant' | 'system'; content: string; plan?: MultiStepQueryPlan | null };

/** The corpus as the planner may consult it: a quick probe search, best first, with tags (facets `key:value`). */
export interface PlannerCorpus {
  probe(query: string, topK: number): SearchHit[];
  /**
   * How sure the best hit of a probe is to answer it (FaqSearchIndex.confidence),
   * and the level below which the search abstains; absent: the planner does not
   * ask between close entries.
   */
  confidence?(query: string, best: SearchHit | undefined): number;
  abstainBelow?: number;
}

export type PlanInput = { message: string; history: PlannerHistoryEntry[]; topK: number; language: 'ja' | 'en' | 'auto' };

/** Why an LLM plan was not used; the rule-based plan stands in for it. */
export type PlanFallbackReason = 'llm_unavailable' | 'llm_error' | 'unparsable_json' | 'invalid_plan';

export type PlanMeta = { planner: 'rule' | 'llm'; fallback?: { reason: string; detail?: string } };

/** The language a plan is written in: the caller's choice, else the message's script. */
export type PlanLanguage = 'ja' | 'en';
