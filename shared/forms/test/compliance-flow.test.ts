import { describe, expect, it } from 'vitest';
import { plainTurnIntake } from '@convo/runtime';
import { SessionForm } from '@convo/contract';
import {
  applicationDraft,
  applyAudit,
  applyCheck,
  applyPlan,
  formTurnIntake,
  hasPassedCheck,
  newFormSession,
  prepareUserMessage,
} from '@convo/forms';

function application() {
  const form = SessionForm.parse({
    title: 'Engineer',
    fields: [
      { id: 'a1', fieldId: 'full_name', label: 'Full name', intent: 'Identify the applicant', required: true, sortOrder: 1 },
      { id: 'a2', fieldId: 'marital_status', label: 'Marital status', intent: 'marital status', required: false, sortOrder: 2 },
    ],
    facts: [],
    compliance: { prohibitedTopics: ['religion'] },
  });
  const state = newFormSession({
    sessionId: 's',
    kind: 'application',
    form,
    language: 'en',
    firstAgent: 'interviewer',
    now: '2026-01-01T00:00:00.000Z',
  });
  const session = applicationDraft(state);
  applyPlan(session, {
    fields: form.fields.map((f) => ({ field_id: f.fieldId, label: f.label, intent: f.intent ?? '', required: f.required })),
  });
  return session;
}

describe('compliance flow', () => {
  it('records a passed check so that exactly that text may be asked for that field', () => {
    const session = application();
    const applied = applyCheck(session, {
      fieldId: 'full_name',
      question: 'Could you tell me your full name?',
      passed: true,
      violations: [],
      maxRephrasings: 2,
    });
    expect(applied.passed).toBe(true);
    expect(hasPassedCheck(session.state, 'full_name', 'Could you tell me your full name?')).toBe(true);
    expect(hasPassedCheck(session.state, 'full_name', 'Could you tell me your full name, please?')).toBe(false);
    expect(hasPassedCheck(session.state, null, 'Could you tell me your full name?')).toBe(false);
    expect(session.events.map((e) => e.type)).toEqual(['state.changed', 'check']);
  });

  it('fails a question on a prohibited topic even when the model passed it', () => {
    const session = application();
    const applied = applyCheck(session, {
      fieldId: 'full_name',
      question: 'Are you married?',
      passed: true,
      violations: [],
      maxRephrasings: 2,
    });
    expect(applied.passed).toBe(false);
    expect(applied.violations.map((v) => v.type)).toEqual(['prohibited_topic']);
    expect(hasPassedCheck(session.state, 'full_name', 'Are you married?')).toBe(false);
  });

  it('skips the field with reason compliance after the rephrasings also fail, and moves on', () => {
    const session = application();
    session.setCurrentFieldIndex(1);
    const fail = () =>
      applyCheck(session, {
        fieldId: 'marital_status',
        question: 'What is your marital status?',
        passed: false,
        violations: [],
        maxRephrasings: 2,
      });
    expect(fail().fieldSkipped).toBe(false);
    expect(fail().fieldSkipped).toBe(false);
    const third = fail();
    expect(third).toMatchObject({ fieldSkipped: true, attempts: 3 });
    expect(session.state.fields.find((f) => f.fieldId === 'marital_status')).toMatchObject({ status: 'skipped', skipReason: 'compliance' });
  });

  it('checks only topic and tone on the closing message', () => {
    const session = application();
    const applied = applyCheck(session, {
      fieldId: null,
      question: 'Thank you, your application is ready to submit.',
      passed: false,
      violations: [{ type: 'no_intent_binding', message: 'not about any field' }],
      maxRephrasings: 2,
    });
    expect(applied.passed).toBe(true);
  });

  it('masks what the applicant volunteers about a prohibited topic before it is stored', () => {
    const session = application();
    const prepared = prepareUserMessage(session.state, 'I go to church every Sunday. I have five years of Go experience.');
    expect(prepared.topics).toContain('religion');
    expect(prepared.text).not.toMatch(/church/i);
    expect(prepared.text).toMatch(/Go experience/);
    const form = prepareUserMessage({ ...session.state, kind: 'form' }, 'I go to church every Sunday.');
    expect(form).toEqual({ text: 'I go to church every Sunday.', topics: [] });
  });

  it('completes the session with the audit, masking its summary and flagging any prohibited question', () => {
    const session = application();
    session.addAssistantMessage('interviewer', 'Are you married?', 't1', null);
    applyAudit(session, { passed: true, violations: [], summary: 'Jane Doe, goes to church on Sundays' });
    const audit = session.state.audit!;
    expect(audit.passed).toBe(false);
    expect(audit.violations).toContainEqual(expect.objectContaining({ type: 'prohibited_topic', severity: 'error' }));
    expect(audit.summary).not.toMatch(/church/i);
    expect(session.state.status).toBe('awaiting_confirmation');
    expect(session.events.map((e) => e.type).slice(-2)).toEqual(['audit', 'session.completed']);
  });

  it('takes a turn through the forms intake: masked, routed, recorded as volunteered, with the redaction asked for', async () => {
    const session = application();
    const taken = await formTurnIntake(session, 'I go to church every Sunday.', 't1');
    const message = session.state.messages.at(-1)!;
    expect(message.text).not.toMatch(/church/);
    expect(taken).toEqual({ redactedMessage: message.text });
    expect(session.state.compliance.volunteered).toEqual([{ messageId: message.messageId, topics: ['religion'] }]);

    const plain = application();
    expect(plainTurnIntake(plain, 'I go to church every Sunday.', 't1')).toEqual({});
    expect(plain.state.messages.at(-1)!.text).toBe('I go to church every Sunday.');
    expect(plain.state.compliance.volunteered).toEqual([]);
  });
});
