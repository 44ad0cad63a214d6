import { createAgent, type AgentDefinition } from '@convo/shared/agents/agent';
import type { ReviewerContext } from '@convo/shared/agents/contexts';
import type { SessionDraft } from '@convo/shared/agents/draft';
import { createTool, failure, success } from '@convo/shared/agents/tool';
import { answersForField, applyReview, currentField, maxFollowUpsFor } from '@convo/shared/domain/form-flow';
import type { ReviewResult } from '@convo/shared/schemas/form';
import { z } from 'zod';
import { REVIEWER_PROMPT } from './prompt.js';

/** Tool input (seed 004: nullable, never optional). */
export const ReviewInput = z.object({
  passed: z.boolean(),
  feedback: z.union([z.string(), z.null()]),
  missing_facts: z.union([z.array(z.string()), z.null()]),
  extracted_facts: z.union([z.array(z.string()), z.null()]),
  field_value: z.union([z.string(), z.null()]),
  skipped: z.union([z.boolean(), z.null()]).describe('true only when the respondent declined an optional field'),
});
export type ReviewInput = z.infer<typeof ReviewInput>;

/** Tool input → internal ReviewResult: nulls become absent, empty lists stay lists. */
export function toReviewResult(input: ReviewInput): ReviewResult {
  return {
    passed: input.passed,
    ...(input.feedback !== null ? { feedback: input.feedback } : {}),
    missing_facts: input.missing_facts ?? [],
    extracted_facts: input.extracted_facts ?? [],
    ...(input.field_value !== null && input.field_value.trim() !== '' ? { field_value: input.field_value.trim() } : {}),
    ...(input.skipped ? { skipped: true } : {}),
  };
}

function pendingCallId(draft: SessionDraft): string | null {
  return draft.state.loop?.pendingCall.id ?? null;
}

/** review: the verdict is applied by code (form-flow.applyReview) and handed back to the interviewer. */
function createReviewTool(maxFollowUps: number) {
  return createTool({
    name: 'review',
    description: "Return your verdict on the respondent's answers for the field.",
    schema: ReviewInput,
    execute(args, { draft }) {
      const cur = currentField(draft.state);
      const callId = pendingCallId(draft);
      if (!cur || !callId) return { result: failure('There is no field under review.') };
      if (callId in draft.state.subSessionResults) return { result: failure('The verdict was already recorded.') };
      const review = toReviewResult(args);
      if (review.skipped && cur.field.required) {
        review.skipped = false;
        review.passed = false;
        review.feedback = review.feedback ?? 'This field is required and cannot be skipped.';
      }
      const applied = applyReview(draft, cur.field.fieldId, review, maxFollowUpsFor(draft.state, maxFollowUps));
      const next = currentField(draft.state);
      const message =
        applied.outcome === 'follow_up'
          ? `Not yet complete. Missing: ${(review.missing_facts ?? []).join('; ') || 'details'}. Ask a follow-up.`
          : applied.next === 'completed'
            ? 'Field resolved. Every field is resolved: close the interview.'
            : `Field ${cur.field.fieldId} ${applied.outcome}. Next field: ${next?.field.fieldId ?? 'none'}.`;
      const result = success(message, { reviewerAgentOutput: { fieldId: cur.field.fieldId, outcome: applied.outcome, ...review } });
      draft.state.subSessionResults[callId] = result;
      return { result: success('Verdict recorded.') };
    },
  });
}

export function createReviewerAgent(opts: { maxFollowUps: number }): AgentDefinition {
  return createAgent({
    name: 'reviewer',
    tools: [createReviewTool(opts.maxFollowUps)],
    instructions: (draft) => `${REVIEWER_PROMPT}\n\nField under review:\n${JSON.stringify(reviewerContext(draft))}`,
    context: (draft) => reviewerContext(draft),
    remainingTasks: (draft) => {
      const id = pendingCallId(draft);
      return id && !(id in draft.state.subSessionResults) ? ['Return your verdict using review'] : [];
    },
    completion: (draft) => {
      const id = pendingCallId(draft);
      return id && id in draft.state.subSessionResults ? { type: 'return' } : null;
    },
    // Seed: a sub-session gets a summary (field, collected facts, answers), not the whole conversation.
    initialMessages: (draft) => [{ role: 'user', content: `Review these answers:\n${JSON.stringify(reviewerContext(draft).answers)}` }],
  });
}

export function reviewerContext(draft: SessionDraft): ReviewerContext {
  const cur = currentField(draft.state);
  if (!cur) throw new Error('reviewer context without a current field');
  const args = draft.state.loop?.pendingCall.arguments;
  let note: string | null = null;
  try {
    note = args ? ((JSON.parse(args) as { note?: string | null }).note ?? null) : null;
  } catch {
    note = null;
  }
  return {
    agent: 'reviewer',
    language: draft.state.bootstrap.language === 'ja' ? 'ja' : 'en',
    country: draft.state.bootstrap.country,
    field: cur.field,
    facts: cur.facts,
    answers: answersForField(draft.state, cur.field.fieldId),
    note,
  };
}
