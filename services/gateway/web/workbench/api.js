// @ts-check
/**
 * The workbench's types, from the contract through @convo/client (its calls
 * are the client's `workbench` group), and the few rules the page draws from
 * what the calls answer.
 */

import { ProblemConflictError } from '/lib/convo-client.js';

/** @typedef {import('/lib/convo-client.js').ConvoClient['workbench']} WorkbenchApi */
/** @typedef {import('@convo/contract').Problem} Problem */
/** @typedef {import('@convo/contract').Worksheet} Worksheet */
/** @typedef {import('@convo/contract').EditableField} EditableField */
/** @typedef {import('@convo/contract').ConsistencyIssue} ConsistencyIssue */
/** @typedef {import('@convo/contract').ConsistencyReport} ConsistencyReport */
/** @typedef {import('@convo/contract').ProblemFixes} ProblemFixes */
/** @typedef {import('@convo/contract').AutoFixResponse} AutoFixResponse */
/** @typedef {import('@convo/contract').Suggestions} Suggestions */
/** @typedef {import('@convo/contract').ValidateResponse} ValidateResponse */
/** @typedef {import('@convo/contract').QualityScore} QualityScore */
/** @typedef {import('@convo/contract').AgentResult} AgentResult */

/**
 * The problem as it is now, when an edit was refused for a stale version (409 with `problem`).
 * @param {unknown} err
 * @returns {Problem | null}
 */
export function currentProblemOf(err) {
  return err instanceof ProblemConflictError ? err.problem : null;
}

/**
 * ✅ / ⚠️ / ❌ from a consistency report: any error is red, warnings only are yellow.
 * @param {ConsistencyReport} report
 * @returns {'ok' | 'warn' | 'bad'}
 */
export function consistencyState(report) {
  if (report.issues.some((issue) => issue.severity === 'error')) return 'bad';
  if (report.issues.length > 0) return 'warn';
  return report.isConsistent ? 'ok' : 'bad';
}

/** Fields of a fix, in the order they are applied: the answer first, the words that explain it last. */
export const FIX_ORDER = /** @type {const} */ (['correctChoiceIndex', 'choices', 'prompt', 'modelAnswer', 'explanation']);
