import { quickCheck, resolveTopics } from '@convo/forms';
import { call, callsOf, type Policy } from '@convo/agent-kit';
import { CHECK_RESULT_TOOL } from './agent.js';
import type { CheckerContext } from './context.js';

/** The offline QuickCheck: the deterministic rules of compliance/quick-check, reported through `result`. */
export const checkerPolicy: Policy = (req, tail) => {
  const ctx = req.context as CheckerContext;
  if (callsOf(tail, CHECK_RESULT_TOOL).some((outcome) => outcome.status === 'success')) return { text: 'Checked.' };
  const result = quickCheck({
    question: ctx.question,
    language: ctx.language,
    // The closing message belongs to no field: only topic and tone rules apply (the code filters the rest).
    field: ctx.field ?? { fieldId: '', label: '', intent: null, required: false },
    facts: ctx.facts,
    answered: ctx.answered,
    topics: resolveTopics(ctx.prohibitedTopics),
  });
  return call(CHECK_RESULT_TOOL, { passed: result.passed, violations: result.violations });
};
