import { describe, expect, it } from 'vitest';
import { ChatMessage } from '@convo/contract';
import { SessionDraft } from '@convo/runtime';
import { newFormSession } from '@convo/forms';

describe("an assistant message's additionalData (seed 004)", () => {
  it('is baked into the message of this step and kept with it; an unknown message is left alone', () => {
    const draft = new SessionDraft(
      newFormSession({ sessionId: 's', kind: 'form', form: null, language: 'en', firstAgent: 'interviewer', now: '2026-01-01T00:00:00Z' }),
    );
    const message = draft.addAssistantMessage('interviewer', 'Done.', 't1', null);
    draft.setMessageData(message.messageId, { problemId: 'ws-1-p1', changed: ['prompt'] });
    draft.setMessageData(message.messageId, { version: 2 });
    draft.setMessageData('no-such-message', { ignored: true });
    const stored = draft.state.messages.find((candidate) => candidate.messageId === message.messageId)!;
    expect(stored.data).toEqual({ problemId: 'ws-1-p1', changed: ['prompt'], version: 2 });
    // It survives the contract's parse (a message without it has none).
    expect(ChatMessage.parse(JSON.parse(JSON.stringify(stored))).data).toEqual(stored.data);
    expect(ChatMessage.parse({ ...stored, data: undefined }).data).toBeUndefined();
  });
});
