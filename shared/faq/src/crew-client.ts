import { z } from 'zod';
import { AppError } from '@convo/runtime';
import { type FaqHistoryEntry } from '@convo/contract';

/**
 * Client of an external orchestrator for `mode: "crew"` (docs/seeds/002 §4.2.1):
 * POST {CREW_URL}/crew/orchestrator/plan with the conversation, returning a
 * plan in the LLM planner's JSON shape (mapped by the caller). Any failure is
 * an AppError the planner turns into a rule-based fallback.
 */
export type CrewPlanRequest = {
  conversation: Array<{ role: 'user' | 'assistant' | 'system'; content: string }>;
  locale: string;
  planOptions: { topK: number; language: string };
  routeContext: { contextTokens: number; recall: number | null; complexity: 'low' | 'medium' | 'high'; safetyTag: string };
  debug: boolean;
};

const CrewPlanResponse = z.object({ plan: z.record(z.string(), z.unknown()) });

export function buildCrewRequest(input: {
  history: FaqHistoryEntry[];
  message: string;
  language: 'ja' | 'en';
  topK: number;
  optionLanguage: string;
  contentTerms: number;
  debug: boolean;
}): CrewPlanRequest {
  const conversation = [
    ...input.history.map((h) => ({ role: h.role, content: h.content })),
    { role: 'user' as const, content: input.message },
  ];
  const chars = conversation.reduce((n, t) => n + t.content.length, 0);
  return {
    conversation,
    locale: input.language,
    planOptions: { topK: input.topK, language: input.optionLanguage },
    routeContext: {
      // A rough token count (about 4 characters per token for English, 1–2 for Japanese); the orchestrator only routes on it.
      contextTokens: Math.ceil(input.language === 'ja' ? chars / 1.5 : chars / 4),
      recall: null,
      complexity: input.contentTerms <= 2 ? 'low' : input.contentTerms <= 6 ? 'medium' : 'high',
      safetyTag: 'none',
    },
    debug: input.debug,
  };
}

export async function requestCrewPlan(
  url: string,
  body: CrewPlanRequest,
  opts: { timeoutMs: number; signal?: AbortSignal },
): Promise<Record<string, unknown>> {
  const signal = opts.signal ? AbortSignal.any([opts.signal, AbortSignal.timeout(opts.timeoutMs)]) : AbortSignal.timeout(opts.timeoutMs);
  let res: Response;
  try {
    res = await fetch(new URL('/crew/orchestrator/plan', url), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
      signal,
    });
  } catch (err) {
    throw new AppError('crew_unreachable', `crew orchestrator unreachable: ${err instanceof Error ? err.message : String(err)}`, {
      status: 502,
      cause: err,
    });
  }
  if (!res.ok) throw new AppError('crew_error', `crew orchestrator answered ${res.status}`, { status: 502 });
  const parsed = CrewPlanResponse.safeParse(await res.json().catch(() => null));
  if (!parsed.success) throw new AppError('crew_invalid', 'crew orchestrator answered without a plan object', { status: 502 });
  return parsed.data.plan;
}
