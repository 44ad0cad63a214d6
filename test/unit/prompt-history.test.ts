import { describe, expect, it } from 'vitest';
import { SessionDraft } from '@convo/runtime';
import { newFormSession } from '@convo/forms';
import { conversationMessages, EARLIER_LEFT_OUT, estimateTokens } from '@convo/agent-kit/internal/history';
import { createLiveChannel } from '@convo/runtime';
import { event, type NewEvent } from '@convo/contract';

/** The bounded conversation an agent sends, and the live channel's deltas. */
function draftWith(count: number, text = (i: number) => `message ${i}`) {
  const draft = new SessionDraft(
    newFormSession({ sessionId: 's', kind: 'form', form: null, language: 'en', firstAgent: 'interviewer', now: '2026-01-01T00:00:00Z' }),
  );
  for (let i = 1; i <= count; i++) {
    if (i % 2 === 1) draft.addAssistantMessage('interviewer', text(i), 't', i <= 2 ? 'name' : 'email');
    else draft.addUserMessage(text(i), 't', i <= 2 ? 'name' : 'email', false);
  }
  return draft;
}

const contents = (messages: ReturnType<typeof conversationMessages>) => messages.map((m) => m.content);

describe('the conversation an agent sends', () => {
  it('is whole without limits, and the last N messages with a note about the rest with them', () => {
    expect(conversationMessages(draftWith(5))).toHaveLength(5);
    const bounded = conversationMessages(draftWith(20), { historyMessages: 8, tokenBudget: 100_000 });
    expect(bounded[0]).toEqual({ role: 'user', content: EARLIER_LEFT_OUT(12) });
    expect(contents(bounded.slice(1))).toEqual([13, 14, 15, 16, 17, 18, 19, 20].map((i) => `message ${i}`));
  });

  it('moves its window in steps of half its size, so consecutive prompts share their start', () => {
    const firsts = [17, 18, 19, 20, 21].map(
      (count) => conversationMessages(draftWith(count), { historyMessages: 8, tokenBudget: 100_000 })[1]!.content,
    );
    // Over four new messages the first kept message changes once at most.
    expect(new Set(firsts).size).toBeLessThanOrEqual(2);
    expect(firsts[0]).toBe(firsts[1]);
  });

  it('keeps pinned messages (the current field’s exchange) however old, and drops the oldest first when over budget', () => {
    const pinned = conversationMessages(draftWith(20), { historyMessages: 4, tokenBudget: 100_000 }, (m) => m.fieldId === 'name');
    expect(contents(pinned)).toContain('message 1');
    expect(contents(pinned)).toContain('message 2');
    const long = (i: number) => `${'word '.repeat(200)}${i}`;
    const tight = conversationMessages(draftWith(10, long), { historyMessages: 10, tokenBudget: 1_000 }, () => false, 200);
    // Budget 1,000 minus 200 reserved leaves room for three messages of ~255 tokens, the newest kept.
    expect(tight.slice(1).map((m) => m.content)).toEqual([8, 9, 10].map(long));
    expect(tight[0]!.content).toBe(EARLIER_LEFT_OUT(7));
  });

  it('estimates CJK text at a token per character and Latin text at one per four', () => {
    expect(estimateTokens('abcdefgh')).toBe(2);
    expect(estimateTokens('東京都')).toBe(3);
  });
});

describe('the live channel of a step', () => {
  it('sends only what changed, from the offset where the text differs, and remembers what it streamed', async () => {
    const sent: NewEvent[] = [];
    const live = createLiveChannel({ publishLive: async (_id: string, ev: NewEvent) => void sent.push(ev) }, 's', 't1', {
      warn: () => undefined,
    } as never);
    live.messageText('m1', 'Which');
    live.messageText('m1', 'Which country');
    live.messageText('m1', 'Which country');
    live.messageText('m1', 'Wh');
    live.messageText('m1', 'Where?');
    expect(sent).toEqual([
      event('message.delta', { messageId: 'm1', delta: 'Which', offset: 0, turnId: 't1' }),
      event('message.delta', { messageId: 'm1', delta: ' country', offset: 5, turnId: 't1' }),
      event('message.delta', { messageId: 'm1', delta: '', offset: 2, turnId: 't1' }),
      event('message.delta', { messageId: 'm1', delta: 'ere?', offset: 2, turnId: 't1' }),
    ]);
    expect(live.streamed).toEqual(['m1']);
  });
});
