import { describe, expect, it } from 'vitest';
import { type FormField, type NewEvent, type Plan, SessionDraft, SessionForm, type FormDraft } from '@convo/runtime';
import {
  advance,
  answersForField,
  applyPlan,
  applyReview,
  currentField,
  markAsked,
  markReviewing,
  maxFollowUpsFor,
  newFormSession,
  orderFields,
  sessionTurnBound,
  unresolvedRequired,
  validatePlan,
} from '@convo/forms';
import { arrange } from '../support/arrange.js';

const NOW = '2026-01-01T00:00:00.000Z';

/** Two required fields and an optional one whose sortOrder would put it first if `required` did not win. */
const form = SessionForm.parse({
  title: 'Signup',
  fields: [
    { id: 'f-name', fieldId: 'name', label: 'Full name', required: true, sortOrder: 2 },
    { id: 'f-comments', fieldId: 'comments', label: 'Comments', required: false, sortOrder: 0 },
    { id: 'f-email', fieldId: 'email', label: 'Email', required: true, sortOrder: 1 },
  ],
  facts: [{ id: 'k-email', formFieldId: 'f-email', factKey: 'email', fact: 'Email address' }],
});

function draft(f: SessionForm = form): FormDraft {
  const state = newFormSession({ sessionId: 's1', kind: 'form', form: f, language: 'en', firstAgent: 'interviewer', now: NOW });
  return new SessionDraft(state, () => new Date(NOW));
}

const statusOf = (d: FormDraft, fieldId: string) => d.state.fields.find((f) => f.fieldId === fieldId);
const currentId = (d: FormDraft) => currentField(d.state)?.field.fieldId ?? null;
/** Events as `type` or `state.changed:<TYPE>`, the order a client sees them in. */
const kinds = (events: NewEvent[]) => events.map((e) => (e.type === 'state.changed' ? `state.changed:${e.data.type}` : e.type));
const pass = (value?: string) => ({ passed: true, ...(value ? { field_value: value } : {}) });
const fail = { passed: false, missing_facts: ['Email address'], feedback: 'No address yet.' };

describe('orderFields', () => {
  const f = (fieldId: string, required: boolean, sortOrder: number): FormField => ({
    id: `f-${fieldId}`,
    fieldId,
    label: fieldId,
    intent: null,
    required,
    sortOrder,
  });

  it('puts required fields first, then orders by sortOrder', () => {
    const ordered = orderFields([f('opt0', false, 0), f('req5', true, 5), f('req1', true, 1), f('opt-1', false, -1)]);
    expect(ordered.map((x) => x.fieldId)).toEqual(['req1', 'req5', 'opt-1', 'opt0']);
  });

  it("keeps the form's own order between fields that tie", () => {
    const ordered = orderFields([f('c', true, 0), f('a', true, 0), f('b', true, 0), f('z', false, 0), f('y', false, 0)]);
    expect(ordered.map((x) => x.fieldId)).toEqual(['c', 'a', 'b', 'z', 'y']);
  });

  it('does not reorder the array it was given', () => {
    const input = [f('opt', false, 0), f('req', true, 0)];
    orderFields(input);
    expect(input.map((x) => x.fieldId)).toEqual(['opt', 'req']);
  });

  it('gives a new session its field states in that order, all pending, starting at the first', () => {
    const d = draft();
    expect(d.state.fields.map((x) => [x.fieldId, x.status])).toEqual([
      ['email', 'pending'],
      ['name', 'pending'],
      ['comments', 'pending'],
    ]);
    expect(currentId(d)).toBe('email');
  });
});

describe('validatePlan', () => {
  const p = (...ids: string[]): Plan => ({ fields: ids.map((id) => ({ field_id: id, label: id, intent: id, required: true })) });

  it('accepts a plan with every field exactly once, in any order', () => {
    expect(validatePlan(draft().state, p('comments', 'email', 'name'))).toBeNull();
  });

  it('rejects a field the form does not have', () => {
    expect(validatePlan(draft().state, p('email', 'name', 'comments', 'phone'))).toBe('unknown field_id phone');
  });

  it('rejects a field listed twice', () => {
    expect(validatePlan(draft().state, p('email', 'name', 'email', 'comments'))).toBe('field_id email appears twice');
  });

  it('rejects a plan that leaves fields out, naming them', () => {
    expect(validatePlan(draft().state, p('name'))).toBe('the plan is missing fields: comments, email');
  });
});

describe('applyPlan', () => {
  const plan: Plan = {
    fields: [
      { field_id: 'name', label: 'Full name', intent: 'who', required: true },
      { field_id: 'comments', label: 'Comments', intent: 'anything', required: false },
      { field_id: 'email', label: 'Email', intent: 'contact', required: true },
    ],
  };

  it('puts the field states in plan order, restarts at the first field and emits PLAN_CREATED', () => {
    const d = draft();
    d.setCurrentFieldIndex(2);
    applyPlan(d, plan);
    expect(d.state.fields.map((f) => f.fieldId)).toEqual(['name', 'comments', 'email']);
    expect(d.state.currentFieldIndex).toBe(0);
    expect(currentId(d)).toBe('name');
    expect(d.state.plan).toEqual(plan);
    expect(d.events).toEqual([{ type: 'state.changed', data: { type: 'PLAN_CREATED', payload: { fields: plan.fields } } }]);
  });

  it('keeps each field state (status, value) when reordering', () => {
    const d = draft();
    applyReview(d, 'email', pass('a@example.com'), 3);
    applyPlan(d, plan);
    expect(statusOf(d, 'email')).toMatchObject({ status: 'done', value: 'a@example.com' });
  });
});

describe('applyReview', () => {
  it('on a pass stores the value, marks the field done and moves on, emitting review, FIELD_VALUE, FIELD_STATUS in that order', () => {
    const d = draft();
    const r = applyReview(d, 'email', pass('ann@example.com'), 3);
    expect(r).toEqual({ outcome: 'done', next: 'next' });
    expect(statusOf(d, 'email')).toMatchObject({ status: 'done', value: 'ann@example.com', lastReview: pass('ann@example.com') });
    expect(d.state.collectedFields).toEqual({ email: 'ann@example.com' });
    expect(currentId(d)).toBe('name');
    expect(kinds(d.events)).toEqual(['review', 'state.changed:FIELD_VALUE', 'state.changed:FIELD_STATUS']);
    expect(d.events.map((e) => e.data)).toEqual([
      { fieldId: 'email', passed: true, missingFacts: [], feedback: null },
      { type: 'FIELD_VALUE', payload: { fieldId: 'email', value: 'ann@example.com' } },
      { type: 'FIELD_STATUS', payload: { fieldId: 'email', status: 'done' } },
    ]);
  });

  it("on a pass without field_value takes the respondent's answers for the field", () => {
    const d = draft();
    d.addUserMessage('ann@', 't1', 'email');
    d.addUserMessage('sorry: ann@example.com', 't2', 'email');
    d.addUserMessage('Ann Lee', 't3', 'name');
    applyReview(d, 'email', { passed: true }, 3);
    expect(statusOf(d, 'email')?.value).toBe('ann@\nsorry: ann@example.com');
    expect(answersForField(d.state, 'email')).toEqual(['ann@', 'sorry: ann@example.com']);
  });

  it('on a fail counts a follow-up, keeps the field current and puts it back to interviewing', () => {
    const d = draft();
    markAsked(d, 'email');
    markReviewing(d, 'email');
    d.events.length = 0;
    const r = applyReview(d, 'email', fail, 3);
    expect(r).toEqual({ outcome: 'follow_up', next: null });
    expect(statusOf(d, 'email')).toMatchObject({ status: 'interviewing', followUps: 1, value: null, lastReview: fail });
    expect(d.state.followUpCount).toBe(1);
    expect(currentId(d)).toBe('email');
    expect(d.events.map((e) => e.data)).toEqual([
      { fieldId: 'email', passed: false, missingFacts: ['Email address'], feedback: 'No address yet.' },
      { type: 'FIELD_STATUS', payload: { fieldId: 'email', status: 'interviewing', followUps: 1 } },
    ]);
  });

  it('after maxFollowUps follow-ups a further fail keeps a required answer as given, flagged needsReview, and moves on', () => {
    const d = draft();
    d.addUserMessage('no idea, sorry', 't1', 'email');
    expect(applyReview(d, 'email', fail, 2).outcome).toBe('follow_up');
    expect(statusOf(d, 'email')?.finalAttempt).toBe(false);
    expect(applyReview(d, 'email', fail, 2).outcome).toBe('follow_up');
    expect(statusOf(d, 'email')).toMatchObject({ status: 'interviewing', finalAttempt: true });
    const r = applyReview(d, 'email', fail, 2);
    expect(r).toEqual({ outcome: 'needs_review', next: 'next' });
    expect(statusOf(d, 'email')).toMatchObject({ status: 'done', needsReview: true, followUps: 2, value: 'no idea, sorry' });
    expect(d.events.at(-1)).toEqual({
      type: 'state.changed',
      data: { type: 'FIELD_STATUS', payload: { fieldId: 'email', status: 'done', needsReview: true, reason: 'max_follow_ups' } },
    });
    expect(currentId(d)).toBe('name');
  });

  it('with maxFollowUps 0 ends a required field on the first fail', () => {
    const d = draft();
    expect(applyReview(d, 'email', fail, 0).outcome).toBe('needs_review');
    expect(statusOf(d, 'email')?.followUps).toBe(0);
  });

  it("reads the form's compliance.maxFollowUpsPerField over the configured default", () => {
    const strict = SessionForm.parse({ ...form, compliance: { maxFollowUpsPerField: 1 } });
    expect(maxFollowUpsFor(draft(strict).state, 3)).toBe(1);
    expect(maxFollowUpsFor(draft().state, 3)).toBe(3);
  });

  it('skips an optional field the respondent declined with reason declined, storing no value', () => {
    const d = draft();
    applyReview(d, 'email', pass('a@example.com'), 3);
    applyReview(d, 'name', pass('Ann Lee'), 3);
    d.events.length = 0;
    const r = applyReview(d, 'comments', { passed: true, skipped: true }, 3);
    expect(r.outcome).toBe('skipped');
    expect(statusOf(d, 'comments')).toMatchObject({ status: 'skipped', skipReason: 'declined', value: null });
    expect(d.state.collectedFields).not.toHaveProperty('comments');
    expect(d.events[1]).toEqual({
      type: 'state.changed',
      data: { type: 'FIELD_STATUS', payload: { fieldId: 'comments', status: 'skipped', reason: 'declined' } },
    });
  });

  it('never lets a required field be declined: a "skipped" pass on it is a follow-up', () => {
    const d = draft();
    const r = applyReview(d, 'email', { passed: true, skipped: true }, 3);
    expect(r.outcome).toBe('follow_up');
    expect(statusOf(d, 'email')).toMatchObject({ status: 'interviewing', followUps: 1, skipReason: null });
  });

  it('never reopens a field: a required one kept for review is not asked again and the session completes', () => {
    const d = draft();
    expect(applyReview(d, 'email', fail, 0)).toEqual({ outcome: 'needs_review', next: 'next' });
    applyReview(d, 'name', pass('Ann Lee'), 0);
    const r = applyReview(d, 'comments', pass('Nothing to add'), 0);
    expect(r).toEqual({ outcome: 'done', next: 'completed' });
    expect(d.state.status).toBe('awaiting_confirmation');
    expect(d.events.at(-1)).toMatchObject({ type: 'session.completed', data: { needsReview: ['email'] } });
  });

  it('skips an optional field that ran out of follow-ups', () => {
    const d = draft();
    applyReview(d, 'email', pass('a@example.com'), 0);
    applyReview(d, 'name', pass('Ann Lee'), 0);
    expect(applyReview(d, 'comments', fail, 0)).toEqual({ outcome: 'skipped', next: 'completed' });
    expect(statusOf(d, 'comments')).toMatchObject({ status: 'skipped', skipReason: 'max_follow_ups' });
  });

  it('treats a verdict on a resolved field as a correction: a pass replaces the value, a fail keeps it', () => {
    const d = draft();
    applyReview(d, 'email', pass('a@example.com'), 3);
    expect(applyReview(d, 'email', pass('b@example.com'), 3)).toEqual({ outcome: 'corrected', next: null });
    expect(statusOf(d, 'email')).toMatchObject({ status: 'done', value: 'b@example.com' });
    expect(d.events).toContainEqual({ type: 'state.changed', data: { type: 'FIELD_VALUE', payload: { fieldId: 'email', value: 'b@example.com' } } });
    expect(applyReview(d, 'email', fail, 3)).toEqual({ outcome: 'correction_rejected', next: null });
    expect(statusOf(d, 'email')?.value).toBe('b@example.com');
    expect(currentId(d)).toBe('name');
  });

  it('completes the session when the last field resolves: awaiting_confirmation and session.completed with collectedFields', () => {
    const d = draft();
    applyReview(d, 'email', pass('a@example.com'), 3);
    applyReview(d, 'name', pass('Ann Lee'), 3);
    const r = applyReview(d, 'comments', { passed: true, skipped: true }, 3);
    expect(r).toEqual({ outcome: 'skipped', next: 'completed' });
    expect(d.state.status).toBe('awaiting_confirmation');
    expect(currentField(d.state)).toBeNull();
    expect(d.events.at(-1)).toEqual({
      type: 'session.completed',
      data: { collectedFields: { email: 'a@example.com', name: 'Ann Lee' }, audit: null, needsReview: [] },
    });
    expect(kinds(d.events).filter((k) => k === 'session.completed')).toHaveLength(1);
  });

  it('comes back to a pending field the interview passed over', () => {
    const d = draft();
    d.setCurrentFieldIndex(1);
    expect(applyReview(d, 'name', pass('Ann Lee'), 3).next).toBe('next');
    expect(currentId(d)).toBe('comments');
    expect(applyReview(d, 'comments', pass('ok'), 3).next).toBe('next');
    expect(currentId(d)).toBe('email');
  });

  it('throws on a field the form does not have', () => {
    expect(() => applyReview(draft(), 'phone', pass('1'), 3)).toThrow(/unknown field phone/);
  });
});

describe('advance', () => {
  it('completes a session whose fields are all resolved', () => {
    const d = draft();
    arrange(d, (state) => state.fields.forEach((f) => (f.status = 'done')));
    expect(advance(d)).toBe('completed');
    expect(d.state.status).toBe('awaiting_confirmation');
  });
});

describe('unresolvedRequired', () => {
  it('lists the required fields that are not done; one kept for review counts as done', () => {
    const d = draft();
    expect(unresolvedRequired(d.state)).toEqual(['email', 'name']);
    applyReview(d, 'email', fail, 0);
    expect(statusOf(d, 'email')).toMatchObject({ status: 'done', needsReview: true });
    expect(unresolvedRequired(d.state)).toEqual(['name']);
    applyReview(d, 'name', pass('Ann Lee'), 0);
    expect(unresolvedRequired(d.state)).toEqual([]);
  });

  it('ignores optional fields', () => {
    const d = draft();
    applyReview(d, 'email', pass('a@example.com'), 3);
    applyReview(d, 'name', pass('Ann Lee'), 3);
    expect(statusOf(d, 'comments')?.status).toBe('pending');
    expect(unresolvedRequired(d.state)).toEqual([]);
  });
});

describe('a field becomes done only through applyReview', () => {
  it('markAsked and markReviewing move a field through interviewing and reviewing, never to done', () => {
    const d = draft();
    markAsked(d, 'email');
    expect(statusOf(d, 'email')?.status).toBe('interviewing');
    markReviewing(d, 'email');
    expect(statusOf(d, 'email')?.status).toBe('reviewing');
    markAsked(d, 'email');
    expect(statusOf(d, 'email')?.status).toBe('interviewing');
    expect(statusOf(d, 'email')?.value).toBeNull();
    expect(d.state.collectedFields).toEqual({});
    expect(currentId(d)).toBe('email');
    expect(kinds(d.events)).toEqual(['state.changed:FIELD_STATUS', 'state.changed:FIELD_STATUS', 'state.changed:FIELD_STATUS']);
    expect(unresolvedRequired(d.state)).toEqual(['email', 'name']);
  });

  it('markAsked does not touch a field that is already done', () => {
    const d = draft();
    applyReview(d, 'email', pass('a@example.com'), 3);
    const before = d.events.length;
    markAsked(d, 'email');
    expect(statusOf(d, 'email')?.status).toBe('done');
    expect(d.events).toHaveLength(before);
  });

  it('a respondent message for a field does not resolve it', () => {
    const d = draft();
    d.addUserMessage('a@example.com', 't1', 'email');
    expect(statusOf(d, 'email')?.status).toBe('pending');
    expect(unresolvedRequired(d.state)).toEqual(['email', 'name']);
  });
});

describe('sessionTurnBound', () => {
  it('gives every field 1 + maxFollowUps asks and a correction, after the greeting, within MAX_SESSION_TURNS', () => {
    const d = draft();
    expect(sessionTurnBound(d.state, 200, 2)).toBe(8 + 3 * 4);
    expect(sessionTurnBound(d.state, 200, 0)).toBe(8 + 3 * 2);
    expect(sessionTurnBound(d.state, 10, 2)).toBe(10);
  });
});
