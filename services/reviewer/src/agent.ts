import { type AgentDefinition, createAgent, createTool, failure, success } from '@convo/agent-kit';
import type { ToolContext } from '@convo/agent-kit';
import type { FormDraft } from '@convo/forms';
import type { ReviewerContext } from './context.js';
import type { ReviewResult } from '@convo/contract';
import {
  admitsNotKnowing,
  affirmsProposal,
  answersForField,
  applyReview,
  collectedFacts,
  type CurrentField,
  conversationSummary,
  currentField,
  earlierAnswers,
  factViews,
  fieldUnderReview,
  isNonAnswer,
  maxFollowUpsFor,
  otherFields,
  pendingSubtask,
  proposedValue,
  readingNow,
  readingOfVerdict,
  type ReviewApplied,
  ReviewerVerdict,
  type ReviewerOutput,
  requiredText,
  storedValue,
  subAgentResult,
  type VerdictReading,
} from '@convo/forms';
import { REVIEWER_PROMPT } from './prompt.js';

/**
 * Tool input (docs/seeds/004: nullable, never optional): the forms product's
 * ReviewerVerdict, so the model's parameters, the offline rules' call and what
 * the interviewer receives are one schema.
 */
export const ReviewInput = ReviewerVerdict;
export type ReviewInput = ReviewerVerdict;

/**
 * Tool input → internal ReviewResult (the field's stored lastReview): nulls become absent, empty lists stay lists,
 * and a passed value carries how it was read and whether it is to be confirmed.
 */
export function toReviewResult(input: ReviewInput, reading: VerdictReading | null = null): ReviewResult {
  return {
    ...(reading ? { derivation: reading.derivation, ...(reading.confirm ? { confirm: true } : {}) } : {}),
    passed: input.passed,
    ...(input.feedback !== null ? { feedback: input.feedback } : {}),
    missing_facts: (input.missing ?? []).map((missing) => missing.fact),
    extracted_facts: input.extracted_facts ?? [],
    ...(input.field_value !== null && input.field_value.trim() !== '' ? { field_value: input.field_value.trim() } : {}),
    ...(input.skipped ? { skipped: true } : {}),
  };
}

/**
 * The verdict as it is recorded: a required field is never skipped, whatever
 * the model says — a claimed skip becomes a fail that says so.
 */
function recordedVerdict(input: ReviewInput, field: { required: boolean }, language: 'ja' | 'en'): ReviewInput {
  if (!input.skipped || !field.required) return input;
  return {
    ...input,
    passed: false,
    skipped: false,
    notice: input.notice ?? { code: 'required_no_skip', text: requiredText(language, 'skip') },
    feedback: input.feedback ?? 'This field is required and cannot be skipped.',
  };
}

function pendingCallId(draft: FormDraft): string | null {
  return draft.state.loop?.pendingCall.id ?? null;
}

/**
 * The review tool's identity (its instances differ only in the follow-up bound), for the offline policy. The verdict
 * is applied by code (form-flow.applyReview) and handed back to the interviewer.
 */
export const REVIEW_TOOL = { name: 'review', schema: ReviewInput } as const;

function createReviewTool(maxFollowUps: number) {
  return createTool({
    ...REVIEW_TOOL,
    description: "Return your verdict on the respondent's answers for the field.",
    execute(args, context: ToolContext<FormDraft>) {
      const draft = context.draft;
      const cur = fieldUnderReview(draft.state);
      const callId = pendingCallId(draft);
      if (!cur || !callId) return { result: failure('There is no field under review.') };
      if (callId in draft.state.subSessionResults) return { result: failure('The verdict was already recorded.') };
      const recorded = recordedVerdict(args, cur.field, draft.state.bootstrap.language === 'ja' ? 'ja' : 'en');
      // Whoever wrote the verdict, a yes or no to a fact with its own pair of options is stored as that option.
      const verdict = recorded.field_value
        ? { ...recorded, field_value: storedValue({ field: cur.field, facts: cur.facts, value: recorded.field_value }) }
        : recorded;
      const review = toReviewResult(verdict, readingOf(draft, cur, verdict));
      const applied = applyReview(
        draft,
        cur.field.fieldId,
        review,
        followUpBound(draft, cur.field.fieldId, review, maxFollowUpsFor(draft.state, maxFollowUps)),
      );
      const output: ReviewerOutput = {
        fieldId: cur.field.fieldId,
        outcome: applied.outcome,
        finalAttempt: cur.fieldState.finalAttempt,
        passed: review.passed,
        skipped: review.skipped ?? false,
        field_value: review.field_value ?? null,
        missing: verdict.missing ?? [],
        extracted_facts: review.extracted_facts ?? [],
        notice: verdict.notice,
        feedback: review.feedback ?? null,
        derivation: review.derivation ?? null,
      };
      draft.setSubtaskResult(
        callId,
        success(verdictMessage(draft, cur.field.fieldId, applied, verdict), subAgentResult('reviewer', output)),
      );
      return { result: success('Verdict recorded.') };
    },
  });
}

/**
 * How sure a passed value is (docs/api.md#certainty), by the same rule whoever wrote the verdict. A correction is
 * shown back as it is stored, and a skip stores nothing, so neither is read for certainty. A reading is `confirmed`
 * only when the code finds it so (the reply said yes to that very reading, {@link confirmationVerdict}): a verdict
 * that merely claims it is read like any other.
 */
function readingOf(draft: FormDraft, cur: CurrentField, verdict: ReviewInput): VerdictReading | null {
  if (!verdict.passed || verdict.skipped || !verdict.field_value?.trim()) return null;
  if (cur.fieldState.status === 'done' || cur.fieldState.status === 'skipped') return null;
  if (verdict.derivation === 'confirmed' && confirmationVerdict(draft)?.field_value === verdict.field_value)
    return { derivation: 'confirmed', confirm: false };
  return readingOfVerdict({
    ...reference(draft),
    field: cur.field,
    facts: cur.facts,
    value: verdict.field_value.trim(),
    answers: reviewedAnswers(draft, cur),
    verdict: { derivation: verdict.derivation, certain: verdict.certain },
  });
}

function reference(draft: FormDraft) {
  const bootstrap = draft.state.bootstrap;
  return {
    language: bootstrap.language === 'ja' ? ('ja' as const) : ('en' as const),
    country: bootstrap.country,
    timezone: bootstrap.timezone,
    now: readingNow(draft.state),
  };
}

/**
 * The answers a verdict is about: every answer to the field (follow-ups add facts), except that after "Just to
 * check: …?" the reply is judged on its own, and a correction on its own words (the earlier answer is what it
 * replaces).
 */
function reviewedAnswers(draft: FormDraft, cur: CurrentField): string[] {
  const answers = answersForField(draft.state, cur.field.fieldId);
  const resolved = cur.fieldState.status === 'done' || cur.fieldState.status === 'skipped';
  return resolved || proposedValue(cur.fieldState) !== null ? answers.slice(-1) : answers;
}

/**
 * "Yes" to "Just to check: …?" settles the reading without another review: no model call, the same for every
 * provider. Anything else is reviewed as a new answer.
 */
function confirmationVerdict(draft: FormDraft): ReviewInput | null {
  const cur = fieldUnderReview(draft.state);
  const id = pendingCallId(draft);
  if (!cur || !id || id in draft.state.subSessionResults) return null;
  const proposal = proposedValue(cur.fieldState);
  const reply = answersForField(draft.state, cur.field.fieldId).at(-1);
  if (proposal === null || reply === undefined) return null;
  if (!affirmsProposal({ ...reference(draft), field: cur.field, facts: cur.facts, proposal, reply })) return null;
  return {
    passed: true,
    skipped: null,
    field_value: proposal,
    missing: [],
    extracted_facts: [...(cur.fieldState.lastReview?.extracted_facts ?? [])],
    notice: null,
    feedback: null,
    derivation: 'confirmed',
    certain: true,
  };
}

/**
 * The follow-ups this field may still get. A respondent who has said twice
 * in a row that they cannot answer ("わかりません", "I'm not sure") is not
 * asked a third time: the field is resolved now (kept for review, or skipped
 * if optional), whatever the model would do.
 */
function followUpBound(draft: FormDraft, fieldId: string, review: ReviewResult, max: number): number {
  if (review.passed) return max;
  const answers = answersForField(draft.state, fieldId).slice(-2);
  const unable = answers.length === 2 && answers.every((answer) => isNonAnswer(answer) || admitsNotKnowing(answer));
  const field = draft.state.fields.find((candidate) => candidate.fieldId === fieldId);
  return unable && field ? Math.min(max, field.followUps) : max;
}

/** What the interviewer is told to do after the verdict. */
function verdictMessage(draft: FormDraft, fieldId: string, applied: ReviewApplied, verdict: ReviewInput): string {
  const next = currentField(draft.state);
  const missing = (verdict.missing ?? []).map((fact) => fact.fact).join('; ') || 'details';
  switch (applied.outcome) {
    case 'follow_up':
      return draft.state.fields.find((field) => field.fieldId === fieldId)?.finalAttempt
        ? `Not yet complete. Missing: ${missing}. Last try: say exactly what is still needed, offer the choices or an example, and that they may say they cannot answer.`
        : `Not yet complete. Missing: ${missing}. Ask a follow-up.`;
    case 'confirm':
      return `The value read for ${fieldId} is not certain (${verdict.derivation ?? 'inferred'}): ask the respondent, in one short question, to confirm "${verdict.field_value ?? ''}" (write the value exactly so).`;
    case 'corrected':
      return `The correction of ${fieldId} was recorded. Acknowledge it, then continue with ${next ? `the current field ${next.field.fieldId}` : 'closing the interview'}.`;
    case 'correction_rejected':
      return `The correction of ${fieldId} could not be used (${missing}); the earlier value stays. Say so briefly, then continue.`;
    default:
      return applied.next === 'completed'
        ? `Field ${fieldId} ${applied.outcome}. Every field is resolved: close the interview.`
        : `Field ${fieldId} ${applied.outcome}. Next field: ${next?.field.fieldId ?? 'none'}.`;
  }
}

export function createReviewerAgent(opts: { maxFollowUps: number }): AgentDefinition<FormDraft> {
  return createAgent<FormDraft>({
    name: 'reviewer',
    tools: [createReviewTool(opts.maxFollowUps)],
    instructions: () => REVIEWER_PROMPT,
    context: (draft) => reviewerContext(draft),
    directCall: (draft) => {
      const verdict = confirmationVerdict(draft);
      return verdict ? { name: 'review', arguments: JSON.stringify(verdict) } : null;
    },
    remainingTasks: (draft) => {
      const id = pendingCallId(draft);
      return id && !(id in draft.state.subSessionResults) ? ['Return your verdict using review'] : [];
    },
    completion: (draft) => {
      const id = pendingCallId(draft);
      return id && id in draft.state.subSessionResults ? { type: 'return' } : null;
    },
    // Seed: a sub-session gets a summary (field, collected facts, answers), not the whole conversation.
    // The answers are the respondent's words: they and the field they answer go in the user message, not the system prompt.
    initialMessages: (draft) => {
      const { answers, ...field } = reviewerContext(draft);
      return [
        { role: 'user', content: `Review these answers:\n${JSON.stringify(answers)}\n\nField under review:\n${JSON.stringify(field)}` },
      ];
    },
  });
}

export function reviewerContext(draft: FormDraft): ReviewerContext {
  const cur = fieldUnderReview(draft.state);
  if (!cur) throw new Error('reviewer context without a field under review');
  const note = pendingSubtask(draft.state)?.note ?? null;
  const resolved = cur.fieldState.status === 'done' || cur.fieldState.status === 'skipped';
  return {
    agent: 'reviewer',
    language: draft.state.bootstrap.language === 'ja' ? 'ja' : 'en',
    country: draft.state.bootstrap.country,
    timezone: draft.state.bootstrap.timezone,
    now: readingNow(draft.state).toISOString(),
    field: cur.field,
    facts: factViews(cur.field, cur.facts),
    answers: reviewedAnswers(draft, cur),
    proposal: proposedValue(cur.fieldState),
    earlierAnswers: earlierAnswers(draft.state, cur.field.fieldId),
    summary: conversationSummary(draft.state),
    collected: collectedFacts(draft.state),
    otherFields: otherFields(draft.state, cur.field.fieldId),
    correction: resolved,
    currentValue: resolved ? cur.fieldState.value : null,
    note,
  };
}
