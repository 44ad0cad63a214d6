import type { InterviewerContext } from './context.js';
import { countryName, parseSubAgentResult, type ReviewerOutput, type SubAgent, type SubAgentOutput } from '@convo/forms';
import {
  acknowledgementText,
  alreadyCompleteText,
  bootstrapDoneText,
  completionText,
  confirmCandidateText,
  confirmReadingText,
  correctionText,
  followUpText,
  keptForReviewText,
  lastChanceText,
  questionText,
} from './phrasing.js';
import { ask, call, callsOf, type Policy, type ToolOutcome } from '@convo/agent-kit';
import { subtask } from './agent.js';

const subtaskResults = (tail: ToolOutcome[], agent: SubAgent) =>
  callsOf(tail, subtask).filter((outcome) => outcome.args.agent === agent && outcome.status === 'success');

/**
 * A sub-agent's result, parsed with its product's schema.
 *
 * @throws SubAgentResultError when it does not match: the turn fails rather than phrase a question from a guess.
 */
function resultOf<A extends SubAgent>(agent: A, outcome: ToolOutcome): SubAgentOutput<A> {
  const parsed = parseSubAgentResult(agent, outcome.result);
  if (!parsed.success) throw parsed.error;
  return parsed.data;
}

/**
 * The offline interviewer: review a pending answer; then follow up on what the
 * reviewer found missing, ask the current field, or close. In application
 * interviews every message first goes through the checker, and a rejected
 * question is rephrased more plainly before it is checked again.
 */
export const interviewerPolicy: Policy = (req, tail) => {
  const ctx = req.context as InterviewerContext;
  const cur = ctx.current;
  const lastReview = subtaskResults(tail, 'reviewer').at(-1);

  if (ctx.correction && !lastReview) {
    return call(subtask, { agent: 'reviewer', field_id: ctx.correction.fieldId, question: null, note: 'correction' });
  }
  if (cur && ctx.answerPending && !lastReview) {
    return call(subtask, { agent: 'reviewer', field_id: cur.fieldId, question: null, note: null });
  }
  const review = lastReview ? resultOf('reviewer', lastReview) : undefined;
  const text = intendedMessage(ctx, tail, review);
  if (ctx.kind !== 'application') return ask(text);

  const last = tail.at(-1);
  const check =
    last?.name === 'subtask' && last.args.agent === 'checker' && last.status === 'success' ? resultOf('checker', last) : undefined;
  if (check?.passed) return ask(check.question);
  const attempts = cur ? cur.failedChecks : ctx.closingFailedChecks;
  const lead = review ? leadFor(ctx, review) : '';
  // A confirmation question is already as plain as it gets; anything else loses its intent and hints, keeping the lead.
  const question = attempts > 0 && ctx.echo?.mode !== 'confirm' ? [lead, rephrased(ctx, attempts)].filter(Boolean).join('\n') : text;
  return call(subtask, { agent: 'checker', field_id: cur?.fieldId ?? null, question, note: null });
};

function intendedMessage(ctx: InterviewerContext, tail: ToolOutcome[], review: ReviewerOutput | undefined): string {
  const lead = review ? leadFor(ctx, review) : '';
  const next = nextMessage(ctx, tail, review);
  return lead ? `${lead}\n${next}` : next;
}

/** What to say about the verdict that just came back, before moving on (a correction, an answer kept for review). */
function leadFor(ctx: InterviewerContext, review: ReviewerOutput): string {
  const label = ctx.summary.find((entry) => entry.fieldId === review.fieldId)?.label ?? '';
  if (review.outcome === 'corrected')
    return correctionText(ctx.language, { label, value: ctx.echo?.shown ?? review.field_value, accepted: true });
  if (review.outcome === 'correction_rejected') {
    const kept = ctx.summary.find((entry) => entry.fieldId === review.fieldId)?.value ?? null;
    return correctionText(ctx.language, { label, value: kept, accepted: false });
  }
  if (review.outcome === 'needs_review') return keptForReviewText(ctx.language);
  // A value just stored is read back, so a respondent who was misread can say so (docs/api.md#certainty).
  if (ctx.echo?.mode === 'ack' && ctx.echo.fieldId === review.fieldId) return acknowledgementText(ctx.language, ctx.echo.shown);
  return '';
}

function nextMessage(ctx: InterviewerContext, tail: ToolOutcome[], review: ReviewerOutput | undefined): string {
  const cur = ctx.current;
  const lang = ctx.language;
  if (!cur) {
    const justFinished = callsOf(tail, subtask).length > 0 || ctx.sessionStatus === 'active';
    const summary = ctx.summary.map((entry) => ({
      label: entry.label,
      value: entry.value,
      status: entry.status,
      needsReview: entry.needsReview,
    }));
    return justFinished ? completionText(lang, summary) : alreadyCompleteText(lang);
  }
  if (review?.outcome === 'confirm' && review.fieldId === cur.fieldId && ctx.echo?.mode === 'confirm')
    return confirmReadingText(lang, ctx.echo.shown);
  if (review?.outcome === 'follow_up' && review.fieldId === cur.fieldId) {
    const input = { field: cur, missing: review.missing, notice: review.notice, language: lang };
    return cur.finalAttempt ? lastChanceText(input) : followUpText(input);
  }
  if (!cur.asked && cur.candidate) return confirmCandidateText(lang, { field: cur, value: cur.candidate });
  return question(ctx);
}

function question(ctx: InterviewerContext): string {
  const cur = ctx.current!;
  const text = questionText({ field: cur, facts: cur.facts, language: ctx.language, isFirst: ctx.firstQuestion });
  if (ctx.firstQuestion && ctx.bootstrap.country && ctx.bootstrap.timezone) {
    const country = countryName(ctx.bootstrap.country, ctx.language);
    return `${bootstrapDoneText(ctx.language, { country, timezone: ctx.bootstrap.timezone })}\n${text}`;
  }
  return text;
}

/**
 * A plainer wording after a failed check: first without the intent and hints
 * (where an offending phrase usually comes from), then the bare label.
 */
function rephrased(ctx: InterviewerContext, attempt: number): string {
  const cur = ctx.current;
  const ja = ctx.language === 'ja';
  if (!cur)
    return ja
      ? 'ご回答ありがとうございました。内容をご確認のうえ、送信してください。'
      : 'Thank you for your answers. Please review them and submit your application.';
  if (attempt === 1) {
    return questionText({ field: { ...cur, intent: null, facts: [] }, facts: [], language: ctx.language, isFirst: false });
  }
  return ja ? `「${cur.label}」について教えていただけますか？` : `Could you tell me about "${cur.label}"?`;
}
