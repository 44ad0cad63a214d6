import type { z } from 'zod';
import type { ChatRequest, ChatResponse, LlmMessage, ToolCall } from '../types.js';

/** What an offline policy decides: at most one tool call per model turn, like a careful model. */
export type PolicyReply = { call: { name: string; args: Record<string, unknown> } } | { text: string };

export type Policy = (req: ChatRequest, tail: ToolOutcome[]) => PolicyReply | Promise<PolicyReply>;

/** A tool call the loop already ran in this model conversation, with its parsed result. */
export type ToolOutcome = { name: string; args: Record<string, unknown>; status: 'success' | 'error'; result: Record<string, unknown> };

/** Tool calls and results since the last user-role message (what this loop has done so far). */
export function toolTail(messages: LlmMessage[]): ToolOutcome[] {
  let start = 0;
  messages.forEach((message, i) => {
    if (message.role === 'user') start = i + 1;
  });
  const calls = new Map<string, ToolCall>();
  const out: ToolOutcome[] = [];
  for (const message of messages.slice(start)) {
    if (message.role === 'assistant') for (const toolCall of message.toolCalls) calls.set(toolCall.id, toolCall);
    if (message.role === 'tool') {
      const call = calls.get(message.toolCallId);
      const parsed = safeJson(message.content) as { status?: string; result?: Record<string, unknown> } | null;
      out.push({
        name: message.name,
        args: (safeJson(call?.arguments ?? '{}') as Record<string, unknown> | null) ?? {},
        status: parsed?.status === 'success' ? 'success' : 'error',
        result: parsed?.result ?? {},
      });
    }
  }
  return out;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/** Turns a policy reply into the provider protocol (tool calls carry JSON-string arguments, as OpenAI's do). */
export function toResponse(req: ChatRequest, reply: PolicyReply): ChatResponse {
  const count = req.messages.length;
  const usage = { promptTokens: 0, completionTokens: 0 };
  if ('text' in reply) return { content: reply.text, toolCalls: [], usage, model: 'offline' };
  return {
    content: null,
    toolCalls: [{ id: `call_${req.agent}_${count}`, name: reply.call.name, arguments: JSON.stringify(reply.call.args) }],
    usage,
    model: 'offline',
  };
}

/**
 * A tool as a policy names it: the tool object itself (or its name and input
 * schema), so renaming a tool or changing its input breaks the policy when it
 * is compiled, not when it runs.
 */
export type ToolRef<S extends z.ZodObject = z.ZodObject> = { readonly name: string; readonly schema: S };

export const call = <S extends z.ZodObject>(tool: ToolRef<S>, args: z.input<S>): PolicyReply => ({
  call: { name: tool.name, args: args as Record<string, unknown> },
});

/** The calls of `tool` this loop already ran, newest last. */
export const callsOf = (tail: readonly ToolOutcome[], tool: ToolRef): ToolOutcome[] => tail.filter((outcome) => outcome.name === tool.name);
