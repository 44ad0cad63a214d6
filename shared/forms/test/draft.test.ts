import { describe, expect, it } from 'vitest';
import { SessionDraft } from '@convo/runtime';
import { type LoopCheckpoint } from '@convo/contract';
import { newFormSession } from '@convo/forms';

const base = () =>
  newFormSession({ sessionId: 's', kind: 'form', form: null, language: 'en', firstAgent: 'greeter', now: '2026-01-01T00:00:00.000Z' });

describe('SessionDraft agent stack', () => {
  it('replaces the top on hand-off, pushes a subtask agent and pops it on return', () => {
    const draft = new SessionDraft(base());
    draft.setAgent('architect');
    draft.setAgent('interviewer');
    expect(draft.state.agentStack.map((e) => e.agent)).toEqual(['interviewer']);
    const suspended: LoopCheckpoint = {
      agent: 'interviewer',
      messages: [],
      iterations: 1,
      pendingCall: { id: 'c1', name: 'subtask', arguments: '{}' },
      subAgent: 'reviewer',
      pendingStartedAt: '',
    };
    draft.setLoop(suspended);
    draft.setAgent('reviewer');
    expect(draft.state.agentStack.map((e) => e.agent)).toEqual(['interviewer', 'reviewer']);
    draft.setLoop({ ...suspended, pendingResult: { status: 'success', result: { message: 'ok' } } });
    draft.setAgent('interviewer');
    expect(draft.state.agentStack.map((e) => e.agent)).toEqual(['interviewer']);
    expect(draft.events.map((e) => e.data)).toEqual([
      { from: 'greeter', to: 'architect' },
      { from: 'architect', to: 'interviewer' },
      { from: 'interviewer', to: 'reviewer' },
      { from: 'reviewer', to: 'interviewer' },
    ]);
    expect(draft.stateChanges.every((c) => c.type === 'SET_CURRENT_AGENT')).toBe(true);
  });

  it('does not touch the caller state unless the state is handed over', () => {
    const state = base();
    new SessionDraft(state).setLanguage('ja');
    expect(state.bootstrap.language).toBe('en');
    new SessionDraft(state, undefined, true).setLanguage('ja');
    expect(state.bootstrap.language).toBe('ja');
  });
});
