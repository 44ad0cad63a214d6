import { describe, expect, it } from 'vitest';
import { productsByKind, resetAfterFailure } from '@convo/runtime';
import { FaqState, SessionForm } from '@convo/contract';
import { APPLICATIONS, applicationDraft, formDraft, FORMS, newFormSession } from '@convo/forms';
import { FAQ, faqDraft, newFaqSession } from '@convo/faq';
import { WORKBENCH } from '@convo/workbench';

/**
 * How a product plugs into the runtime (ProductHooks): its draft made once for its
 * own kind of session, and a failed turn's state put back by the product that
 * knows it: what the gateway's sweeper relies on when it fails the turns of
 * every product.
 */
const NOW = '2026-01-01T00:00:00.000Z';
const form = SessionForm.parse({
  title: 'Signup',
  fields: [{ id: 'f-name', fieldId: 'name', label: 'Full name', required: true, sortOrder: 0 }],
  facts: [],
});
const formState = () => newFormSession({ sessionId: 'f1', kind: 'form', form, language: 'en', firstAgent: 'interviewer', now: NOW });
const faqState = () =>
  newFaqSession({ sessionId: 'q1', language: 'en', faq: FaqState.parse({ access: 'token', history: [], turns: [] }), now: NOW });
const every = productsByKind({ form: FORMS, application: APPLICATIONS, faq: FAQ, workbench: WORKBENCH });

describe('product hooks', () => {
  it('make each product its own draft, and refuse a session of another product where the draft is made', () => {
    expect(every.draft(formState(), false).constructor.name).toBe('FormDraft');
    expect(every.draft(faqState(), false).constructor.name).toBe('FaqDraft');
    expect(
      formDraft(
        newFormSession({ sessionId: 'a1', kind: 'application', form, language: 'en', firstAgent: 'interviewer', now: NOW }),
      ).application(),
    ).not.toBeNull();
    expect(formDraft(formState()).application()).toBeNull();
    expect(() => faqDraft(formState())).toThrow(/form session, not an FAQ dialog/);
    expect(() => applicationDraft(formState())).toThrow(/not a job application/);
    expect(() => every.draft({ ...formState(), kind: 'other' } as never, false)).toThrow(/no product serves sessions of kind other/);
  });

  it('put an interview back after a failed turn: no field left under review', () => {
    const draft = every.draft(formState(), false);
    const interview = formDraft(draft.state as never);
    interview.setFieldStatus('name', 'reviewing');
    resetAfterFailure(interview, every);
    expect(interview.state.fields[0]!.status).toBe('interviewing');
  });

  it('put an FAQ dialog back after a failed turn: the planner takes the next turn', () => {
    const draft = faqDraft(faqState());
    draft.setAgent('search');
    resetAfterFailure(draft, every);
    expect(draft.state.currentAgent).toBe('planner');
  });

  it('close a suspended loop whatever the product, before the product repairs its part', () => {
    const draft = formDraft(formState());
    draft.setLoop({
      agent: 'interviewer',
      messages: [],
      iterations: 1,
      pendingCall: { id: 'c1', name: 'subtask', arguments: '{}' },
      subAgent: 'reviewer',
      pendingStartedAt: NOW,
    });
    draft.setAgent('reviewer');
    resetAfterFailure(draft, FORMS);
    expect(draft.state.loop).toBeNull();
    expect(draft.state.currentAgent).toBe('interviewer');
  });
});
