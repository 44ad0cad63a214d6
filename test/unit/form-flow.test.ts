import { describe, expect, it } from 'vitest';
import { type FormField, type NewEvent, type Plan, SessionForm } from '@convo/contract';
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
  formDraft,
  type FormDraft,
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

function draft(sessionForm: SessionForm = form): FormDraft {
  const state = newFormSession({ sessionId: 's1', kind: 'form', form: sessionForm, language: 'en', firstAgent: 'interviewer', now: NOW });
  return formDraft(state, false, () => new Date(NOW));
}

const statusOf = (d: FormDraft, fieldId: string) => d.state.fields.find((f) => f.fieldId === fieldId);
const currentId = (d: FormDraft) => currentField(d.state)?.field.fieldId ?? null;
/** Events as `type` or `state.changed:<TYPE>`, the order a client sees them in. */
const kinds = (events: NewEvent[]) => events.map((e) => (e.type === 'state.changed' ? `state.changed:${e.data.type}` : e.type));
const pass = (value?: string) => ({ passed: true, ...(value ? { field_value: value } : {}) });
const fail = { passed: false, missing_facts: ['Email address'], feedback: 'No address yet.' };

describe('orderFields', () => {
  const formField = (fieldId: string, required: boolean, sortOrder: number): FormField => ({
    id: `f-${fieldId}`,
    fieldId,
    label: fieldId,
    intent: null,
    required,
    sortOrder,
  });

  it('puts required fields first, then orders by sortOrder', () => {
    const ordered = orderFields([
      formField('opt0', false, 0),
      formField('req5', true, 5),
      formField('req1', true, 1),
      formField('opt-1', false, -1),
    ]);
    expect(ordered.map((x) => x.fieldId)).toEqual(['req1', 'req5', 'opt-1', 'opt0']);
  });

  it("keeps the form's own order between fields that tie", () => {
    const ordered = orderFields([
      formField('c', true, 0),
      formField('a', true, 0),
      formField('b', true, 0),
      formField('z', false, 0),
      formField('y', false, 0),
    ]);
    expect(ordered.map((x) => x.fieldId)).toEqual(['c', 'a', 'b', 'z', 'y']);
  });

  it('does not reorder the array it was given', () => {
    const input = [formField('opt', false, 0), formField('req', true, 0)];
    orderFields(input);
    expect(input.map((x) => x.fieldId)).toEqual(['opt', 'req']);
  });

  it('gives a new session its field states in that order, all pending, starting at the first', () => {
    const session = draft();
    expect(session.state.fields.map((x) => [x.fieldId, x.status])).toEqual([
      ['email', 'pending'],
      ['name', 'pending'],
      ['comments', 'pending'],
    ]);
    expect(currentId(session)).toBe('email');
  });
});

describe('validatePlan', () => {
  const planOf = (...ids: string[]): Plan => ({ fields: ids.map((id) => ({ field_id: id, label: id, intent: id, required: true })) });

  it('accepts a plan with every field exactly once, in any order', () => {
    expect(validatePlan(draft().state, planOf('comments', 'email', 'name'))).toBeNull();
  });

  it('rejects a field the form does not have', () => {
    expect(validatePlan(draft().state, planOf('email', 'name', 'comments', 'phone'))).toBe('unknown field_id phone');
  });

  it('rejects a field listed twice', () => {
    expect(validatePlan(draft().state, planOf('email', 'name', 'email', 'comments'))).toBe('field_id email appears twice');
  });

  it('rejects a plan that leaves fields out, naming them', () => {
    expect(validatePlan(draft().state, planOf('name'))).toBe('the plan is missing fields: comments, email');
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
    const session = draft();
    session.setCurrentFieldIndex(2);
    applyPlan(session, plan);
    expect(session.state.fields.map((f) => f.fieldId)).toEqual(['name', 'comments', 'email']);
    expect(session.state.currentFieldIndex).toBe(0);
    expect(currentId(session)).toBe('name');
    expect(session.state.plan).toEqual(plan);
    expect(session.events).toEqual([{ type: 'state.changed', data: { type: 'PLAN_CREATED', payload: { fields: plan.fields } } }]);
  });

  it('keeps each field state (status, value) when reordering', () => {
    const session = draft();
    applyReview(session, 'email', pass('a@example.com'), 3);
    applyPlan(session, plan);
    expect(statusOf(session, 'email')).toMatchObject({ status: 'done', value: 'a@example.com' });
  });
});

describe('applyReview', () => {
  it('on a pass stores the value, marks the field done and moves on, emitting review, FIELD_VALUE, FIELD_STATUS in that order', () => {
    const session = draft();
    const applied = applyReview(session, 'email', pass('ann@example.com'), 3);
    expect(applied).toEqual({ outcome: 'done', next: 'next' });
    expect(statusOf(session, 'email')).toMatchObject({ status: 'done', value: 'ann@example.com', lastReview: pass('ann@example.com') });
    expect(session.state.collectedFields).toEqual({ email: 'ann@example.com' });
    expect(currentId(session)).toBe('name');
    expect(kinds(session.events)).toEqual(['review', 'state.changed:FIELD_VALUE', 'state.changed:FIELD_STATUS']);
    expect(session.events.map((e) => e.data)).toEqual([
      { fieldId: 'email', passed: true, missingFacts: [], feedback: null },
      { type: 'FIELD_VALUE', payload: { fieldId: 'email', value: 'ann@example.com' } },
      { type: 'FIELD_STATUS', payload: { fieldId: 'email', status: 'done' } },
    ]);
  });

  it("on a pass without field_value takes the respondent's answers for the field", () => {
    const session = draft();
    session.addUserMessage('ann@', 't1', 'email');
    session.addUserMessage('sorry: ann@example.com', 't2', 'email');
    session.addUserMessage('Ann Lee', 't3', 'name');
    applyReview(session, 'email', { passed: true }, 3);
    expect(statusOf(session, 'email')?.value).toBe('ann@\nsorry: ann@example.com');
    expect(answersForField(session.state, 'email')).toEqual(['ann@', 'sorry: ann@example.com']);
  });

  it('on a fail counts a follow-up, keeps the field current and puts it back to interviewing', () => {
    const session = draft();
    markAsked(session, 'email');
    markReviewing(session, 'email');
    session.events.length = 0;
    const applied = applyReview(session, 'email', fail, 3);
    expect(applied).toEqual({ outcome: 'follow_up', next: null });
    expect(statusOf(session, 'email')).toMatchObject({ status: 'interviewing', followUps: 1, value: null, lastReview: fail });
    expect(session.state.followUpCount).toBe(1);
    expect(currentId(session)).toBe('email');
    expect(session.events.map((e) => e.data)).toEqual([
      { fieldId: 'email', passed: false, missingFacts: ['Email address'], feedback: 'No address yet.' },
      { type: 'FIELD_STATUS', payload: { fieldId: 'email', status: 'interviewing', followUps: 1 } },
    ]);
  });

  it('after maxFollowUps follow-ups a further fail keeps a required answer as given, flagged needsReview, and moves on', () => {
    const session = draft();
    session.addUserMessage('no idea, sorry', 't1', 'email');
    expect(applyReview(session, 'email', fail, 2).outcome).toBe('follow_up');
    expect(statusOf(session, 'email')?.finalAttempt).toBe(false);
    expect(applyReview(session, 'email', fail, 2).outcome).toBe('follow_up');
    expect(statusOf(session, 'email')).toMatchObject({ status: 'interviewing', finalAttempt: true });
    const applied = applyReview(session, 'email', fail, 2);
    expect(applied).toEqual({ outcome: 'needs_review', next: 'next' });
    expect(statusOf(session, 'email')).toMatchObject({ status: 'done', needsReview: true, followUps: 2, value: 'no idea, sorry' });
    expect(session.events.at(-1)).toEqual({
      type: 'state.changed',
      data: { type: 'FIELD_STATUS', payload: { fieldId: 'email', status: 'done', needsReview: true, reason: 'max_follow_ups' } },
    });
    expect(currentId(session)).toBe('name');
  });

  it('with maxFollowUps 0 ends a required field on the first fail', () => {
    const session = draft();
    expect(applyReview(session, 'email', fail, 0).outcome).toBe('needs_review');
    expect(statusOf(session, 'email')?.followUps).toBe(0);
  });

  it("reads the form's compliance.maxFollowUpsPerField over the configured default", () => {
    const strict = SessionForm.parse({ ...form, compliance: { maxFollowUpsPerField: 1 } });
    expect(maxFollowUpsFor(draft(strict).state, 3)).toBe(1);
    expect(maxFollowUpsFor(draft().state, 3)).toBe(3);
  });

  it('skips an optional field the respondent declined with reason declined, storing no value', () => {
    const session = draft();
    applyReview(session, 'email', pass('a@example.com'), 3);
    applyReview(session, 'name', pass('Ann Lee'), 3);
    session.events.length = 0;
    const applied = applyReview(session, 'comments', { passed: true, skipped: true }, 3);
    expect(applied.outcome).toBe('skipped');
    expect(statusOf(session, 'comments')).toMatchObject({ status: 'skipped', skipReason: 'declined', value: null });
    expect(session.state.collectedFields).not.toHaveProperty('comments');
    expect(session.events[1]).toEqual({
      type: 'state.changed',
      data: { type: 'FIELD_STATUS', payload: { fieldId: 'comments', status: 'skipped', reason: 'declined' } },
    });
  });

  it('never lets a required field be declined: a "skipped" pass on it is a follow-up', () => {
    const session = draft();
    const applied = applyReview(session, 'email', { passed: true, skipped: true }, 3);
    expect(applied.outcome).toBe('follow_up');
    expect(statusOf(session, 'email')).toMatchObject({ status: 'interviewing', followUps: 1, skipReason: null });
  });

  it('never reopens a field: a required one kept for review is not asked again and the session completes', () => {
    const session = draft();
    expect(applyReview(session, 'email', fail, 0)).toEqual({ outcome: 'needs_review', next: 'next' });
    applyReview(session, 'name', pass('Ann Lee'), 0);
    const applied = applyReview(session, 'comments', pass('Nothing to add'), 0);
    expect(applied).toEqual({ outcome: 'done', next: 'completed' });
    expect(session.state.status).toBe('awaiting_confirmation');
    expect(session.events.at(-1)).toMatchObject({ type: 'session.completed', data: { needsReview: ['email'] } });
  });

  it('skips an optional field that ran out of follow-ups', () => {
    const session = draft();
    applyReview(session, 'email', pass('a@example.com'), 0);
    applyReview(session, 'name', pass('Ann Lee'), 0);
    expect(applyReview(session, 'comments', fail, 0)).toEqual({ outcome: 'skipped', next: 'completed' });
    expect(statusOf(session, 'comments')).toMatchObject({ status: 'skipped', skipReason: 'max_follow_ups' });
  });

  it('treats a verdict on a resolved field as a correction: a pass replaces the value, a fail keeps it', () => {
    const session = draft();
    applyReview(session, 'email', pass('a@example.com'), 3);
    expect(applyReview(session, 'email', pass('b@example.com'), 3)).toEqual({ outcome: 'corrected', next: null });
    expect(statusOf(session, 'email')).toMatchObject({ status: 'done', value: 'b@example.com' });
    expect(session.events).toContainEqual({
      type: 'state.changed',
      data: { type: 'FIELD_VALUE', payload: { fieldId: 'email', value: 'b@example.com' } },
    });
    expect(applyReview(session, 'email', fail, 3)).toEqual({ outcome: 'correction_rejected', next: null });
    expect(statusOf(session, 'email')?.value).toBe('b@example.com');
    expect(currentId(session)).toBe('name');
  });

  it('completes the session when the last field resolves: awaiting_confirmation and session.completed with collectedFields', () => {
    const session = draft();
    applyReview(session, 'email', pass('a@example.com'), 3);
    applyReview(session, 'name', pass('Ann Lee'), 3);
    const applied = applyReview(session, 'comments', { passed: true, skipped: true }, 3);
    expect(applied).toEqual({ outcome: 'skipped', next: 'completed' });
    expect(session.state.status).toBe('awaiting_confirmation');
    expect(currentField(session.state)).toBeNull();
    expect(session.events.at(-1)).toEqual({
      type: 'session.completed',
      data: { collectedFields: { email: 'a@example.com', name: 'Ann Lee' }, audit: null, needsReview: [] },
    });
    expect(kinds(session.events).filter((k) => k === 'session.completed')).toHaveLength(1);
  });

  it('comes back to a pending field the interview passed over', () => {
    const session = draft();
    session.setCurrentFieldIndex(1);
    expect(applyReview(session, 'name', pass('Ann Lee'), 3).next).toBe('next');
    expect(currentId(session)).toBe('comments');
    expect(applyReview(session, 'comments', pass('ok'), 3).next).toBe('next');
    expect(currentId(session)).toBe('email');
  });

  it('throws on a field the form does not have', () => {
    expect(() => applyReview(draft(), 'phone', pass('1'), 3)).toThrow(/unknown field phone/);
  });
});

describe('advance', () => {
  it('completes a session whose fields are all resolved', () => {
    const session = draft();
    arrange(session, (state) => state.fields.forEach((f) => (f.status = 'done')));
    expect(advance(session)).toBe('completed');
    expect(session.state.status).toBe('awaiting_confirmation');
  });
});

describe('unresolvedRequired', () => {
  it('lists the required fields that are not done; one kept for review counts as done', () => {
    const session = draft();
    expect(unresolvedRequired(session.state)).toEqual(['email', 'name']);
    applyReview(session, 'email', fail, 0);
    expect(statusOf(session, 'email')).toMatchObject({ status: 'done', needsReview: true });
    expect(unresolvedRequired(session.state)).toEqual(['name']);
    applyReview(session, 'name', pass('Ann Lee'), 0);
    expect(unresolvedRequired(session.state)).toEqual([]);
  });

  it('ignores optional fields', () => {
    const session = draft();
    applyReview(session, 'email', pass('a@example.com'), 3);
    applyReview(session, 'name', pass('Ann Lee'), 3);
    expect(statusOf(session, 'comments')?.status).toBe('pending');
    expect(unresolvedRequired(session.state)).toEqual([]);
  });
});

describe('a field becomes done only through applyReview', () => {
  it('markAsked and markReviewing move a field through interviewing and reviewing, never to done', () => {
    const session = draft();
    markAsked(session, 'email');
    expect(statusOf(session, 'email')?.status).toBe('interviewing');
    markReviewing(session, 'email');
    expect(statusOf(session, 'email')?.status).toBe('reviewing');
    markAsked(session, 'email');
    expect(statusOf(session, 'email')?.status).toBe('interviewing');
    expect(statusOf(session, 'email')?.value).toBeNull();
    expect(session.state.collectedFields).toEqual({});
    expect(currentId(session)).toBe('email');
    expect(kinds(session.events)).toEqual(['state.changed:FIELD_STATUS', 'state.changed:FIELD_STATUS', 'state.changed:FIELD_STATUS']);
    expect(unresolvedRequired(session.state)).toEqual(['email', 'name']);
  });

  it('markAsked does not touch a field that is already done', () => {
    const session = draft();
    applyReview(session, 'email', pass('a@example.com'), 3);
    const before = session.events.length;
    markAsked(session, 'email');
    expect(statusOf(session, 'email')?.status).toBe('done');
    expect(session.events).toHaveLength(before);
  });

  it('a respondent message for a field does not resolve it', () => {
    const session = draft();
    session.addUserMessage('a@example.com', 't1', 'email');
    expect(statusOf(session, 'email')?.status).toBe('pending');
    expect(unresolvedRequired(session.state)).toEqual(['email', 'name']);
  });
});

describe('sessionTurnBound', () => {
  it('gives every field 1 + maxFollowUps asks and a correction, after the greeting, within MAX_SESSION_TURNS', () => {
    const session = draft();
    expect(sessionTurnBound(session.state, 200, 2)).toBe(8 + 3 * 4);
    expect(sessionTurnBound(session.state, 200, 0)).toBe(8 + 3 * 2);
    expect(sessionTurnBound(session.state, 10, 2)).toBe(10);
  });
});
