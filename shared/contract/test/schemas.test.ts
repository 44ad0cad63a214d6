import { describe, expect, it } from 'vitest';
import { ZodError } from 'zod';
import { CreateSessionBody, event, type NewEvent, Plan, PostTurnBody, ReviewResult, SessionForm, validateEvent } from '@convo/contract';

const emailField = { id: 'f-email', fieldId: 'email', label: 'Email', required: true, sortOrder: 1 };
const nameField = { id: 'f-name', fieldId: 'name', label: 'Full name', required: true, sortOrder: 2 };
const emailFact = { id: 'k-email', formFieldId: 'f-email', factKey: 'email', fact: 'Email address' };

/** The issues of a failed parse as `path: message`, so an assertion shows which rule fired. */
function issues(result: { success: boolean; error?: ZodError }): string[] {
  return result.error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`) ?? [];
}

describe('SessionForm', () => {
  it('accepts a valid form and fills in the defaults (title, intent, facts, doneCriteria)', () => {
    const form = SessionForm.parse({ fields: [emailField, nameField], facts: [emailFact] });
    expect(form.title).toBe('');
    expect(form.fields[0]).toMatchObject({ intent: null, sortOrder: 1 });
    expect(form.facts[0]).toMatchObject({ doneCriteria: '', questioningHints: null });
    expect(SessionForm.parse({ fields: [emailField] }).facts).toEqual([]);
  });

  it('rejects two fields with the same id, pointing at the second one', () => {
    const result = SessionForm.safeParse({ fields: [emailField, { ...nameField, id: 'f-email' }] });
    expect(result.success).toBe(false);
    expect(issues(result)).toEqual(['fields.1.id: duplicate field id f-email']);
  });

  it('rejects two fields with the same fieldId, pointing at the second one', () => {
    const result = SessionForm.safeParse({ fields: [emailField, { ...nameField, fieldId: 'email' }] });
    expect(result.success).toBe(false);
    expect(issues(result)).toEqual(['fields.1.fieldId: duplicate fieldId email']);
  });

  it('rejects a fact whose formFieldId names no field', () => {
    const result = SessionForm.safeParse({
      fields: [emailField],
      facts: [emailFact, { ...emailFact, id: 'k2', formFieldId: 'f-nowhere' }],
    });
    expect(result.success).toBe(false);
    expect(issues(result)).toEqual(['facts.1.formFieldId: unknown formFieldId f-nowhere']);
  });

  it("links facts by the field's id, not its fieldId", () => {
    const result = SessionForm.safeParse({ fields: [emailField], facts: [{ ...emailFact, formFieldId: 'email' }] });
    expect(result.success).toBe(false);
    expect(issues(result)).toEqual(['facts.0.formFieldId: unknown formFieldId email']);
  });

  it('rejects a form without fields', () => {
    expect(SessionForm.safeParse({ fields: [] }).success).toBe(false);
  });
});

describe('CreateSessionBody', () => {
  const form = { fields: [emailField] };

  it.each(['form', 'application'] as const)('requires a form for kind %s', (kind) => {
    const result = CreateSessionBody.safeParse({ kind });
    expect(result.success).toBe(false);
    expect(issues(result)).toEqual([`form: form is required for kind ${kind}`]);
    expect(CreateSessionBody.safeParse({ kind, form }).success).toBe(true);
  });

  it('forbids a form for kind faq and accepts faq without one', () => {
    const result = CreateSessionBody.safeParse({ kind: 'faq', form });
    expect(result.success).toBe(false);
    expect(issues(result)).toEqual(['form: form must be absent for kind faq']);
    expect(CreateSessionBody.safeParse({ kind: 'faq' }).success).toBe(true);
  });

  it("defaults the language option to 'auto' when options are given without one", () => {
    expect(CreateSessionBody.parse({ kind: 'form', form, options: {} }).options).toEqual({ language: 'auto' });
    expect(CreateSessionBody.parse({ kind: 'form', form, options: { language: 'ja' } }).options).toEqual({ language: 'ja' });
  });

  it('rejects an unknown kind and an unknown language option', () => {
    expect(CreateSessionBody.safeParse({ kind: 'survey', form }).success).toBe(false);
    expect(CreateSessionBody.safeParse({ kind: 'form', form, options: { language: 'fr' } }).success).toBe(false);
  });

  it('validates the embedded form with its own rules (duplicate fieldId)', () => {
    const result = CreateSessionBody.safeParse({ kind: 'form', form: { fields: [emailField, { ...nameField, fieldId: 'email' }] } });
    expect(result.success).toBe(false);
    expect(issues(result)).toContain('form.fields.1.fieldId: duplicate fieldId email');
  });
});

describe('PostTurnBody', () => {
  it.each([
    ['an empty message', ''],
    ['a whitespace-only message', '  \n\t '],
  ])('rejects %s', (_name, message) => {
    const result = PostTurnBody.safeParse({ message });
    expect(result.success).toBe(false);
    expect(issues(result)).toEqual(['message: message must not be empty']);
  });

  it.each([
    ['a number', 42],
    ['null', null],
    ['an object', { text: 'hi' }],
  ])('rejects a message that is %s', (_name, message) => {
    const result = PostTurnBody.safeParse({ message });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(['message']);
  });

  it('rejects a body without a message', () => {
    expect(PostTurnBody.safeParse({}).success).toBe(false);
  });

  it("defaults multitask to 'enqueue' and keeps the message as written", () => {
    expect(PostTurnBody.parse({ message: ' hello ' })).toEqual({ message: ' hello ', multitask: 'enqueue' });
    expect(PostTurnBody.parse({ message: 'hi', multitask: 'reject' }).multitask).toBe('reject');
    expect(PostTurnBody.safeParse({ message: 'hi', multitask: 'interrupt' }).success).toBe(false);
  });

  it('rejects an empty idempotency key', () => {
    expect(PostTurnBody.safeParse({ message: 'hi', idempotencyKey: '' }).success).toBe(false);
    expect(PostTurnBody.parse({ message: 'hi', idempotencyKey: 'k1' }).idempotencyKey).toBe('k1');
  });
});

describe('validateEvent', () => {
  it('returns a well-formed event unchanged', () => {
    const reviewEvent = event('review', { fieldId: 'email', passed: false, missingFacts: ['Email address'], feedback: null });
    expect(validateEvent(reviewEvent)).toBe(reviewEvent);
  });

  it('rejects a review event without fieldId', () => {
    const bad = { type: 'review', data: { passed: true, missingFacts: [], feedback: null } } as unknown as NewEvent;
    expect(() => validateEvent(bad)).toThrow(ZodError);
    try {
      validateEvent(bad);
    } catch (err) {
      expect((err as ZodError).issues.map((i) => i.path.join('.'))).toEqual(['fieldId']);
    }
  });

  it('rejects data that belongs to another event type', () => {
    const turnData = { type: 'review', data: { turnId: 't1' } } as unknown as NewEvent;
    expect(() => validateEvent(turnData)).toThrow(ZodError);
  });

  it('rejects a state.changed event with a type outside the contract', () => {
    const bad = { type: 'state.changed', data: { type: 'SET_CURRENT_AGENT', payload: {} } } as unknown as NewEvent;
    expect(() => validateEvent(bad)).toThrow(ZodError);
  });

  it('rejects a message from a role other than user or assistant', () => {
    const bad = {
      type: 'message',
      data: { messageId: 'm1', role: 'system', agent: null, text: 'x', turnId: 't1' },
    } as unknown as NewEvent;
    expect(() => validateEvent(bad)).toThrow(ZodError);
  });

  it('rejects session.completed whose collected values are not strings', () => {
    const bad = { type: 'session.completed', data: { collectedFields: { attendees: 2 }, audit: null } } as unknown as NewEvent;
    expect(() => validateEvent(bad)).toThrow(ZodError);
  });
});

describe('Plan and ReviewResult', () => {
  it('requires every plan field property (the seed PlanSchema has no optional property)', () => {
    expect(Plan.safeParse({ fields: [{ field_id: 'email', label: 'Email', intent: 'x', required: true }] }).success).toBe(true);
    expect(Plan.safeParse({ fields: [{ field_id: 'email', label: 'Email', required: true }] }).success).toBe(false);
  });

  it('accepts a bare verdict and rejects a verdict without passed', () => {
    expect(ReviewResult.parse({ passed: true })).toEqual({ passed: true });
    expect(ReviewResult.safeParse({ missing_facts: [] }).success).toBe(false);
  });
});
