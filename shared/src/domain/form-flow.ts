import type { SessionDraft } from '../runtime/draft.js';
import { event } from '../schemas/events.js';
import type { FactDefinition, FormField, Plan, ReviewResult, SessionForm } from '../schemas/form.js';
import type { FieldState, SessionKind, SessionState } from '../schemas/session.js';

/**
 * The form interview's rules, in code rather than in a prompt: the field
 * order, the only path by which a field becomes `done` (a reviewer pass), and
 * when the session is complete.
 */

/** Required fields first, then `sortOrder`, then the form's own order. */
export function orderFields(fields: FormField[]): FormField[] {
  return fields
    .map((f, i) => ({ f, i }))
    .sort((a, b) => Number(b.f.required) - Number(a.f.required) || a.f.sortOrder - b.f.sortOrder || a.i - b.i)
    .map((x) => x.f);
}

export function newSessionState(input: {
  sessionId: string;
  kind: SessionKind;
  form: SessionForm | null;
  language: 'ja' | 'en' | null;
  firstAgent: SessionState['currentAgent'];
  now: string;
  faq?: SessionState['faq'];
}): SessionState {
  const fields: FieldState[] = input.form
    ? orderFields(input.form.fields).map((f) => ({
        fieldId: f.fieldId,
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
  return {
    v: 1,
    sessionId: input.sessionId,
    kind: input.kind,
    status: 'active',
    currentAgent: input.firstAgent,
    agentStack: [{ agent: input.firstAgent, since: input.now }],
    messages: [],
    bootstrap: {
      language: input.language,
      country: null,
      timezone: null,
      timezoneAsked: false,
      languageFixed: input.language !== null,
      countryUnknown: false,
    },
    form: input.form,
    plan: null,
    fields,
    currentFieldIndex: 0,
    collectedFields: {},
    followUpCount: 0,
    startedTurnId: null,
    loop: null,
    subSessionResults: {},
    audit: null,
    compliance: { checks: [], failedChecks: {}, volunteered: [] },
    faq: input.faq ?? null,
    createdAt: input.now,
    updatedAt: input.now,
  };
}

export function formField(state: SessionState, fieldId: string): FormField | undefined {
  return state.form?.fields.find((f) => f.fieldId === fieldId);
}

export function factsOf(state: SessionState, field: FormField): FactDefinition[] {
  return state.form?.facts.filter((k) => k.formFieldId === field.id) ?? [];
}

export type CurrentField = { index: number; field: FormField; facts: FactDefinition[]; fieldState: FieldState };

/** The field the system injects into the interviewer (seed: "システムが現在のfieldを注入"). */
export function currentField(state: SessionState): CurrentField | null {
  const fieldState = state.fields[state.currentFieldIndex];
  if (!fieldState) return null;
  const field = formField(state, fieldState.fieldId);
  if (!field) return null;
  return { index: state.currentFieldIndex, field, facts: factsOf(state, field), fieldState };
}

/** Every answer the respondent gave for a field, oldest first (follow-ups add facts). */
export function answersForField(state: SessionState, fieldId: string): string[] {
  return state.messages.filter((m) => m.role === 'user' && m.fieldId === fieldId).map((m) => m.text);
}

export function maxFollowUpsFor(state: SessionState, fallback: number): number {
  return state.form?.compliance?.maxFollowUpsPerField ?? fallback;
}

/** Validates the architect's plan against the form: the same fields, each once. */
export function validatePlan(state: SessionState, plan: Plan): string | null {
  const formIds = new Set(state.form?.fields.map((f) => f.fieldId) ?? []);
  const seen = new Set<string>();
  for (const p of plan.fields) {
    if (!formIds.has(p.field_id)) return `unknown field_id ${p.field_id}`;
    if (seen.has(p.field_id)) return `field_id ${p.field_id} appears twice`;
    seen.add(p.field_id);
  }
  const missing = [...formIds].filter((id) => !seen.has(id));
  if (missing.length > 0) return `the plan is missing fields: ${missing.join(', ')}`;
  return null;
}

/** Stores the plan and puts the field states in plan order; the interview starts at its first field. */
export function applyPlan(draft: SessionDraft, plan: Plan): void {
  draft.orderFields(plan.fields.map((p) => p.field_id));
  draft.setPlan(plan);
}

export function markAsked(draft: SessionDraft, fieldId: string): void {
  const f = draft.state.fields.find((x) => x.fieldId === fieldId);
  if (f && (f.status === 'pending' || f.status === 'reviewing')) draft.setFieldStatus(fieldId, 'interviewing');
}

export function markReviewing(draft: SessionDraft, fieldId: string): void {
  draft.setFieldStatus(fieldId, 'reviewing');
}

export type ReviewOutcomeKind = 'done' | 'skipped' | 'follow_up' | 'needs_review' | 'corrected' | 'correction_rejected';
export type ReviewApplied = { outcome: ReviewOutcomeKind; next: AdvanceResult | null };

/** The field whose answers a pending `subtask(reviewer)` call is about (the current field, or a resolved one being corrected). */
export function fieldUnderReview(state: SessionState): CurrentField | null {
  const loop = state.loop;
  let id: string | null = null;
  try {
    id = loop ? ((JSON.parse(loop.pendingCall.arguments) as { field_id?: string | null }).field_id ?? null) : null;
  } catch {
    id = null;
  }
  const cur = currentField(state);
  if (!id || id === cur?.field.fieldId) return cur;
  const index = state.fields.findIndex((f) => f.fieldId === id);
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
export function applyReview(draft: SessionDraft, fieldId: string, review: ReviewResult, maxFollowUps: number): ReviewApplied {
  const f = draft.state.fields.find((x) => x.fieldId === fieldId);
  const field = formField(draft.state, fieldId);
  if (!f || !field) throw new Error(`applyReview: unknown field ${fieldId}`);
  const wasResolved = f.status === 'done' || f.status === 'skipped';
  draft.updateField(fieldId, { lastReview: review, reviewedMessageId: lastUserMessageId(draft.state, fieldId) });
  draft.emit(
    event('review', {
      fieldId,
      passed: review.passed,
      missingFacts: review.missing_facts ?? [],
      feedback: review.feedback ?? null,
    }),
  );
  if (wasResolved) return applyCorrection(draft, f, review);
  if (review.passed && review.skipped && !field.required) {
    draft.updateField(fieldId, { skipReason: 'declined' });
    draft.setFieldStatus(fieldId, 'skipped', { reason: 'declined' });
    return { outcome: 'skipped', next: advance(draft) };
  }
  if (review.passed && !review.skipped) {
    const value = review.field_value ?? answersForField(draft.state, fieldId).join('\n');
    draft.setFieldValue(fieldId, value);
    draft.setFieldStatus(fieldId, 'done');
    return { outcome: 'done', next: advance(draft) };
  }
  if (f.followUps >= maxFollowUps) {
    if (!field.required) {
      draft.updateField(fieldId, { skipReason: 'max_follow_ups' });
      draft.setFieldStatus(fieldId, 'skipped', { reason: 'max_follow_ups' });
      return { outcome: 'skipped', next: advance(draft) };
    }
    draft.updateField(fieldId, { needsReview: true });
    draft.setFieldValue(fieldId, keptAsGiven(draft.state, fieldId));
    draft.setFieldStatus(fieldId, 'done', { needsReview: true, reason: 'max_follow_ups' });
    return { outcome: 'needs_review', next: advance(draft) };
  }
  draft.updateField(fieldId, { followUps: f.followUps + 1, finalAttempt: f.followUps + 1 >= maxFollowUps });
  draft.countFollowUp();
  draft.setFieldStatus(fieldId, 'interviewing', { followUps: f.followUps });
  return { outcome: 'follow_up', next: null };
}

function applyCorrection(draft: SessionDraft, f: FieldState, review: ReviewResult): ReviewApplied {
  if (!review.passed || review.skipped) return { outcome: 'correction_rejected', next: null };
  const value = review.field_value ?? answersForField(draft.state, f.fieldId).at(-1) ?? '';
  draft.updateField(f.fieldId, { needsReview: false, skipReason: null });
  draft.setFieldValue(f.fieldId, value);
  draft.setFieldStatus(f.fieldId, 'done', { reason: 'corrected' });
  if (draft.state.status === 'awaiting_confirmation') {
    draft.emit(event('session.completed', completionPayload(draft.state)));
  }
  return { outcome: 'corrected', next: null };
}

/** What a respondent who could not answer said, as they said it (their latest words). */
function keptAsGiven(state: SessionState, fieldId: string): string {
  return answersForField(state, fieldId).at(-1) ?? '';
}

function lastUserMessageId(state: SessionState, fieldId: string): string | null {
  for (let i = state.messages.length - 1; i >= 0; i--) {
    const m = state.messages[i];
    if (m?.role === 'user' && m.fieldId === fieldId) return m.messageId;
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
export function advance(draft: SessionDraft): AdvanceResult {
  const s = draft.state;
  const after = s.fields.findIndex((f, i) => i > s.currentFieldIndex && f.status === 'pending');
  const any = after >= 0 ? after : s.fields.findIndex((f) => f.status === 'pending');
  if (any >= 0) {
    draft.setCurrentFieldIndex(any);
    return 'next';
  }
  draft.setCurrentFieldIndex(s.fields.length);
  if (needsAudit(s)) return 'audit';
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
export function sessionTurnBound(state: SessionState, maxTurns: number, maxFollowUps: number): number {
  const perField = maxFollowUpsFor(state, maxFollowUps) + 2;
  return Math.min(maxTurns, GREETING_TURNS + state.fields.length * perField);
}

const GREETING_TURNS = 8;

/**
 * The session's bound on respondent turns: once reached, every field still
 * open is resolved as it stands (a required one kept as given and flagged
 * needsReview, an optional one skipped) and the interview closes.
 */
export function closeOutAtTurnBound(draft: SessionDraft, maxTurns: number, maxFollowUps: number = DEFAULT_FOLLOW_UPS): boolean {
  const s = draft.state;
  if (s.status !== 'active' || !s.plan) return false;
  const turns = s.messages.filter((m) => m.role === 'user').length;
  if (turns < sessionTurnBound(s, maxTurns, maxFollowUps)) return false;
  for (const f of s.fields) {
    if (f.status === 'done' || f.status === 'skipped') continue;
    const field = formField(s, f.fieldId);
    if (field?.required) {
      draft.updateField(f.fieldId, { needsReview: true });
      draft.setFieldValue(f.fieldId, keptAsGiven(s, f.fieldId));
      draft.setFieldStatus(f.fieldId, 'done', { needsReview: true, reason: 'turn_limit' });
    } else {
      draft.updateField(f.fieldId, { skipReason: 'turn_limit' });
      draft.setFieldStatus(f.fieldId, 'skipped', { reason: 'turn_limit' });
    }
  }
  draft.setCurrentFieldIndex(s.fields.length);
  if (!needsAudit(s)) completeSession(draft);
  return true;
}

/** Every field is resolved but the application has not been audited yet. */
export function needsAudit(state: SessionState): boolean {
  return state.kind === 'application' && state.audit === null && state.currentFieldIndex >= state.fields.length;
}

export function completeSession(draft: SessionDraft): void {
  draft.awaitConfirmation();
  draft.emit(event('session.completed', completionPayload(draft.state)));
}

function completionPayload(state: SessionState) {
  return { collectedFields: { ...state.collectedFields }, audit: state.audit ?? null, needsReview: fieldsNeedingReview(state) };
}

/** Fields kept as given after the bounded follow-ups (visible in the snapshot, session.completed, the audit and submit). */
export function fieldsNeedingReview(state: SessionState): string[] {
  return state.fields.filter((f) => f.needsReview).map((f) => f.fieldId);
}

/** Seed invariant: submit only when every required field is done. */
export function unresolvedRequired(state: SessionState): string[] {
  return state.fields.filter((f) => formField(state, f.fieldId)?.required && f.status !== 'done').map((f) => f.fieldId);
}
