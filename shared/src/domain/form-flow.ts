import type { SessionDraft } from '../agents/draft.js';
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
  const byId = new Map(draft.state.fields.map((f) => [f.fieldId, f]));
  draft.state.fields = plan.fields.map((p) => byId.get(p.field_id)).filter((f): f is FieldState => f !== undefined);
  draft.state.currentFieldIndex = 0;
  draft.setPlan(plan);
}

export function markAsked(draft: SessionDraft, fieldId: string): void {
  const f = draft.state.fields.find((x) => x.fieldId === fieldId);
  if (f && (f.status === 'pending' || f.status === 'reviewing')) draft.setFieldStatus(fieldId, 'interviewing');
}

export function markReviewing(draft: SessionDraft, fieldId: string): void {
  draft.setFieldStatus(fieldId, 'reviewing');
}

export type ReviewApplied = { outcome: 'done' | 'skipped' | 'follow_up' | 'gave_up'; next: AdvanceResult | null };

/**
 * Applies a reviewer verdict. This is the only code that marks a field `done`
 * (seed invariant: no field advances without a reviewer pass).
 */
export function applyReview(draft: SessionDraft, fieldId: string, review: ReviewResult, maxFollowUps: number): ReviewApplied {
  const f = draft.state.fields.find((x) => x.fieldId === fieldId);
  const field = formField(draft.state, fieldId);
  if (!f || !field) throw new Error(`applyReview: unknown field ${fieldId}`);
  f.lastReview = review;
  draft.emit(
    event('review', {
      fieldId,
      passed: review.passed,
      missingFacts: review.missing_facts ?? [],
      feedback: review.feedback ?? null,
    }),
  );
  if (review.passed && review.skipped && !field.required) {
    f.skipReason = 'declined';
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
    f.skipReason = 'max_follow_ups';
    draft.setFieldStatus(fieldId, 'skipped', { reason: 'max_follow_ups' });
    return { outcome: 'gave_up', next: advance(draft) };
  }
  f.followUps += 1;
  draft.state.followUpCount += 1;
  draft.setFieldStatus(fieldId, 'interviewing', { followUps: f.followUps });
  return { outcome: 'follow_up', next: null };
}

export type AdvanceResult = 'next' | 'reopened' | 'completed' | 'audit';

/**
 * Moves to the next pending field. When none is left but a required field is
 * not done (it ran out of follow-ups), that field is reopened: submission
 * needs every required field done, so the interview cannot end without it.
 * A field skipped by the compliance check is never reopened: it cannot be asked.
 * An application is complete only once audited (seed 001: the auditor always runs).
 */
export function advance(draft: SessionDraft): AdvanceResult {
  const s = draft.state;
  const after = s.fields.findIndex((f, i) => i > s.currentFieldIndex && f.status === 'pending');
  const any = after >= 0 ? after : s.fields.findIndex((f) => f.status === 'pending');
  if (any >= 0) {
    s.currentFieldIndex = any;
    return 'next';
  }
  const reopen = s.fields.findIndex((f) => formField(s, f.fieldId)?.required && f.status !== 'done' && f.skipReason !== 'compliance');
  if (reopen >= 0) {
    const f = s.fields[reopen]!;
    f.followUps = 0;
    f.skipReason = null;
    s.currentFieldIndex = reopen;
    draft.setFieldStatus(f.fieldId, 'pending', { reason: 'required_reopened' });
    return 'reopened';
  }
  s.currentFieldIndex = s.fields.length;
  if (needsAudit(s)) return 'audit';
  completeSession(draft);
  return 'completed';
}

/** Every field is resolved but the application has not been audited yet. */
export function needsAudit(state: SessionState): boolean {
  return state.kind === 'application' && state.audit === null && state.currentFieldIndex >= state.fields.length;
}

export function completeSession(draft: SessionDraft): void {
  draft.state.status = 'awaiting_confirmation';
  draft.emit(event('session.completed', { collectedFields: { ...draft.state.collectedFields }, audit: draft.state.audit ?? null }));
}

/** Seed invariant: submit only when every required field is done. */
export function unresolvedRequired(state: SessionState): string[] {
  return state.fields.filter((f) => formField(state, f.fieldId)?.required && f.status !== 'done').map((f) => f.fieldId);
}
