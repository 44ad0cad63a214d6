import { withinTextBudget } from '@convo/text';
import { answerSpec, factsOrField, type FactType } from '../nlu/fact-type.js';
import type { AnswerType, DeepReadonly, FactDefinition, FieldStatus, FormField, FormSessionView, ReviewResult } from '@convo/contract';
import { candidateValue } from '../nlu/review-rules.js';
import { formField, readingNow } from './form-flow.js';

/** A fact as agents see it, with the kind of value it asks for (stated by the form or inferred) and a choice's options. */
export type FactView = {
  factKey: string;
  fact: string;
  doneCriteria: string;
  questioningHints: string | null;
  /** The form's explicit answerType, when it states one. */
  answerType?: AnswerType;
  kind: AnswerType;
  options: readonly string[];
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
  lastReview: DeepReadonly<ReviewResult> | null;
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
  return facts.map((fact) => {
    const spec = answerSpec(fact, field, { fieldContext: facts.length <= 1 });
    return {
      id: fact.id,
      formFieldId: fact.formFieldId,
      factKey: fact.factKey,
      fact: fact.fact,
      doneCriteria: fact.doneCriteria,
      questioningHints: fact.questioningHints,
      ...(fact.answerType ? { answerType: fact.answerType } : {}),
      kind: spec.type,
      options: spec.options,
      ...(spec.soft ? { optionsDescribe: true } : {}),
    };
  });
}

/** The respondent's messages that were not answers to `fieldId`, oldest first. */
export function earlierAnswers(state: FormSessionView, fieldId: string): string[] {
  return state.messages
    .filter((message) => message.role === 'user' && message.fieldId !== null && message.fieldId !== fieldId)
    .map((message) => message.text);
}

const SUMMARY_LINES = 24;
const SUMMARY_CHARS = 240;

/**
 * The seed's sub-session summary of the conversation: one short line per
 * message ("Q[email]: …", "A[email]: …"), the latest {@link SUMMARY_LINES}.
 */
export function conversationSummary(state: FormSessionView): string[] {
  return state.messages.slice(-SUMMARY_LINES).map((message) => {
    const who = message.role === 'user' ? 'A' : 'Q';
    const about = message.fieldId ? `[${message.fieldId}]` : '';
    const text = message.text.replace(/\s+/g, ' ');
    return `${who}${about}: ${text.length > SUMMARY_CHARS ? `${text.slice(0, SUMMARY_CHARS)}…` : text}`;
  });
}

/** Label → value of every field with a value. */
export function collectedFacts(state: FormSessionView): Record<string, string> {
  const out: Record<string, string> = {};
  for (const field of state.fields) {
    if (field.value === null) continue;
    out[formField(state, field.fieldId)?.label ?? field.fieldId] = field.value;
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
export function candidateFor(
  state: FormSessionView,
  field: FormField,
  facts: readonly FactDefinition[],
  now: Date = readingNow(state),
): string | null {
  return withinTextBudget(() => candidate(state, field, facts, now));
}

function candidate(state: FormSessionView, field: FormField, facts: readonly FactDefinition[], now: Date): string | null {
  const views = factViews(field, factsOrField(field, facts));
  if (views.length !== 1 || !views[0]) return null;
  const spec = { type: views[0].kind, options: views[0].options, texts: [] };
  const language = state.bootstrap.language === 'ja' ? 'ja' : 'en';
  const value = candidateValue(
    spec,
    earlierAnswers(state, field.fieldId),
    { language, country: state.bootstrap.country, now, timezone: state.bootstrap.timezone },
    field.label,
  );
  // A value already recorded for another field is that field's answer, not this one's.
  return value !== null && state.fields.some((other) => other.value === value) ? null : value;
}

/** Every field of the form but `fieldId`, with the kinds of value it asks for. */
export function otherFields(state: FormSessionView, fieldId: string): Array<{ fieldId: string; label: string; kinds: FactType[] }> {
  return (state.form?.fields ?? [])
    .filter((field) => field.fieldId !== fieldId)
    .map((field) => {
      const facts = state.form?.facts.filter((fact) => fact.formFieldId === field.id) ?? [];
      const views = factViews(field, factsOrField(field, facts));
      return { fieldId: field.fieldId, label: field.label, kinds: views.map((view) => view.kind) };
    });
}
