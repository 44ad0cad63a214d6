// @ts-check
/**
 * The workbench's HTTP API (docs/API.md §3, shapes in
 * shared/runtime/src/schemas/workbench.ts) on `fetch`, same origin.
 */

import { ApiError, requestJson } from '../lib/api.js';

/**
 * @typedef {object} Problem
 * @property {string} id
 * @property {string} worksheetId
 * @property {number} index 1-based
 * @property {'multiple_choice' | 'written'} type
 * @property {string} prompt
 * @property {string[] | null} choices
 * @property {number | null} correctChoiceIndex
 * @property {string | null} modelAnswer
 * @property {string[] | null} rubric
 * @property {string} explanation
 * @property {number} version
 */

/**
 * @typedef {object} Worksheet
 * @property {string} worksheetId
 * @property {string} title
 * @property {string} subject
 * @property {'easy' | 'normal' | 'hard'} difficulty
 * @property {'ja' | 'en'} language
 * @property {string | null} topic
 * @property {Problem[]} problems
 */

/** @typedef {'prompt' | 'choices' | 'explanation' | 'correctChoiceIndex' | 'modelAnswer'} EditableField */

/**
 * @typedef {object} ConsistencyIssue
 * @property {string} field
 * @property {string} issue
 * @property {string} suggestion
 * @property {string} kind
 * @property {'error' | 'warning'} severity
 */

/**
 * @typedef {object} ConsistencyReport
 * @property {boolean} isConsistent
 * @property {ConsistencyIssue[]} issues
 * @property {boolean} autoFixAvailable
 */

/**
 * @typedef {object} ProblemFixes
 * @property {string[]} [choices]
 * @property {string} [explanation]
 * @property {string} [prompt]
 * @property {number} [correctChoiceIndex]
 * @property {string} [modelAnswer]
 */

/** @typedef {{ fixes: ProblemFixes, confidence: number }} AutoFixResponse */

/** @typedef {{ prompt: string[], choices?: string[], explanation: string[] }} Suggestions */

/** @typedef {{ problems: Array<{ id: string, isValid: boolean, issues: string[] }>, overallScore: number }} ValidateResponse */

/**
 * @typedef {object} QualityScore
 * @property {number} overallScore
 * @property {{ clarity: number, difficulty: number, educationalValue: number, consistency: number }} metrics
 */

/** @typedef {{ problem: Problem, quality: QualityScore, consistency: ConsistencyReport }} AgentSnapshot */

/**
 * @typedef {object} AgentResult
 * @property {string} intent
 * @property {string} message
 * @property {Array<{ tool: string, status: 'success' | 'error', summary: string }>} actions
 * @property {AgentSnapshot} before
 * @property {AgentSnapshot} after
 * @property {string[]} changed
 */

/**
 * The problem as it is now, when an edit was refused for a stale version (409 with `problem`).
 * @param {unknown} err
 * @returns {Problem | null}
 */
export function currentProblemOf(err) {
  if (!(err instanceof ApiError) || err.status !== 409) return null;
  const body = /** @type {{ problem?: Problem } | null} */ (err.body);
  return body && typeof body === 'object' && body.problem ? body.problem : null;
}

/** @param {string} baseUrl '' in the page */
export function createWorkbenchApi(baseUrl) {
  /**
   * @param {string} method
   * @param {string} path
   * @param {unknown} [body]
   * @returns {Promise<any>}
   */
  const call = (method, path, body) => requestJson(baseUrl, method, path, { body });

  const enc = encodeURIComponent;
  return {
    /**
     * @param {{ subject: string, difficulty: string, language: string, topic?: string }} body
     * @returns {Promise<Worksheet>}
     */
    createWorksheet: (body) => call('POST', '/api/worksheets', body),
    /** @param {string} id @returns {Promise<Worksheet>} */
    worksheet: (id) => call('GET', `/api/worksheets/${enc(id)}`),
    /** @param {string} id @returns {Promise<Problem>} */
    problem: (id) => call('GET', `/api/problems/${enc(id)}`),
    /**
     * A stale `version` answers 409 with the current problem (see currentProblemOf).
     * @param {string} id @param {EditableField} field @param {unknown} value @param {number} version
     * @returns {Promise<Problem>}
     */
    patch: (id, field, value, version) => call('PATCH', `/api/problems/${enc(id)}`, { field, value, version }),
    /** @param {string} id @returns {Promise<Problem>} */
    undo: (id) => call('POST', `/api/problems/${enc(id)}/undo`),
    /** @param {string} id @returns {Promise<ConsistencyReport>} */
    checkConsistency: (id) => call('POST', `/api/problems/${enc(id)}/check-consistency`, {}),
    /** @param {string} id @param {ConsistencyIssue[]} issues @returns {Promise<AutoFixResponse>} */
    autoFix: (id, issues) => call('POST', `/api/problems/${enc(id)}/auto-fix`, { issues: issues.map(({ field, issue }) => ({ field, issue })) }),
    /** @param {string} id @returns {Promise<Suggestions>} */
    suggestions: (id) => call('GET', `/api/suggestions/${enc(id)}`),
    /** @param {string} id @returns {Promise<ValidateResponse>} */
    validate: (id) => call('POST', `/api/worksheets/${enc(id)}/validate`),
    /** @param {string} id @param {string} request @returns {Promise<AgentResult>} */
    agent: (id, request) => call('POST', `/api/problems/${enc(id)}/agent`, { request }),
    /** @param {string} id @param {'questions' | 'answers'} sheet */
    pdfUrl: (id, sheet) => `${baseUrl}/api/worksheets/${enc(id)}/pdf?sheet=${sheet}`,
  };
}

/** @typedef {ReturnType<typeof createWorkbenchApi>} WorkbenchApi */

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
