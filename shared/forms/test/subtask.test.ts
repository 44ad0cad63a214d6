import { describe, expect, it } from 'vitest';
import type { LoopCheckpoint } from '@convo/contract';
import { pendingSubtask, SubtaskInput } from '@convo/forms';

const loop = (args: string): { loop: LoopCheckpoint } => ({
  loop: {
    agent: 'interviewer',
    messages: [],
    iterations: 1,
    pendingCall: { id: 'call-7', name: 'subtask', arguments: args },
    subAgent: 'reviewer',
    pendingStartedAt: '',
  },
});

describe('pendingSubtask', () => {
  it('reads the suspended call through the subtask tool schema', () => {
    const args: SubtaskInput = { agent: 'checker', field_id: 'email', question: 'Your e-mail?', note: 'be brief' };
    expect(pendingSubtask(loop(JSON.stringify(args)))).toEqual({
      callId: 'call-7',
      fieldId: 'email',
      question: 'Your e-mail?',
      note: 'be brief',
    });
  });

  it('gives null for an argument that is absent, and for every argument when they are not JSON or not of the schema', () => {
    expect(pendingSubtask(loop('{"agent":"reviewer","field_id":"name"}'))).toEqual({
      callId: 'call-7',
      fieldId: 'name',
      question: null,
      note: null,
    });
    expect(pendingSubtask(loop('not json'))).toEqual({ callId: 'call-7', fieldId: null, question: null, note: null });
    expect(pendingSubtask(loop('{"field_id":42}'))).toEqual({ callId: 'call-7', fieldId: null, question: null, note: null });
  });

  it('is null without a suspended loop', () => {
    expect(pendingSubtask({ loop: null })).toBeNull();
  });
});
