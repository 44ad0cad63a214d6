import type { MultiStepQueryPlan } from '@convo/contract';
import type { PlannerHistoryEntry } from './types.js';

/**
 * What the rules need from the dialog so far (newest entry last): a
 * clarifying question still waiting for its answer, and what the previous
 * exchange was about.
 */

export type PendingClarification = {
  /** The user's question the assistant asked about. */
  question: string;
  /** The query the rule planner had built for it, when it recorded one. */
  query: string | null;
  /** The choices offered with the clarifying question. */
  choices: string[];
};

export type HistoryView = {
  pending: PendingClarification | null;
  /** The previous user question and what its plan searched for (its own words when no plan was kept). */
  previous: { question: string; queries: string[] } | null;
  /** Recent user questions and their queries, newest first: where facet values named earlier are found. */
  recentTexts: string[];
};

const RECENT_USER_TURNS = 3;

export function readHistory(history: PlannerHistoryEntry[]): HistoryView {
  const lastUser = findLastIndex(history, (entry) => entry.role === 'user');
  const lastAssistant = findLastIndex(history, (entry) => entry.role === 'assistant');
  const assistant = history[lastAssistant];
  const asked = lastAssistant > lastUser && assistant?.plan?.needsClarification === true;
  const pending: PendingClarification | null =
    asked && assistant?.plan
      ? {
          question: history[lastUser]?.content ?? '',
          query: stringField(assistant.plan.raw, 'pendingQuery'),
          choices: choicesOf(assistant.plan),
        }
      : null;

  const recentTexts: string[] = [];
  let previous: HistoryView['previous'] = null;
  let seenUsers = 0;
  for (let i = history.length - 1; i >= 0 && seenUsers < RECENT_USER_TURNS; i--) {
    const entry = history[i];
    if (entry?.role !== 'user') continue;
    seenUsers++;
    const queries = queriesOf(planAnswering(history, i));
    recentTexts.push(...queries, entry.content);
    previous ??= { question: entry.content, queries };
  }
  return { pending, previous, recentTexts };
}

/** The plan kept for the user entry at `i`: on the entry itself, else on the assistant reply after it. */
function planAnswering(history: PlannerHistoryEntry[], i: number): MultiStepQueryPlan | null {
  const own = history[i]?.plan;
  if (own) return own;
  const reply = history.slice(i + 1).find((entry) => entry.role !== 'system');
  return reply?.role === 'assistant' ? (reply.plan ?? null) : null;
}

/** What a plan searched for: the topic a rule plan recorded, else the queries of its search steps. */
export function queriesOf(plan: MultiStepQueryPlan | null): string[] {
  if (!plan) return [];
  const topic = stringField(plan.raw, 'topic');
  if (topic !== null) return [topic];
  return plan.steps.flatMap((step) => (step.type === 'search' || step.type === 'followup_search' ? [step.query] : []));
}

function choicesOf(plan: MultiStepQueryPlan): string[] {
  const raw = plan.raw;
  if (typeof raw !== 'object' || raw === null || !('choices' in raw) || !Array.isArray(raw.choices)) return [];
  return raw.choices.filter((choice): choice is string => typeof choice === 'string');
}

function stringField(raw: unknown, key: string): string | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const value = (raw as Record<string, unknown>)[key];
  return typeof value === 'string' && value.length > 0 ? value : null;
}

function findLastIndex<T>(xs: T[], pred: (item: T) => boolean): number {
  for (let i = xs.length - 1; i >= 0; i--) if (pred(xs[i] as T)) return i;
  return -1;
}
