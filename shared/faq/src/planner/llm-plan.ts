import { LlmMultiStepPlan, MultiStepQueryPlan, type PlanStep } from '@convo/contract';
import { answerStep } from './plans.js';
import { planLanguage } from './rule-planner.js';
import type { PlanFallbackReason, PlanInput } from './types.js';

/**
 * Reading the LLM planner's reply (docs/seeds/002 §3.4.1) into a MultiStepQueryPlan.
 * Lenient about wrapping (code fences, a sentence around the object), strict
 * about content: a plan that would leave the dialog with nothing to do is
 * refused so the rule planner can stand in.
 */

export type ParsedLlmPlan =
  | { ok: true; plan: MultiStepQueryPlan }
  | { ok: false; reason: Extract<PlanFallbackReason, 'unparsable_json' | 'invalid_plan'>; detail: string };

export function parseLlmPlan(text: string, input: PlanInput): ParsedLlmPlan {
  const body = stripFences(text);
  if (body === '') return { ok: false, reason: 'unparsable_json', detail: 'empty response' };
  const json = parseJsonObject(body);
  if (json === undefined) return { ok: false, reason: 'unparsable_json', detail: `not JSON: ${preview(body)}` };
  const parsed = LlmMultiStepPlan.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.slice(0, 5).map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`);
    return { ok: false, reason: 'invalid_plan', detail: issues.join('; ') };
  }
  return toPlan(parsed.data, json, input);
}

/**
 * A reply in a code fence (```json … ```) without the fence. What
 * `^```[\w-]*\s*\n?([\s\S]*?)\n?\s*```$` took out, found by position: the regex
 * tried every split of the whitespace between the two fences.
 */
function stripFences(text: string): string {
  const trimmed = text.trim();
  if (trimmed.length < 6 || !trimmed.startsWith('```') || !trimmed.endsWith('```')) return trimmed;
  const opening = /^```[\w-]*\s*/.exec(trimmed)![0];
  return trimmed.slice(opening.length, trimmed.length - 3).trim();
}

// Models asked for "JSON only" still sometimes add a sentence: take the outermost object.
function parseJsonObject(body: string): unknown {
  for (const candidate of [body, body.slice(body.indexOf('{'), body.lastIndexOf('}') + 1)]) {
    if (candidate === '') continue;
    try {
      return JSON.parse(candidate) as unknown;
    } catch {
      // try the next candidate
    }
  }
  return undefined;
}

function preview(text: string): string {
  return text.length > 120 ? `${text.slice(0, 120)}…` : text;
}

const ID_LABEL: Record<PlanStep['type'], string> = { clarify: 'clarify', search: 'search', followup_search: 'followup', answer: 'answer' };

function invalid(detail: string): ParsedLlmPlan {
  return { ok: false, reason: 'invalid_plan', detail };
}

function toPlan(llmPlan: LlmMultiStepPlan, raw: unknown, input: PlanInput): ParsedLlmPlan {
  const language = llmPlan.language ?? planLanguage(input);
  let steps: PlanStep[] = llmPlan.steps.map((step): PlanStep => {
    switch (step.type) {
      case 'search':
      case 'followup_search':
        return { ...step, topK: step.topK ?? input.topK };
      case 'answer':
        return { ...step, style: step.style ?? 'faq', includeSources: step.includeSources ?? true };
      case 'clarify':
        return step;
    }
  });
  const stepQuestions = steps.flatMap((step) => (step.type === 'clarify' ? step.questions : []));
  const questions = [
    ...new Set(
      [...(llmPlan.clarifyingQuestions ?? []), ...stepQuestions].map((question) => question.trim()).filter((question) => question !== ''),
    ),
  ];
  // The flag and the steps must agree; a clarify step is concrete, so it wins over the flag.
  if (llmPlan.needsClarification && stepQuestions.length === 0) {
    if (questions.length === 0) return invalid('needsClarification is true but no clarifying question was given');
    steps.unshift({ id: 'step_clarify_1', type: 'clarify', questions });
  }
  const needsClarification = steps.some((step) => step.type === 'clarify');
  const searches = steps.filter((step) => step.type === 'search' || step.type === 'followup_search');
  if (!needsClarification && searches.length === 0) return invalid('the plan has neither a search nor a clarify step');

  // Answers come last, and a plan that searches always ends with one.
  const answers = steps.filter((step) => step.type === 'answer');
  steps = [...steps.filter((step) => step.type !== 'answer'), ...answers];
  if (searches.length > 0 && answers.length === 0) steps.push(answerStep(1, language === 'en' ? 'en' : 'ja'));
  if (new Set(steps.map((step) => step.id)).size !== steps.length) steps = renumber(steps);

  const followupQueries = llmPlan.followupQueries ?? searches.flatMap((step) => (step.type === 'followup_search' ? [step.query] : []));
  const plan = MultiStepQueryPlan.safeParse({
    steps,
    needsClarification,
    ...(needsClarification ? { clarifyingQuestions: questions } : {}),
    ...(followupQueries.length > 0 ? { followupQueries } : {}),
    confidence: llmPlan.confidence,
    language,
    raw,
  });
  return plan.success
    ? { ok: true, plan: plan.data }
    : invalid(plan.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; '));
}

/** Ids must be unique for the orchestration trace; when the model repeated one, number them ourselves. */
function renumber(steps: PlanStep[]): PlanStep[] {
  const counts = new Map<string, number>();
  return steps.map((step) => {
    const ordinal = (counts.get(step.type) ?? 0) + 1;
    counts.set(step.type, ordinal);
    return { ...step, id: `step_${ID_LABEL[step.type]}_${ordinal}` };
  });
}
