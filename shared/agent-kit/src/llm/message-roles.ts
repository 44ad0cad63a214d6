import type { LlmMessage } from './types.js';

/** What a conversation that has no user message yet starts with (the greeter's first call). */
export const CONVERSATION_START = '(The conversation starts now.)';

/**
 * Messages in the order and roles every chat template accepts, whatever the
 * agent built: the conversation after the system messages starts with a user
 * message (one is added when there is none), and consecutive user, system or
 * plain assistant messages are merged into one (templates that require
 * alternation reject two in a row). Assistant messages with tool calls and
 * tool results are never merged: their ids pair them.
 *
 * `start` moves every system message (the changing state after the history)
 * into the first one, for templates that accept a system message only there;
 * `end` keeps the state after the history, so the prompt's stable part stays
 * a cacheable prefix.
 */
export function normaliseRoles(messages: readonly LlmMessage[], statePosition: 'end' | 'start' = 'end'): LlmMessage[] {
  const ordered =
    statePosition === 'start'
      ? [...messages.filter((m) => m.role === 'system'), ...messages.filter((m) => m.role !== 'system')]
      : [...messages];
  const leading = ordered.findIndex((m) => m.role !== 'system');
  const head = leading < 0 ? ordered : ordered.slice(0, leading);
  const rest = leading < 0 ? [] : ordered.slice(leading);
  if (rest[0]?.role !== 'user') rest.unshift({ role: 'user', content: CONVERSATION_START });
  const out: LlmMessage[] = [];
  for (const message of [...head, ...rest]) {
    const last = out.at(-1);
    if (last && mergeable(last, message))
      out[out.length - 1] = { ...last, content: `${last.content ?? ''}\n\n${message.content ?? ''}` } as LlmMessage;
    else out.push(message);
  }
  return out;
}

function mergeable(a: LlmMessage, b: LlmMessage): boolean {
  if (a.role !== b.role) return false;
  if (a.role === 'assistant' && b.role === 'assistant') return a.toolCalls.length === 0 && b.toolCalls.length === 0;
  return a.role === 'user' || a.role === 'system';
}
