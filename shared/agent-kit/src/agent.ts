import type { SessionDraft, TurnInput } from '@convo/runtime';
import type { AgentName, ChatMessage, LlmMessage, ToolCall } from '@convo/contract';
import type { z } from 'zod';
import type { Tool } from './tool.js';

export { conversationMessages } from './history.js';

/** Where control goes once an agent has nothing left to do in this turn. */
export type Completion = { type: 'handoff'; to: AgentName } | { type: 'return' };

export type { TurnInput } from '@convo/runtime';

/**
 * An agent: its tools, its prompt rendered from the session state, the
 * structured context the offline model reads, the seed's `getRemainingTasks`,
 * and the seed's `getNextAgent` as `completion`. `D` is the draft of the
 * agent's product (its subclass of SessionDraft): every hook gets it typed.
 */
export type AgentDefinition<D extends SessionDraft = SessionDraft> = {
  name: AgentName;
  tools: Tool<z.ZodObject, D>[];
  /** The system prompt: the same for every call, so it stays a cacheable prefix (what changes goes in `state`). */
  instructions(draft: D, turn: TurnInput): string;
  /**
   * What changes from call to call (the session state the agent works on),
   * sent after the history as a system message. Never the respondent's own
   * words: those reach the model only in user messages.
   */
  state?(draft: D, turn: TurnInput): string;
  /** Conversation messages kept however old (the current field's exchange). */
  pinned?(draft: D): (message: ChatMessage) => boolean;
  /**
   * A call the rules already decide (the interviewer hands a new answer to
   * the reviewer): made without asking the model, and recorded like a model's.
   */
  directCall?(draft: D): Omit<ToolCall, 'id'> | null;
  context(draft: D, turn: TurnInput): Record<string, unknown>;
  remainingTasks(draft: D): string[];
  /** Checked after every batch of tool calls: a non-null value ends the loop. */
  completion(draft: D): Completion | null;
  /**
   * Rules the system applies before the model runs (bounds on how long a
   * person can be kept in a loop); checked against `completion` afterwards.
   */
  prepare?(draft: D): void;
  /**
   * For an agent whose turn must end with a message to the person: the tool
   * (`ask`) that text written without a tool call is sent through, or null
   * while that text must not be sent yet (an answer awaits review). Without
   * it, such text is answered with the remaining tasks.
   */
  textTool?(draft: D): string | null;
  /**
   * Whether the text of an `ask` call may reach the person while the model
   * writes it (message.delta); default true. False where only text that has
   * been checked may be shown (application questions pass a quick-check first).
   */
  streamsAsk?(draft: D): boolean;
  /** Messages after the system prompt when a loop starts fresh; defaults to the session's conversation. */
  initialMessages?(draft: D, turn: TurnInput): LlmMessage[];
};

export function createAgent<D extends SessionDraft>(def: AgentDefinition<D>): AgentDefinition<D> {
  return def;
}
