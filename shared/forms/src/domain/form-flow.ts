import type { FormDraft } from './form-draft.js';
import {
  coreSessionState,
  event,
  type AuditReport,
  mutableCopy,
  type FieldStateView,
  type FactDefinition,
  type FieldState,
  type FormField,
  type Plan,
  type ReviewResult,
  type SessionForm,
  type FormSessionState,
  type FormSessionView,
  type SessionView,
} from '@convo/contract';
import type { ReviewOutcomeKind } from './reviewer-output.js';
import { pendingSubtask } from './subtask.js';

/**
 * The form interview's rules, in code rather than in a prompt: the field
 * order, the only path by which a field becomes `done` (a reviewer pass), and
 * when the session is complete.
 */

/** Required fields first, then `sortOrder`, then the form's own order. */
export function orderFields(fields: FormField[]): FormField[] {
  return fields
    .map((field, position) => ({ field, position }))
    .sort((a, b) => Number(b.field.required) - Number(a.field.required) || a.field.sortOrder - b.field.sortOrder || a.position - b.position)
    .map((entry) => entry.field);
}

/** A new interview: the core of a session plus the form's part, its fields in the order they are asked. */
export function newFormSession(input: {
  sessionId: string;
  kind: FormSessionState['kind'];
  form: SessionForm | null;
  language: 'ja' | 'en' | null;
  firstAgent: SessionView['currentAgent'];
  now: string;
  referenceDate?: string | null;
}): FormSessionState {
  const fields: FieldState[] = input.form
    ? orderFields(input.form.fields).map((field) => ({
        fieldId: field.fieldId,
        status: 'pending',
        value: null,
        followUps: 0,
        skipReason: null,
        lastReview: null,
        reviewedMessageId: null,
        needsReview: false,
        finalAttempt: false,
      }))
    : [];
  const core = coreSessionState(input);
  const part = {
    form: input.form,
    plan: null,
    fields,
    currentFieldIndex: 0,
    collectedFields: {},
    followUpCount: 0,
    referenceDate: input.referenceDate ?? null,
  };
  return input.kind === 'application'
    ? { ...core, kind: 'application', ...part, compliance: { checks: [], failedChecks: {}, volunteered: [] }, audit: null }
    : { ...core, kind: 'form', ...part };
}

/**
 * The moment relative dates in answers are read from: noon UTC of the session's reference date (the same calendar
 * day in every zone from UTC-11 to UTC+11, where the respondent's day is taken), or now.
 */
export function readingNow(state: { referenceDate?: string | null }): Date {
  return state.referenceDate ? new Date(`${state.referenceDate}T12:00:00Z`) : new Date();
}

export function formField(state: FormSessionView, fieldId: string): FormField | undefined {
  return state.form?.fields.find((field) => field.fieldId === fieldId);
}

export function factsOf(state: FormSessionView, field: FormField): FactDefinition[] {
  return state.form?.facts.filter((fact) => fact.formFieldId === field.id) ?? [];
}

export type CurrentField = { index: number; field: FormField; facts: FactDefinition[]; fieldState: FieldStateView };

/** The field the system injects into the interviewer (seed: "システムが現在のfieldを注入"). */
export function currentField(state: FormSessionView): CurrentField | null {
  const fieldState = state.fields[state.currentFieldIndex];
  if (!fieldState) return null;
  const field = formField(state, fieldState.fieldId);
  if (!field) return null;
  return { index: state.currentFieldIndex, field, facts: factsOf(state, field), fieldState };
}

/** Every answer the respondent gave for a field, oldest first (follow-ups add facts). */
export function answersForField(state: FormSessionView, fieldId: string): string[] {
  return state.messages.filter((message) => message.role === 'user' && message.fieldId === fieldId).map((message) => message.text);
}

export function maxFollowUpsFor(state: FormSessionView, fallback: number): number {
  return state.form?.compliance?.maxFollowUpsPerField ?? fallback;
}

/** Validates the architect's plan against the form: the same fields, each once. */
export function validatePlan(state: FormSessionView, plan: Plan): string | null {
  const formIds = new Set(state.form?.fields.map((field) => field.fieldId) ?? []);
  const seen = new Set<string>();
  for (const plannedField of plan.fields) {
    if (!formIds.has(plannedField.field_id)) return `unknown field_id ${plannedField.field_id}`;
    if (seen.has(plannedField.field_id)) return `field_id ${plannedField.field_id} appears twice`;
    seen.add(plannedField.field_id);
  }
  const missing = [...formIds].filter((id) => !seen.has(id));
  if (missing.length > 0) return `the plan is missing fields: ${missing.join(', ')}`;
  return null;
}

/** Stores the plan and puts the field states in plan order; the interview starts at its first field. */
export function applyPlan(draft: FormDraft, plan: Plan): void {
  draft.orderFields(plan.fields.map((plannedField) => plannedField.field_id));
  draft.setPlan(plan);
}

export function markAsked(draft: FormDraft, fieldId: string): void {
  const fieldState = draft.state.fields.find((candidate) => candidate.fieldId === fieldId);
  if (fieldState && (fieldState.status === 'pending' || fieldState.status === 'reviewing')) draft.setFieldStatus(fieldId, 'interviewing');
}

export function markReviewing(draft: FormDraft, fieldId: string): void {
  draft.setFieldStatus(fieldId, 'reviewing');
}

export type ReviewApplied = { outcome: ReviewOutcomeKind; next: AdvanceResult | null };

/** The field whose answers a pending `subtask(reviewer)` call is about (the current field, or a resolved one being corrected). */
export function fieldUnderReview(state: FormSessionView): CurrentField | null {
  const id = pendingSubtask(state)?.fieldId ?? null;
  const cur = currentField(state);
  if (!id || id === cur?.field.fieldId) return cur;
  const index = state.fields.findIndex((candidate) => candidate.fieldId === id);
  const fieldState = state.fields[index];
  const field = formField(state, id);
  return fieldState && field ? { index, field, facts: factsOf(state, field), fieldState } : null;
}

/**
 * Applies a reviewer verdict. This is the only code that marks a field `done`
 * (seed invariant: no field advances without a reviewer verdict), and it
 * bounds every field: after `maxFollowUps` failed verdicts an optional field
 * is skipped and a required one is kept as the respondent gave it, flagged
 * `needsReview` for a human, so no interview can loop forever. A verdict on a
 * field that was already resolved is a correction: a pass replaces its value,
 * a failure leaves it as it was.
 */
export function applyReview(draft: FormDraft, fieldId: string, review: ReviewResult, maxFollowUps: number): ReviewApplied {
  const fieldState = draft.state.fields.find((candidate) => candidate.fieldId === fieldId);
  const field = formField(draft.state, fieldId);
  if (!fieldState || !field) throw new Error(`applyReview: unknown field ${fieldId}`);
  const wasResolved = fieldState.status === 'done' || fieldState.status === 'skipped';
  draft.updateField(fieldId, { lastReview: review, reviewedMessageId: lastUserMessageId(draft.state, fieldId) });
  draft.emit(
    event('review', {
      fieldId,
      passed: review.passed,
      missingFacts: review.missing_facts ?? [],
      feedback: review.feedback ?? null,
    }),
  );
  if (wasResolved) return applyCorrection(draft, fieldState, review);
  if (review.passed && review.skipped && !field.required) {
    draft.updateField(fieldId, { skipReason: 'declined' });
    draft.setFieldStatus(fieldId, 'skipped', { reason: 'declined' });
    return { outcome: 'skipped', next: advance(draft) };
  }
  if (review.passed && !review.skipped) {
    const value = review.field_value ?? answersForField(draft.state, fieldId).join('\n');
    if (review.confirm) return askToConfirm(draft, fieldState, value, maxFollowUps);
    draft.setFieldValue(fieldId, value);
    draft.setFieldStatus(fieldId, 'done');
    return { outcome: 'done', next: advance(draft) };
  }
  if (fieldState.followUps >= maxFollowUps) {
    if (!field.required) {
      draft.updateField(fieldId, { skipReason: 'max_follow_ups' });
      draft.setFieldStatus(fieldId, 'skipped', { reason: 'max_follow_ups' });
      return { outcome: 'skipped', next: advance(draft) };
    }
    keepForReview(draft, fieldId, keptAsGiven(draft.state, fieldId), 'max_follow_ups');
    return { outcome: 'needs_review', next: advance(draft) };
  }
  takeFollowUp(draft, fieldState, maxFollowUps);
  return { outcome: 'follow_up', next: null };
}

/** One more question about the field (a follow-up, or a reading to confirm): counted against its bound. */
function takeFollowUp(draft: FormDraft, fieldState: FieldStateView, maxFollowUps: number, reason?: 'confirming'): void {
  const fieldId = fieldState.fieldId;
  draft.updateField(fieldId, { followUps: fieldState.followUps + 1, finalAttempt: fieldState.followUps + 1 >= maxFollowUps });
  draft.countFollowUp();
  draft.setFieldStatus(fieldId, 'interviewing', { followUps: fieldState.followUps, ...(reason ? { reason } : {}) });
}

/**
 * A reading that is not certain is not stored yet (docs/api.md#certainty): the respondent is asked to confirm it,
 * which takes one of the field's follow-ups, so the bound on questions holds. With none left it is kept as read and
 * flagged for a person, like any answer the follow-ups could not settle.
 */
function askToConfirm(draft: FormDraft, fieldState: FieldStateView, value: string, maxFollowUps: number): ReviewApplied {
  const fieldId = fieldState.fieldId;
  if (fieldState.followUps >= maxFollowUps) {
    keepForReview(draft, fieldId, value, 'unconfirmed');
    return { outcome: 'needs_review', next: advance(draft) };
  }
  takeFollowUp(draft, fieldState, maxFollowUps, 'confirming');
  return { outcome: 'confirm', next: null };
}

/** What {@link proposedValue} reads of a field: its status and its last verdict. */
export type ReviewedField = {
  status: string;
  lastReview: { passed: boolean; skipped?: boolean; confirm?: boolean; field_value?: string } | null;
};

/** The reading the respondent was asked to confirm and has not answered yet, or null. */
export function proposedValue(fieldState: ReviewedField): string | null {
  const review = fieldState.lastReview;
  if (fieldState.status === 'done' || fieldState.status === 'skipped') return null;
  return review?.passed && review.confirm && !review.skipped ? (review.field_value ?? null) : null;
}

function applyCorrection(draft: FormDraft, fieldState: FieldStateView, review: ReviewResult): ReviewApplied {
  if (!review.passed || review.skipped) return { outcome: 'correction_rejected', next: null };
  const value = review.field_value ?? answersForField(draft.state, fieldState.fieldId).at(-1) ?? '';
  draft.updateField(fieldState.fieldId, { needsReview: false, skipReason: null });
  draft.setFieldValue(fieldState.fieldId, value);
  draft.setFieldStatus(fieldState.fieldId, 'done', { reason: 'corrected' });
  if (draft.state.status === 'awaiting_confirmation') {
    draft.emit(event('session.completed', completionPayload(draft.state)));
  }
  return { outcome: 'corrected', next: null };
}

/** A required field resolved without a settled answer: stored as it stands, flagged for a person to check. */
function keepForReview(draft: FormDraft, fieldId: string, value: string, reason: 'max_follow_ups' | 'unconfirmed' | 'turn_limit'): void {
  draft.updateField(fieldId, { needsReview: true });
  draft.setFieldValue(fieldId, value);
  draft.setFieldStatus(fieldId, 'done', { needsReview: true, reason });
}

/** What a respondent who could not answer said, as they said it (their latest words). */
function keptAsGiven(state: FormSessionView, fieldId: string): string {
  return answersForField(state, fieldId).at(-1) ?? '';
}

function lastUserMessageId(state: FormSessionView, fieldId: string): string | null {
  for (let i = state.messages.length - 1; i >= 0; i--) {
    const message = state.messages[i];
    if (message?.role === 'user' && message.fieldId === fieldId) return message.messageId;
  }
  return null;
}

export type AdvanceResult = 'next' | 'completed' | 'audit';

/**
 * Moves to the next pending field. Every field is visited once: a field
 * resolved as skipped or needs-review is not reopened (the bound on questions
 * is what lets every interview end). An application is complete only once
 * audited (docs/seeds/001: the auditor always runs).
 */
export function advance(draft: FormDraft): AdvanceResult {
  const state = draft.state;
  const after = state.fields.findIndex((fieldState, i) => i > state.currentFieldIndex && fieldState.status === 'pending');
  const any = after >= 0 ? after : state.fields.findIndex((fieldState) => fieldState.status === 'pending');
  if (any >= 0) {
    draft.setCurrentFieldIndex(any);
    return 'next';
  }
  draft.setCurrentFieldIndex(state.fields.length);
  if (needsAudit(state)) return 'audit';
  completeSession(draft);
  return 'completed';
}

const DEFAULT_FOLLOW_UPS = 2;

/**
 * How many messages a respondent may send before the interview closes with
 * what it has: enough for the greeting, every field asked 1 + maxFollowUps
 * times, and one correction per field; never more than MAX_SESSION_TURNS.
 * (An 8-field form with 2 follow-ups closes after 40 messages.)
 */
export function sessionTurnBound(state: FormSessionView, maxTurns: number, maxFollowUps: number): number {
  const perField = maxFollowUpsFor(state, maxFollowUps) + 2;
  return Math.min(maxTurns, GREETING_TURNS + state.fields.length * perField);
}

const GREETING_TURNS = 8;

/**
 * The session's bound on respondent turns: once reached, every field still
 * open is resolved as it stands (a required one kept as given and flagged
 * needsReview, an optional one skipped) and the interview closes.
 */
export function closeOutAtTurnBound(draft: FormDraft, maxTurns: number, maxFollowUps: number = DEFAULT_FOLLOW_UPS): boolean {
  const state = draft.state;
  if (state.status !== 'active' || !state.plan) return false;
  const turns = state.messages.filter((message) => message.role === 'user').length;
  if (turns < sessionTurnBound(state, maxTurns, maxFollowUps)) return false;
  for (const fieldState of state.fields) {
    if (fieldState.status === 'done' || fieldState.status === 'skipped') continue;
    const field = formField(state, fieldState.fieldId);
    if (field?.required) {
      keepForReview(draft, fieldState.fieldId, keptAsGiven(state, fieldState.fieldId), 'turn_limit');
    } else {
      draft.updateField(fieldState.fieldId, { skipReason: 'turn_limit' });
      draft.setFieldStatus(fieldState.fieldId, 'skipped', { reason: 'turn_limit' });
    }
  }
  draft.setCurrentFieldIndex(state.fields.length);
  if (!needsAudit(state)) completeSession(draft);
  return true;
}

/** Every field is resolved but the application has not been audited yet. */
export function needsAudit(state: SessionView): boolean {
  return state.kind === 'application' && state.audit === null && state.currentFieldIndex >= state.fields.length;
}

export function completeSession(draft: FormDraft): void {
  draft.awaitConfirmation();
  draft.emit(event('session.completed', completionPayload(draft.state)));
}

function completionPayload(state: FormSessionView) {
  const audit = state.kind === 'application' && state.audit ? mutableCopy<AuditReport>(state.audit) : null;
  return { collectedFields: { ...state.collectedFields }, audit, needsReview: fieldsNeedingReview(state) };
}

/** Fields kept as given after the bounded follow-ups (visible in the snapshot, session.completed, the audit and submit). */
export function fieldsNeedingReview(state: FormSessionView): string[] {
  return state.fields.filter((fieldState) => fieldState.needsReview).map((fieldState) => fieldState.fieldId);
}

/** Seed invariant: submit only when every required field is done. */
export function unresolvedRequired(state: FormSessionView): string[] {
  return state.fields
    .filter((fieldState) => formField(state, fieldState.fieldId)?.required && fieldState.status !== 'done')
    .map((fieldState) => fieldState.fieldId);
}
