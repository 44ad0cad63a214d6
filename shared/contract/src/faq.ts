import { z } from 'zod';
import { JobSchemaVersion, JobTrace } from './jobs.js';

/**
 * The FAQ dialog (docs/seeds/002): corpus documents, the MultiStepQueryPlan and its
 * steps, and the public request/response bodies of /agent.search and
 * /agent.dialog. Every other module takes its FAQ types from here.
 */

export const FaqLanguage = z.enum(['ja', 'en']);
export type FaqLanguage = z.infer<typeof FaqLanguage>;

/** A stored FAQ entry. `tags` may carry facets as `key:value` (e.g. `region:Hokkaido`, `地域:北海道`). */
export const FaqDocument = z.object({
  id: z.string().min(1).max(200),
  question: z.string().min(1).max(2000),
  answer: z.string().min(1).max(20000),
  tags: z.array(z.string().min(1).max(100)).max(50),
  language: FaqLanguage,
});
export type FaqDocument = z.infer<typeof FaqDocument>;

/** What a client uploads: `id`, `tags` and `language` are optional (generated, empty, detected). */
export const FaqDocumentInput = z.object({
  id: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .regex(/^[\w.:-]+$/, 'letters, digits, _ . : - only')
    .optional(),
  question: z.string().trim().min(1).max(2000),
  answer: z.string().trim().min(1).max(20000),
  tags: z.array(z.string().trim().min(1).max(100)).max(50).optional(),
  language: FaqLanguage.optional(),
});
export type FaqDocumentInput = z.infer<typeof FaqDocumentInput>;

export const SearchHit = z.object({
  id: z.string(),
  question: z.string(),
  answer: z.string(),
  score: z.number(),
  tags: z.array(z.string()),
  language: FaqLanguage,
});
export type SearchHit = z.infer<typeof SearchHit>;

// --- MultiStepQueryPlan (docs/seeds/002 §3.1) ---

export const ClarifyStep = z.object({
  id: z.string(),
  type: z.literal('clarify'),
  description: z.string().optional(),
  questions: z.array(z.string()).min(1),
});
export const SearchStep = z.object({
  id: z.string(),
  type: z.literal('search'),
  description: z.string().optional(),
  query: z.string().min(1),
  topK: z.number().int().min(1).max(50),
  filters: z.record(z.string(), z.unknown()).nullable().optional(),
});
export const FollowupSearchStep = z.object({
  id: z.string(),
  type: z.literal('followup_search'),
  description: z.string().optional(),
  basedOn: z.enum(['user', 'previous_answer']),
  query: z.string().min(1),
  topK: z.number().int().min(1).max(50),
});
export const AnswerStep = z.object({
  id: z.string(),
  type: z.literal('answer'),
  description: z.string().optional(),
  style: z.enum(['faq', 'step_by_step']),
  includeSources: z.boolean(),
});
export const PlanStep = z.discriminatedUnion('type', [ClarifyStep, SearchStep, FollowupSearchStep, AnswerStep]);
export type PlanStep = z.infer<typeof PlanStep>;

export const MultiStepQueryPlan = z.object({
  steps: z.array(PlanStep),
  needsClarification: z.boolean(),
  clarifyingQuestions: z.array(z.string()).optional(),
  followupQueries: z.array(z.string()).optional(),
  confidence: z.enum(['low', 'medium', 'high']),
  language: z.enum(['ja', 'en', 'other']).optional(),
  raw: z.unknown().optional(),
});
export type MultiStepQueryPlan = z.infer<typeof MultiStepQueryPlan>;

/**
 * What an LLM planner returns (docs/seeds/002 §3.4.1): looser than the plan (topK,
 * style and includeSources may be missing) and mapped onto MultiStepQueryPlan
 * by `fromLlmPlan`.
 */
export const LlmMultiStepPlan = z.object({
  steps: z
    .array(
      z.discriminatedUnion('type', [
        z.object({
          id: z.string().min(1),
          type: z.literal('clarify'),
          description: z.string().optional(),
          questions: z.array(z.string().min(1)).min(1),
        }),
        z.object({
          id: z.string().min(1),
          type: z.literal('search'),
          description: z.string().optional(),
          query: z.string().min(1),
          topK: z.number().int().min(1).max(50).optional(),
          filters: z.record(z.string(), z.unknown()).nullable().optional(),
        }),
        z.object({
          id: z.string().min(1),
          type: z.literal('followup_search'),
          description: z.string().optional(),
          basedOn: z.enum(['user', 'previous_answer']),
          query: z.string().min(1),
          topK: z.number().int().min(1).max(50).optional(),
        }),
        z.object({
          id: z.string().min(1),
          type: z.literal('answer'),
          description: z.string().optional(),
          style: z.enum(['faq', 'step_by_step']).optional(),
          includeSources: z.boolean().optional(),
        }),
      ]),
    )
    .min(1),
  needsClarification: z.boolean(),
  clarifyingQuestions: z.array(z.string()).optional(),
  followupQueries: z.array(z.string()).optional(),
  confidence: z.enum(['low', 'medium', 'high']),
  language: z.enum(['ja', 'en', 'other']).optional(),
});
export type LlmMultiStepPlan = z.infer<typeof LlmMultiStepPlan>;

/** One earlier exchange of the dialog, as the planner reads it (newest last). */
export const DialogTurn = z.object({
  role: z.enum(['user', 'assistant', 'system']),
  content: z.string(),
});
export type DialogTurn = z.infer<typeof DialogTurn>;

// --- Public bodies (docs/api.md, "4. FAQ") ---

export const SearchLanguageOption = z.enum(['ja', 'en', 'auto']);

export const AgentSearchRequest = z.object({
  query: z.string().trim().min(1).max(2000),
  topK: z.number().int().min(1).max(50).default(3),
  language: SearchLanguageOption.default('auto'),
  minCorpusVersion: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe(
      'answer from this corpus version or a later one (the `version` an upload answered with); 503 with Retry-After while it is still being indexed',
    ),
});
export type AgentSearchRequest = z.infer<typeof AgentSearchRequest>;

/** `hybrid`: lexical and embedding rankings fused; `lexical`: the lexical engine alone, because the embeddings were unavailable. */
export const RetrievalMode = z.enum(['hybrid', 'lexical']);
export type RetrievalMode = z.infer<typeof RetrievalMode>;

/** The AgentStep records of a dialog response (docs/seeds/002 §4.1.1 `steps`). */
export const AgentStep = z.object({
  type: z.string(),
  message: z.string(),
  query: z.string().optional(),
  topK: z.number().optional(),
  hits: z.array(z.object({ id: z.string(), question: z.string(), score: z.number() })).optional(),
  expansions: z.array(z.object({ word: z.string(), synonyms: z.array(z.string()) })).optional(),
  /** With an embedding model configured: how the step searched; absent for lexical-only deployments. */
  retrieval: RetrievalMode.optional(),
  /** Why a hybrid search answered lexically (the embeddings server failed); the results are still valid. */
  warning: z.string().optional(),
  /** The best hit's calibrated confidence in [0, 1]; below FAQ_ABSTAIN_BELOW the search answers nothing. */
  confidence: z.number().optional(),
});
export type AgentStep = z.infer<typeof AgentStep>;

export const DialogOptions = z.object({
  topK: z.number().int().min(1).max(50).optional(),
  language: SearchLanguageOption.optional(),
  useLlmPlanner: z.boolean().optional(),
  useMultiStepPlanner: z.boolean().optional(),
  mode: z.enum(['local', 'crew']).optional(),
  debug: z.boolean().optional(),
});
export type DialogOptions = z.infer<typeof DialogOptions>;

export const AgentDialogRequest = z.object({
  sessionId: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .regex(/^[\w.:-]+$/, 'letters, digits, _ . : - only')
    .optional(),
  message: z.string().trim().min(1).max(8000),
  history: z
    .array(DialogTurn.extend({ content: z.string().max(8000) }))
    .max(100)
    .optional(),
  options: DialogOptions.optional(),
});
export type AgentDialogRequest = z.infer<typeof AgentDialogRequest>;

/** One record of `meta.orchestrationSteps`: a plan step or what was done with it (`type` says which; other fields vary with it). */
export const OrchestrationStep = z.object({ type: z.string() }).catchall(z.unknown());
export type OrchestrationStep = z.infer<typeof OrchestrationStep>;

// --- Dialog state kept in the session (replaces the seed's in-memory contextStore) ---

/** Options of one dialog turn with every default applied. */
export const ResolvedDialogOptions = z.object({
  topK: z.number().int().min(1).max(50),
  language: SearchLanguageOption,
  useLlmPlanner: z.boolean(),
  useMultiStepPlanner: z.boolean(),
  mode: z.enum(['local', 'crew']),
  debug: z.boolean(),
});
export type ResolvedDialogOptions = z.infer<typeof ResolvedDialogOptions>;

export function resolveDialogOptions(o: DialogOptions | undefined, defaults: { topK: number }): ResolvedDialogOptions {
  return {
    topK: o?.topK ?? defaults.topK,
    language: o?.language ?? 'auto',
    useLlmPlanner: o?.useLlmPlanner ?? false,
    useMultiStepPlanner: o?.useMultiStepPlanner ?? true,
    mode: o?.mode ?? 'local',
    debug: o?.debug ?? false,
  };
}

/** One entry of the dialog history as the planner reads it; assistant entries keep the plan that produced them. */
export const FaqHistoryEntry = z.object({
  role: z.enum(['user', 'assistant', 'system']),
  content: z.string(),
  plan: MultiStepQueryPlan.nullable().optional(),
});
export type FaqHistoryEntry = z.infer<typeof FaqHistoryEntry>;

/** Which planner made the dialog turn's plan, and why it fell back to the rule-based one if it did. */
export const PlannerMeta = z.object({
  planner: z.enum(['rule', 'llm']).optional(),
  fallback: z.object({ reason: z.string(), detail: z.string().optional() }).optional(),
  orchestrator: z.enum(['crew']).optional().describe('crew: the plan came from the external orchestrator (options.mode "crew")'),
  /** The corpus version the plan was made against. */
  corpusVersion: z.number().optional(),
  /** How the answer was made (`fallback`: why an LLM answer fell back to the extractive one). */
  answer: z.object({ method: z.enum(['extractive', 'llm', 'none']), fallback: z.string().optional() }).optional(),
});

/** Everything one dialog turn produced: what /agent.dialog answers from. */
export const FaqTurnResult = z.object({
  turnId: z.string(),
  message: z.string(),
  options: ResolvedDialogOptions,
  plan: MultiStepQueryPlan.nullable(),
  planMeta: PlannerMeta,
  steps: z.array(AgentStep),
  orchestrationSteps: z.array(OrchestrationStep),
  hits: z.array(SearchHit),
  answer: z.string().nullable(),
  sources: z.array(z.string()),
  /** The search found no answer it was sure of: `answer` is null and `abstentionMessage` says so (defaults for turns stored before abstention existed). */
  abstained: z.boolean().default(false),
  abstentionMessage: z.string().nullable().default(null),
  /** The best hit's calibrated confidence, lowest over the plan's searches; null when nothing was searched. */
  confidence: z.number().nullable().default(null),
  needsClarification: z.boolean(),
  clarifyingQuestions: z.array(z.string()),
  final: z.boolean(),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type FaqTurnResult = z.infer<typeof FaqTurnResult>;

export const FaqState = z.object({
  /** 'dialog': created by /agent.dialog and addressed by its id; 'token': created by POST /v1/sessions and guarded by its token. */
  access: z.enum(['dialog', 'token']),
  history: z.array(FaqHistoryEntry),
  /** The most recent turns, newest last (bounded). */
  turns: z.array(FaqTurnResult),
});
export type FaqState = z.infer<typeof FaqState>;

/** Payload of the search agent's `query` job (queues/catalog.ts): one /agent.search call. */
export const SearchQueryJob = z.object({
  v: JobSchemaVersion,
  query: z.string().min(1),
  topK: z.number().int().min(1).max(50),
  language: SearchLanguageOption,
  minCorpusVersion: z.number().int().min(0).optional(),
  /** The trace of the /agent.search request (tracing/propagation.ts). */
  trace: JobTrace,
});
export type SearchQueryJob = z.infer<typeof SearchQueryJob>;

/** POST /agent.dialog's JSON answer (docs/seeds/002 §4.1.1, with `meta.sources` and `meta.planner`). */
export const AgentDialogResponse = z
  .object({
    sessionId: z.string(),
    answer: z.string().nullable().describe('null when the turn asks a clarifying question or abstains'),
    abstained: z.boolean().describe('true when the FAQ holds no answer the search is sure of: `answer` is null and `message` says so'),
    message: z
      .string()
      .nullable()
      .describe('the reply shown to the user when the turn abstains (rephrase, or the configured contact); else null'),
    confidence: z
      .number()
      .nullable()
      .describe("the answer's calibrated confidence in [0, 1] (the weakest of the plan's searches); null when nothing was searched"),
    needsClarification: z.boolean(),
    clarifyingQuestions: z.array(z.string()).optional().describe('present when needsClarification'),
    steps: z.array(AgentStep),
    final: z.boolean(),
    meta: z.object({
      multiStepPlan: MultiStepQueryPlan.optional().describe('the plan, when the multi-step planner ran (with `raw` under options.debug)'),
      orchestratorMode: z.enum(['local', 'crew']),
      orchestrationSteps: z.array(OrchestrationStep),
      latencyMs: z.number(),
      sources: z.array(z.string()),
      planner: PlannerMeta,
      hits: z
        .array(z.object({ id: z.string(), question: z.string(), score: z.number() }))
        .optional()
        .describe('with options.debug'),
    }),
    sessionToken: z.string().optional().describe('on the answer that created the dialog: send it as `Authorization: Bearer` to continue'),
  })
  .meta({ id: 'AgentDialogResponse' });
export type AgentDialogResponse = z.infer<typeof AgentDialogResponse>;

export const AgentSearchResponse = z.object({
  answer: z.string().nullable().describe("the best hit's answer; null when the search abstains"),
  abstained: z.boolean().describe('true when no hit is a confident answer (the confidence is below FAQ_ABSTAIN_BELOW)'),
  confidence: z.number().describe("the best hit's calibrated confidence in [0, 1]; 0 without hits"),
  message: z.string().nullable().describe('when abstaining, what to tell the user (rephrase, or the configured contact); else null'),
  hits: z.array(z.object({ id: z.string(), question: z.string(), answer: z.string(), score: z.number() })),
  steps: z.array(AgentStep),
  corpusVersion: z
    .number()
    .int()
    .describe('the corpus version the search answered from: while a newer upload is still being indexed, the previous one'),
});
export type AgentSearchResponse = z.infer<typeof AgentSearchResponse>;

/** What a search job returns: the response, or that the corpus version the request asked for is still being indexed. */
export const SearchJobResult = z.union([
  AgentSearchResponse,
  z.object({ notReady: z.object({ corpusVersion: z.number().int(), wanted: z.number().int() }) }),
]);
export type SearchJobResult = z.infer<typeof SearchJobResult>;
