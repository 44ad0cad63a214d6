import type { ReviewerContext } from '../../agents/contexts.js';
import { reviewAnswer } from '../../nlu/review-rules.js';
import { call, type Policy } from './protocol.js';

/** The offline reviewer: the deterministic rules of nlu/review-rules, reported through the review tool. */
export const reviewerPolicy: Policy = (req, tail) => {
  const ctx = req.context as ReviewerContext;
  if (tail.some((t) => t.name === 'review' && t.status === 'success')) return { text: 'Reviewed.' };
  const r = reviewAnswer({
    field: ctx.field,
    facts: ctx.facts,
    answers: ctx.answers,
    language: ctx.language,
    country: ctx.country,
  });
  return call('review', {
    passed: r.passed,
    feedback: r.feedback ?? null,
    missing_facts: r.missing_facts ?? [],
    extracted_facts: r.extracted_facts ?? [],
    field_value: r.field_value ?? null,
    skipped: r.skipped ?? null,
  });
};
