import { type Logger, type StepContext, type StepHandler, type StepOutcome, SystemError } from '@convo/runtime';
import type { FaqConfig, FaqDraft } from '@convo/faq';
import {
  type SearchJobResult,
  type AgentStep,
  event,
  type FaqHistoryEntry,
  mutableCopy,
  type MultiStepQueryPlan,
  type SearchHit,
  SearchQueryJob,
} from '@convo/contract';
import { UnrecoverableError } from 'bullmq';
import { type LlmProvider, success } from '@convo/agent-kit';
import {
  abstentionMessage,
  type ComposedAnswer,
  confidentGroups,
  type CorpusReplica,
  extractiveAnswer,
  type FaqSearchIndex,
  pushHistory,
  type Retrieval,
  type Retriever,
  type SearchGroup,
  synthesizeAnswer,
  turnResult,
  updateTurnResult,
} from '@convo/faq';
import { detectLanguage } from '@convo/text';

/** `retrieve` is lexical, or hybrid when an embedding model is configured (@convo/faq, hybrid/). */
export type SearchDeps = {
  replica: CorpusReplica;
  retrieve: Retriever;
  llm: LlmProvider;
  model: string;
  config: { faq: FaqConfig };
  log: Logger;
};

const SEARCHED = { ja: '検索を実行しました', en: 'Searched the FAQ' } as const;

type Expansions = { word: string; synonyms: string[] }[];

/** One executed search: what was asked and what came back, and how sure its best hit is. */
type Searched = { query: string; topK: number; hits: SearchHit[]; confidence?: number; expansions: Expansions; how: RetrievalFields };

/** A search as the answer is composed from it. */
function groupOf(s: Searched): SearchGroup {
  return { query: s.query, hits: s.hits, ...(s.confidence !== undefined ? { confidence: s.confidence } : {}) };
}

/** How a search ran, as the step record, run step and `search` event carry it (nothing for a lexical-only deployment). */
type RetrievalFields = Pick<Retrieval, 'retrieval' | 'warning'>;

function retrievalFields(r: Retrieval): RetrievalFields {
  return { ...(r.retrieval ? { retrieval: r.retrieval } : {}), ...(r.warning ? { warning: r.warning } : {}) };
}

function stepRecord(language: 'ja' | 'en', s: Searched, debug: boolean): AgentStep {
  return {
    type: 'search',
    message: SEARCHED[language],
    query: s.query,
    topK: s.topK,
    ...(debug ? { hits: s.hits.map((h) => ({ id: h.id, question: h.question, score: h.score })) } : {}),
    ...(s.expansions.length > 0 ? { expansions: s.expansions } : {}),
    ...(s.confidence !== undefined ? { confidence: s.confidence } : {}),
    ...s.how,
  };
}

/** One search through the configured retriever; an embeddings failure comes back as lexical hits with a warning, never as an error. */
async function search(
  deps: SearchDeps,
  index: FaqSearchIndex,
  query: string,
  topK: number,
  language: 'ja' | 'en' | 'auto',
  signal?: AbortSignal,
): Promise<Searched> {
  const found = await deps.retrieve(index, query, { topK, language }, signal);
  return {
    query,
    topK,
    hits: found.hits,
    ...(found.confidence !== undefined ? { confidence: found.confidence } : {}),
    expansions: index.expansions?.(query) ?? [],
    how: retrievalFields(found),
  };
}

/**
 * The answer: synthesised by the model from the hits (the seed's
 * synthesizeAnswer) when a remote model is configured, else extractive. A
 * failed synthesis falls back to the extractive answer rather than failing
 * the turn.
 */
async function compose(
  question: string,
  groups: SearchGroup[],
  language: 'ja' | 'en',
  history: Array<{ role: string; content: string }>,
  deps: SearchDeps,
  log: Logger,
  signal?: AbortSignal,
): Promise<ComposedAnswer & { fallback?: string }> {
  const extractive = extractiveAnswer(groups, language);
  if (deps.llm.name === 'offline' || extractive.method === 'none') return extractive;
  try {
    return await synthesizeAnswer(
      { question, groups, history },
      { llm: deps.llm, model: deps.model, signal, extractive: extractive.answer },
    );
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    log.warn({ err: reason }, 'answer synthesis failed; answering extractively');
    return { ...extractive, fallback: reason };
  }
}

/** The search agent's step of an FAQ turn: run every search step of the plan, then answer. */
export function createSearchHandler(deps: SearchDeps): StepHandler<FaqDraft> {
  return async (ctx: StepContext<FaqDraft>): Promise<StepOutcome> => {
    const { turn, draft } = ctx;
    const result = turnResult(draft, turn.turnId);
    const plan = result.plan ? mutableCopy<MultiStepQueryPlan>(result.plan) : null;
    if (!plan) throw new SystemError(`FAQ turn ${turn.turnId} reached search without a plan`);
    const { options } = result;
    const language = plan.language === 'ja' || plan.language === 'en' ? plan.language : detectLanguage(result.message);
    const index = await deps.replica.fresh();

    const groups: SearchGroup[] = [];
    for (const step of plan.steps) {
      if (step.type !== 'search' && step.type !== 'followup_search') continue;
      const startedAt = draft.now();
      const searched = await search(deps, index, step.query, step.topK, options.language, ctx.signal);
      const { hits, expansions, how } = searched;
      groups.push(groupOf(searched));
      updateTurnResult(draft, turn.turnId, (record) => {
        record.hits.push(...hits.filter((hit) => !record.hits.some((known) => known.id === hit.id)));
        record.steps.push(stepRecord(language, searched, options.debug));
        record.orchestrationSteps.push({
          type: 'search_executed',
          stepId: step.id,
          query: step.query,
          topK: step.topK,
          source: 'searchAgent',
        });
      });
      draft.runSteps.push({
        runStepId: `rs-${ctx.step.seq}-${draft.runSteps.length + 1}`,
        turnId: turn.turnId,
        agent: 'search',
        toolName: 'search_faq',
        input: { query: step.query, topK: step.topK, language: options.language },
        output: success(`${hits.length} hits`, {
          hits: hits.map((h) => ({ id: h.id, score: h.score })),
          ...(searched.confidence !== undefined ? { confidence: searched.confidence } : {}),
          ...how,
        }),
        startedAt,
        finishedAt: draft.now(),
      });
      const shown = hits.map((h) => ({ id: h.id, title: h.question, score: h.score }));
      draft.emit(
        event('search', { query: step.query, topK: step.topK, hits: shown, ...(expansions.length > 0 ? { expansions } : {}), ...how }),
      );
    }

    const answerStep = plan.steps.find((s) => s.type === 'answer');
    const history = mutableCopy<FaqHistoryEntry[]>(draft.state.faq.history);
    const confident = confidentGroups(groups, deps.config.faq.abstainBelow);
    const confidence = weakest(confident.length > 0 ? confident : groups);
    // Nothing the corpus says answers this: say so rather than answer with the nearest entry.
    const abstained = confident.length === 0;
    const composed = abstained ? null : await compose(result.message, confident, language, history, deps, ctx.log, ctx.signal);
    const reply = composed?.answer ?? abstentionMessage(language, deps.config.faq.contact);
    const sources = !composed || (answerStep && !answerStep.includeSources) ? [] : composed.sources;
    updateTurnResult(draft, turn.turnId, (record) => {
      record.answer = composed?.answer ?? null;
      record.abstained = abstained;
      record.abstentionMessage = abstained ? reply : null;
      record.confidence = confidence;
      record.sources = sources;
      record.final = true;
      record.finishedAt = draft.now();
      record.planMeta = {
        ...record.planMeta,
        answer: composed ? { method: composed.method, ...(composed.fallback ? { fallback: composed.fallback } : {}) } : { method: 'none' },
      };
    });
    draft.addAssistantMessage('search', reply, turn.turnId, null);
    draft.emit(
      event('answer', {
        answer: composed?.answer ?? null,
        sources,
        final: true,
        ...(abstained ? { abstained: true, message: reply } : {}),
        ...(confidence !== null ? { confidence } : {}),
      }),
    );
    pushHistory(draft, { role: 'assistant', content: reply, plan });
    // Every dialog turn starts with the planner.
    draft.setAgent('planner');
    return { kind: 'end' };
  };
}

/** A single-shot /agent.search: search, then answer from the hits; no session involved. */
export async function runSearchQuery(data: unknown, deps: SearchDeps, signal?: AbortSignal): Promise<SearchJobResult> {
  const parsed = SearchQueryJob.safeParse(data);
  // A payload that does not validate fails the same way every time: not retried.
  if (!parsed.success)
    throw new UnrecoverableError(`invalid search job: ${parsed.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join(', ')}`);
  const job = parsed.data;
  const view = await deps.replica.view();
  // The caller asked for a corpus version this replica has not finished indexing: it is told to come back, not kept waiting.
  if (job.minCorpusVersion !== undefined && view.version < job.minCorpusVersion)
    return { notReady: { corpusVersion: view.version, wanted: job.minCorpusVersion } };
  const index: FaqSearchIndex = view.index;
  const language = job.language === 'auto' ? detectLanguage(job.query) : job.language;
  const searched = await search(deps, index, job.query, job.topK, job.language, signal);
  const { hits } = searched;
  const confident = confidentGroups([groupOf(searched)], deps.config.faq.abstainBelow);
  const composed = confident.length > 0 ? await compose(job.query, confident, language, [], deps, deps.log, signal) : null;
  return {
    answer: composed?.answer ?? null,
    abstained: composed === null,
    confidence: searched.confidence ?? (hits.length > 0 ? 1 : 0),
    message: composed === null ? abstentionMessage(language, deps.config.faq.contact) : null,
    hits: hits.map((h) => ({ id: h.id, question: h.question, answer: h.answer, score: h.score })),
    steps: [stepRecord(language, searched, false)],
    corpusVersion: view.version,
  };
}

/** The lowest confidence of the searches (the answer is as sure as its least sure part); null when none was calibrated. */
function weakest(groups: SearchGroup[]): number | null {
  const known = groups.map((group) => group.confidence).filter((value) => value !== undefined);
  return known.length > 0 ? Math.min(...known) : null;
}
