import { answerSpec, type FactType } from '../nlu/fact-type.js';
import type { AnswerType, FactDefinition, FormField, ReviewResult } from '../schemas/form.js';
import type { FieldStatus, SessionState } from '../schemas/session.js';
import { candidateValue } from '../nlu/review-rules.js';
import { formField } from './form-flow.js';

/** A fact as agents see it, with the kind of value it asks for (stated by the form or inferred) and a choice's options. */
export type FactView = {
  factKey: string;
  fact: string;
  doneCriteria: string;
  questioningHints: string | null;
  /** The form's explicit answerType, when it states one. */
  answerType?: AnswerType;
  kind: AnswerType;
  options: string[];
  /** The options were named in prose and may describe what counts rather than what to pick. */
  optionsDescribe?: boolean;
};

export type FieldView = {
  fieldId: string;
  label: string;
  intent: string | null;
  required: boolean;
  facts: FactView[];
  status: FieldStatus;
  followUps: number;
  lastReview: ReviewResult | null;
  /** Failed quick-checks of questions for this field so far (application). */
  failedChecks: number;
  /** The field's question has been shown to the respondent. */
  asked: boolean;
  /** The next failed verdict ends the field: say what is still needed, offer the choices or an example, and a way out. */
  finalAttempt: boolean;
  /** A value for this field the respondent already gave while answering another one: confirm it instead of asking. */
  candidate: string | null;
};

/** What agents are told about a field's facts: the form's words plus the kind of value each asks for. */
export function factViews(field: FormField, facts: readonly FactDefinition[]): Array<FactView & { id: string; formFieldId: string }> {
  return facts.map((k) => {
    const spec = answerSpec(k, field, { fieldContext: facts.length <= 1 });
    return {
      id: k.id,
      formFieldId: k.formFieldId,
      factKey: k.factKey,
      fact: k.fact,
      doneCriteria: k.doneCriteria,
      questioningHints: k.questioningHints,
      ...(k.answerType ? { answerType: k.answerType } : {}),
      kind: spec.type,
      options: spec.options,
      ...(spec.soft ? { optionsDescribe: true } : {}),
    };
  });
}

/** The respondent's messages that were not answers to `fieldId`, oldest first. */
export function earlierAnswers(state: SessionState, fieldId: string): string[] {
  return state.messages.filter((m) => m.role === 'user' && m.fieldId !== null && m.fieldId !== fieldId).map((m) => m.text);
}

const SUMMARY_LINES = 24;
const SUMMARY_CHARS = 240;

/**
 * The seed's sub-session summary of the conversation: one short line per
 * message ("Q[email]: …", "A[email]: …"), the latest {@link SUMMARY_LINES}.
 */
export function conversationSummary(state: SessionState): string[] {
  return state.messages.slice(-SUMMARY_LINES).map((m) => {
    const who = m.role === 'user' ? 'A' : 'Q';
    const about = m.fieldId ? `[${m.fieldId}]` : '';
    const text = m.text.replace(/\s+/g, ' ');
    return `${who}${about}: ${text.length > SUMMARY_CHARS ? `${text.slice(0, SUMMARY_CHARS)}…` : text}`;
  });
}

/** Label → value of every field with a value. */
export function collectedFacts(state: SessionState): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of state.fields) {
    if (f.value === null) continue;
    out[formField(state, f.fieldId)?.label ?? f.fieldId] = f.value;
  }
  return out;
}

/**
 * A value for a field that is not asked yet, found in what the respondent said
 * about other fields ("Jane Doe, jane@example.com" to the name question), so
 * the interviewer confirms it instead of asking. Only kinds that cannot be
 * mistaken for another field's answer (email, phone, URL, postal code, a
 * named option) are carried over, and only for a field with one fact.
 */
export function candidateFor(state: SessionState, field: FormField, facts: readonly FactDefinition[], now: Date = new Date()): string | null {
  const views = factViews(field, facts.length > 0 ? facts : [{ id: field.id, formFieldId: field.id, factKey: field.fieldId, fact: field.label, doneCriteria: field.intent ?? '', questioningHints: null }]);
  if (views.length !== 1 || !views[0]) return null;
  const spec = { type: views[0].kind, options: views[0].options, texts: [] };
  const language = state.bootstrap.language === 'ja' ? 'ja' : 'en';
  const value = candidateValue(spec, earlierAnswers(state, field.fieldId), { language, country: state.bootstrap.country, now, timezone: state.bootstrap.timezone }, field.label);
  // A value already recorded for another field is that field's answer, not this one's.
  return value !== null && state.fields.some((f) => f.value === value) ? null : value;
}

/** Every field of the form but `fieldId`, with the kinds of value it asks for. */
export function otherFields(state: SessionState, fieldId: string): Array<{ fieldId: string; label: string; kinds: FactType[] }> {
  return (state.form?.fields ?? [])
    .filter((f) => f.fieldId !== fieldId)
    .map((f) => {
      const facts = state.form?.facts.filter((k) => k.formFieldId === f.id) ?? [];
      const views = factViews(f, facts.length > 0 ? facts : [{ id: f.id, formFieldId: f.id, factKey: f.fieldId, fact: f.label, doneCriteria: f.intent ?? '', questioningHints: null }]);
      return { fieldId: f.fieldId, label: f.label, kinds: views.map((v) => v.kind) };
    });
}
