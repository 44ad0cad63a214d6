import type { ApplicationDraft } from './form-draft.js';
import { type ApplicationSessionView, type CheckViolation, event, type FormSessionView } from '@convo/contract';
import { withinTextBudget } from '@convo/text';
import { findTopicMentions, maskTopics, resolveTopics, type ProhibitedTopic } from '../compliance/topics.js';
import { advance, completeSession, type AdvanceResult } from './form-flow.js';

/**
 * The application interview's compliance rules (docs/seeds/001), in code: the
 * quick-check gate before every question, the floor of rule-based checks under
 * any model's verdict, masking of prohibited topics a respondent volunteers,
 * and the audit that completes the session.
 */

/** failedChecks key of the closing message, which belongs to no field. */
export const CLOSING_KEY = '__closing__';

const topicCache = new WeakMap<object, ProhibitedTopic[]>();
/** Built-in fair-hiring topics plus the form's own `compliance.prohibitedTopics`. */
export function topicsOf(state: FormSessionView): ProhibitedTopic[] {
  const key = state.form ?? state;
  let topics = topicCache.get(key);
  if (!topics) {
    topics = resolveTopics(state.form?.compliance?.prohibitedTopics);
    topicCache.set(key, topics);
  }
  return topics;
}

export function hasPassedCheck(state: ApplicationSessionView, fieldId: string | null, text: string): boolean {
  return state.compliance.checks.some((check) => check.passed && check.fieldId === fieldId && check.question === text.trim());
}

/** Rule-based violations no model may overrule: prohibited topics named in the question. */
export function floorViolations(state: FormSessionView, question: string): CheckViolation[] {
  return withinTextBudget(() => topicViolations(state, question));
}

function topicViolations(state: FormSessionView, question: string): CheckViolation[] {
  return findTopicMentions(question, topicsOf(state)).map((mention) => ({
    type: 'prohibited_topic' as const,
    message: `prohibited topic "${mention.label.en}": "${mention.match}"`,
  }));
}

export type CheckApplied = {
  passed: boolean;
  violations: CheckViolation[];
  attempts: number;
  fieldSkipped: boolean;
  next: AdvanceResult | null;
};

/**
 * Records a quick-check verdict. A question that fails counts against its
 * field; after `maxRephrasings` rephrasings also fail, the field is skipped
 * with reason `compliance` and never asked.
 */
export function applyCheck(
  draft: ApplicationDraft,
  input: { fieldId: string | null; question: string; passed: boolean; violations: CheckViolation[]; maxRephrasings: number },
): CheckApplied {
  const question = input.question.trim();
  const floor = floorViolations(draft.state, question).filter(
    (previous) => !input.violations.some((violation) => violation.type === previous.type && violation.message === previous.message),
  );
  // The closing message asks for nothing: only topic and tone rules apply to it.
  const violations = [...input.violations, ...floor].filter(
    (violation) => input.fieldId !== null || violation.type === 'prohibited_topic' || violation.type === 'tone_violation',
  );
  const passed = violations.length === 0 && (input.passed || floor.length === 0);
  draft.updateCompliance((compliance) => compliance.checks.push({ fieldId: input.fieldId, question, passed, violations }));
  draft.emit(event('check', { passed, violations }));
  if (passed) return { passed, violations, attempts: 0, fieldSkipped: false, next: null };
  const key = input.fieldId ?? CLOSING_KEY;
  const attempts = (draft.state.compliance.failedChecks[key] ?? 0) + 1;
  draft.updateCompliance((compliance) => (compliance.failedChecks[key] = attempts));
  if (input.fieldId === null || attempts <= input.maxRephrasings) return { passed, violations, attempts, fieldSkipped: false, next: null };
  const field = draft.state.fields.find((candidate) => candidate.fieldId === input.fieldId);
  if (!field) return { passed, violations, attempts, fieldSkipped: false, next: null };
  draft.updateField(field.fieldId, { skipReason: 'compliance' });
  draft.setFieldStatus(field.fieldId, 'skipped', { reason: 'compliance', violations: violations.map((violation) => violation.type) });
  return { passed, violations, attempts, fieldSkipped: true, next: advance(draft) };
}

export type AuditVerdict = {
  passed: boolean;
  violations: Array<{ type: string; message: string; severity: 'error' | 'warning' }>;
  summary: string;
};

/**
 * Stores the audit and completes the session. The summary is masked again in
 * code, and a prohibited topic in any assistant message is an error whatever
 * the auditor said.
 */
export function applyAudit(draft: ApplicationDraft, input: AuditVerdict): void {
  // The transcript is read under the text budget, before the session changes.
  const audit = withinTextBudget(() => auditOf(draft.state, input));
  draft.setAudit(audit);
  draft.emit(event('audit', audit));
  completeSession(draft);
}

function auditOf(state: ApplicationSessionView, input: AuditVerdict) {
  const topics = topicsOf(state);
  const lang = state.bootstrap.language === 'ja' ? 'ja' : 'en';
  const violations = [...input.violations];
  for (const asked of state.messages.filter((entry) => entry.role === 'assistant')) {
    for (const hit of findTopicMentions(asked.text, topics)) {
      const message = `the interviewer asked about a prohibited topic "${hit.label.en}" (${asked.messageId})`;
      if (
        !violations.some(
          (violation) =>
            violation.type === 'prohibited_topic' && violation.severity === 'error' && violation.message.includes(asked.messageId),
        )
      ) {
        violations.push({ type: 'prohibited_topic', message, severity: 'error' });
      }
    }
  }
  return {
    passed: input.passed && !violations.some((violation) => violation.severity === 'error'),
    violations,
    summary: maskTopics(input.summary, topics, lang),
  };
}

/**
 * What a respondent volunteers about a prohibited topic is never stored: the
 * clause is masked before the message enters the session, and the fact that
 * something was volunteered is kept for the auditor.
 */
export function prepareUserMessage(state: FormSessionView, text: string): { text: string; topics: string[] } {
  if (state.kind !== 'application') return { text, topics: [] };
  const topics = topicsOf(state);
  const hits = findTopicMentions(text, topics);
  if (hits.length === 0) return { text, topics: [] };
  const lang = state.bootstrap.language === 'ja' ? 'ja' : 'en';
  return { text: maskTopics(text, topics, lang), topics: [...new Set(hits.map((hit) => hit.topicId))] };
}
