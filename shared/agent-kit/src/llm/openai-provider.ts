import type OpenAI from 'openai';
import type {
  ChatCompletion,
  ChatCompletionFunctionTool,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import { ModelBehaviorError } from '@convo/runtime';
import { createOpenAiClient, withRetries, type ProviderLog, type RetryPolicy } from './openai-client.js';
import type { ChatRequest, ChatResponse, LlmMessage, LlmProvider, ToolSpec } from './types.js';

export type { ProviderLog };

export type OpenAiProviderOptions = {
  /** Required for api.openai.com; local OpenAI-compatible servers (with `baseUrl`) usually need none. */
  apiKey?: string;
  /** Defaults to `https://api.openai.com/v1`. */
  baseUrl?: string;
  /** Time limit of one HTTP attempt, not of the whole call with its retries. */
  timeoutMs: number;
  /** Further attempts after the first for 408, 409, 429, 5xx, connection errors and timeouts. */
  maxRetries: number;
  /** First backoff delay when the server sends no Retry-After; doubles per retry. Default 500 ms. */
  retryBaseMs?: number;
  /** Upper bound of the computed backoff delay. Default 8 000 ms. */
  retryMaxMs?: number;
  log?: ProviderLog;
};

/**
 * OpenAI, or any OpenAI-compatible server, through the official SDK's Chat
 * Completions with strict function tools.
 *
 * Retries are ours, not the SDK's (`withRetries` in openai-client.ts, shared
 * with the FAQ embeddings client): 408, 409, 429, 5xx, connection errors and
 * timeouts are retried, an `x-should-retry` header overrides.
 *
 * Errors: when retries run out, `ProviderError` with `retryable: true`; any
 * other 4xx, `ProviderError` with `retryable: false`; a response without
 * choices, `ModelBehaviorError`; an abort rejects with the signal's reason.
 * Malformed tool-call arguments are passed through untouched: the agent loop
 * validates them and shows the model its mistake.
 */
export function createOpenAiProvider(opts: OpenAiProviderOptions): LlmProvider {
  const client = createOpenAiClient(opts);
  const policy: RetryPolicy = {
    maxRetries: opts.maxRetries,
    baseMs: opts.retryBaseMs ?? 500,
    maxMs: opts.retryMaxMs ?? 8_000,
  };
  return {
    name: 'openai',
    async chat(req: ChatRequest): Promise<ChatResponse> {
      const started = Date.now();
      const completion = await withRetries(() => complete(client, req), policy, { model: req.model, signal: req.signal }, opts.log);
      const res = fromCompletion(completion, req.model);
      opts.log?.debug({ model: res.model, ms: Date.now() - started, usage: res.usage, toolCalls: res.toolCalls.length }, 'openai chat completion');
      return res;
    },
  };
}

/** One HTTP attempt. `req.context` is not sent: the rendered system prompt already carries it. */
function complete(client: OpenAI, req: ChatRequest): Promise<ChatCompletion> {
  return client.chat.completions.create(
    {
      model: req.model,
      messages: req.messages.map(toOpenAiMessage),
      ...(req.tools.length > 0 ? { tools: req.tools.map(toOpenAiTool), tool_choice: 'auto' as const } : {}),
    },
    { signal: req.signal },
  );
}

/** Our provider-neutral message in the Chat Completions wire shape. */
function toOpenAiMessage(m: LlmMessage): ChatCompletionMessageParam {
  switch (m.role) {
    case 'system':
    case 'user':
      return { role: m.role, content: m.content };
    case 'assistant':
      if (m.toolCalls.length === 0) return { role: 'assistant', content: m.content ?? '' };
      return {
        role: 'assistant',
        content: m.content,
        tool_calls: m.toolCalls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } })),
      };
    case 'tool':
      // Chat Completions identifies the call by id; the tool name has no field here.
      return { role: 'tool', tool_call_id: m.toolCallId, content: m.content };
  }
}

function toOpenAiTool(t: ToolSpec): ChatCompletionFunctionTool {
  return { type: 'function', function: { name: t.name, description: t.description, parameters: t.parameters, strict: true } };
}

/** Maps the first choice back; tool-call arguments stay the raw string the model wrote. */
function fromCompletion(res: ChatCompletion, requestedModel: string): ChatResponse {
  const choice = res.choices?.[0];
  if (!choice) throw new ModelBehaviorError(`the model ${res.model || requestedModel} returned no choices`);
  const toolCalls = (choice.message.tool_calls ?? []).flatMap((c) =>
    // Only function tools are offered, so a custom tool call cannot be answered and is dropped.
    c.type === 'function' ? [{ id: c.id, name: c.function.name, arguments: c.function.arguments }] : [],
  );
  return {
    content: choice.message.content ?? null,
    toolCalls,
    usage: { promptTokens: res.usage?.prompt_tokens ?? 0, completionTokens: res.usage?.completion_tokens ?? 0 },
    model: res.model || requestedModel,
  };
}
