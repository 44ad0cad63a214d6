import type { ReviewerContext } from './context.js';
import { preloadContentAnalyzer, reviewAnswer } from '@convo/forms';
import { call, callsOf, type Policy } from '@convo/agent-kit';
import { REVIEW_TOOL } from './agent.js';

/** The offline reviewer: the deterministic rules of nlu/review-rules, reported through the review tool. */
export const reviewerPolicy: Policy = async (req, tail) => {
  const ctx = req.context as ReviewerContext;
  if (callsOf(tail, REVIEW_TOOL).some((outcome) => outcome.status === 'success')) return { text: 'Reviewed.' };
  await preloadContentAnalyzer();
  const review = reviewAnswer({
    field: ctx.field,
    // The form's own words (and explicit kinds) are judged; the inferred kinds are the same ones the interviewer was shown.
    facts: ctx.facts.map(({ kind, options, optionsDescribe, ...fact }) =>
      optionsDescribe ? fact : { ...fact, answerType: kind, ...(options.length >= 2 ? { options } : {}) },
    ),
    answers: ctx.answers,
    language: ctx.language,
    country: ctx.country,
    timezone: ctx.timezone,
    now: new Date(ctx.now),
    earlierAnswers: ctx.correction ? [] : ctx.earlierAnswers,
    otherFields: ctx.otherFields,
    replacing: ctx.currentValue,
  });
  return call(REVIEW_TOOL, {
    passed: review.passed,
    skipped: review.skipped ?? null,
    field_value: review.field_value ?? null,
    missing: review.missing,
    extracted_facts: review.extracted_facts ?? [],
    notice: review.notice,
    feedback: review.feedback ?? null,
    // How sure the value is, the review tool works out from the answers, as it does for a model's verdict.
    derivation: null,
    certain: null,
  });
};
