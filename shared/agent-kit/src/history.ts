import type { SessionDraft } from '@convo/runtime';
import type { ChatMessage, LlmMessage } from '@convo/contract';

/** How much conversation an agent sends: the last `historyMessages` messages, all under `tokenBudget` estimated prompt tokens. */
export type PromptLimits = { historyMessages: number; tokenBudget: number };

/**
 * A rough token count that errs high: a token per 4 characters of Latin
 * text, one per character of CJK and other scripts (their tokenisers split
 * finer), plus a few per message for the role markup. Servers tokenise
 * differently; the budget needs an upper estimate, not the exact figure.
 */
export function estimateTokens(text: string): number {
  let narrow = 0;
  let wide = 0;
  for (const char of text) {
    if (char.codePointAt(0)! < 0x2e80) narrow++;
    else wide++;
  }
  return Math.ceil(narrow / 4) + wide;
}

function estimateMessageTokens(message: LlmMessage): number {
  const calls =
    message.role === 'assistant'
      ? message.toolCalls.reduce((sum, call) => sum + estimateTokens(call.name) + estimateTokens(call.arguments), 0)
      : 0;
  return 4 + estimateTokens(message.content ?? '') + calls;
}

/** Said in place of the messages left out, so the model knows the conversation began earlier. */
export const EARLIER_LEFT_OUT = (count: number) =>
  `(${count} earlier message${count === 1 ? ' is' : 's are'} left out here; what they settled is in the current state.)`;

/**
 * The session's conversation as model messages, bounded: the last
 * `historyMessages` messages plus every `pinned` one (the current field's
 * exchange), dropped oldest first until the conversation fits in what the
 * budget leaves after the fixed part of the prompt (`reservedTokens`). The
 * window moves in steps of half its size, so for several turns in a row
 * the prompt keeps the same prefix and a server's prompt cache can reuse it.
 * The newest message is always kept.
 */
export function conversationMessages(
  draft: SessionDraft,
  limits?: PromptLimits,
  pinned: (message: ChatMessage) => boolean = () => false,
  reservedTokens = 0,
): LlmMessage[] {
  const all = draft.state.messages;
  if (!limits) return all.map(toLlmMessage);
  const step = Math.max(1, Math.floor(limits.historyMessages / 2));
  const windowStart = all.length <= limits.historyMessages ? 0 : Math.ceil((all.length - limits.historyMessages) / step) * step;
  const kept = all.map((message, i) => i >= windowStart || pinned(message));
  // Only kept messages are measured: a long conversation's older part costs nothing per step.
  const sizes = all.map((message, i) => (kept[i] ? estimateMessageTokens(toLlmMessage(message)) : 0));
  let total = sizes.reduce((sum, size) => sum + size, 0);
  const budget = limits.tokenBudget - reservedTokens;
  // Over budget: the oldest window messages go first, then pinned ones; never the newest.
  for (const dropPinned of [false, true]) {
    for (let i = 0; i < all.length - 1 && total > budget; i++) {
      if (kept[i] && (dropPinned || !pinned(all[i]!))) {
        kept[i] = false;
        total -= sizes[i]!;
      }
    }
  }
  const messages = all.filter((_, i) => kept[i]).map(toLlmMessage);
  const leftOut = kept.filter((keep) => !keep).length;
  return leftOut > 0 ? [{ role: 'user', content: EARLIER_LEFT_OUT(leftOut) }, ...messages] : messages;
}

function toLlmMessage(m: ChatMessage): LlmMessage {
  return m.role === 'user' ? { role: 'user', content: m.text } : { role: 'assistant', content: m.text, toolCalls: [] };
}
