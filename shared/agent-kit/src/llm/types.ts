import type { AgentName, LlmMessage, ToolCall } from '@convo/contract';

export type { LlmMessage, ToolCall };

/** A tool as the model sees it: JSON Schema parameters generated from the tool's zod input schema. */
export type ToolSpec = {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
};

/** Tokens of one call; `cachedTokens` are part of the prompt's, `reasoningTokens` part of the completion's (0 when the server does not say). */
export type TokenUsage = { promptTokens: number; completionTokens: number; cachedTokens?: number; reasoningTokens?: number };

export type ChatRequest = {
  agent: AgentName;
  model: string;
  messages: LlmMessage[];
  tools: ToolSpec[];
  /**
   * Structured facts the agent's prompt was rendered from. Remote models read
   * the rendered system prompt; the offline provider reads this directly.
   */
  context: Record<string, unknown>;
  signal?: AbortSignal;
  /**
   * Called while a streamed reply is generated, with a tool call's arguments
   * so far (the whole string each time, not the increment). A retried attempt
   * starts again from an empty string.
   */
  onToolCallProgress?: (progress: ToolCallProgress) => void;
};

/** A tool call of a reply still being generated: its position in the reply, its name and its arguments so far. */
export type ToolCallProgress = { index: number; name: string; arguments: string };

export type ChatResponse = {
  content: string | null;
  toolCalls: ToolCall[];
  usage: TokenUsage;
  model: string;
};

/** One interface for every model backend; core code never names a provider. */
export interface LlmProvider {
  readonly name: string;
  chat(req: ChatRequest): Promise<ChatResponse>;
}
