import type OpenAI from 'openai';
import type {
  ChatCompletion,
  ChatCompletionFunctionTool,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import { ModelBehaviorError, ModelStopError, ProviderError } from '@convo/runtime';
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
  /** What a given OpenAI-compatible server accepts (README, "Models"); defaults suit OpenAI. */
  compatibility?: Partial<Compatibility>;
};

export type Compatibility = {
  /** Cap on a reply's tokens, sent as `max_tokens`; 0 sends none. */
  maxOutputTokens: number;
  /** `strict: true` on function tools (vLLM without guided decoding, llama.cpp: false). */
  strictTools: boolean;
  /** `tool_choice` sent with tools; `omit` for servers that reject the field. */
  toolChoice: 'auto' | 'required' | 'omit';
  parallelToolCalls: 'true' | 'false' | 'omit';
  temperature: number | undefined;
};

const DEFAULT_COMPATIBILITY: Compatibility = { maxOutputTokens: 0, strictTools: true, toolChoice: 'auto', parallelToolCalls: 'omit', temperature: undefined };

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
  const compatibility = { ...DEFAULT_COMPATIBILITY, ...opts.compatibility };
  return {
    name: 'openai',
    async chat(req: ChatRequest): Promise<ChatResponse> {
      const started = Date.now();
      const call = (messages: LlmMessage[]) => withRetries(() => complete(client, { ...req, messages }, compatibility), policy, { model: req.model, signal: req.signal }, opts.log);
      let completion: ChatCompletion;
      try {
        completion = await call(req.messages);
      } catch (err) {
        // The window is too small for this conversation: once more with the older half left out.
        if (!isContextLengthError(err)) throw err;
        opts.log?.warn({ model: req.model, messages: req.messages.length }, 'context length exceeded: retrying with a shorter history');
        completion = await call(shortenHistory(req.messages));
      }
      const res = fromCompletion(completion, req.model, compatibility);
      opts.log?.debug({ model: res.model, ms: Date.now() - started, usage: res.usage, toolCalls: res.toolCalls.length }, 'openai chat completion');
      return res;
    },
  };
}

/** One HTTP attempt. `req.context` is not sent: the rendered system prompt already carries it. */
function complete(client: OpenAI, req: ChatRequest, compatibility: Compatibility): Promise<ChatCompletion> {
  const withTools = req.tools.length > 0;
  return client.chat.completions.create(
    {
      model: req.model,
      messages: req.messages.map(toOpenAiMessage),
      ...(withTools ? { tools: req.tools.map((tool) => toOpenAiTool(tool, compatibility.strictTools)) } : {}),
      ...(withTools && compatibility.toolChoice !== 'omit' ? { tool_choice: compatibility.toolChoice } : {}),
      ...(withTools && compatibility.parallelToolCalls !== 'omit' ? { parallel_tool_calls: compatibility.parallelToolCalls === 'true' } : {}),
      ...(compatibility.maxOutputTokens > 0 ? { max_tokens: compatibility.maxOutputTokens } : {}),
      ...(compatibility.temperature !== undefined ? { temperature: compatibility.temperature } : {}),
    },
    { signal: req.signal },
  );
}

/** A 400 saying the conversation does not fit the model's window (OpenAI's code, or the wording of compatible servers). */
function isContextLengthError(err: unknown): boolean {
  if (!(err instanceof ProviderError) || err.upstreamStatus !== 400) return false;
  return /context_length_exceeded|maximum context length|context window|too many tokens|prompt is too long/i.test(err.message);
}

/**
 * The conversation with its older half left out: system messages stay, the
 * kept part never starts with a tool result whose call was dropped, and it
 * starts with a user message (chat templates require one).
 */
export function shortenHistory(messages: LlmMessage[]): LlmMessage[] {
  const system = messages.filter((message) => message.role === 'system');
  const rest = messages.filter((message) => message.role !== 'system');
  let kept = rest.slice(Math.ceil(rest.length / 2));
  while (kept.length > 0 && kept[0]!.role === 'tool') kept = kept.slice(1);
  if (kept[0]?.role !== 'user') kept = [{ role: 'user', content: '(The earlier part of the conversation was left out.)' }, ...kept];
  return [...system, ...kept];
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

function toOpenAiTool(tool: ToolSpec, strict: boolean): ChatCompletionFunctionTool {
  return { type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.parameters, ...(strict ? { strict: true } : {}) } };
}

/**
 * Maps the first choice back; tool-call arguments stay the raw string the
 * model wrote. A reply that stopped for another reason than finishing is an
 * error of its own (finish_reason `length`, `content_filter`, a refusal), and
 * tool calls without a usable id (missing, empty, repeated: some compatible
 * servers send them) get one, so results are matched to their calls.
 */
function fromCompletion(res: ChatCompletion, requestedModel: string, compatibility: Compatibility): ChatResponse {
  const choice = res.choices?.[0];
  const model = res.model || requestedModel;
  if (!choice) throw new ModelBehaviorError(`the model ${model} returned no choices`);
  const refusal = (choice.message as { refusal?: string | null }).refusal;
  if (refusal) throw new ModelStopError('model_refused', `the model ${model} refused: ${refusal}`);
  if (choice.finish_reason === 'content_filter') throw new ModelStopError('model_content_filtered', `the model ${model} stopped: its content filter withheld the reply`);
  if (choice.finish_reason === 'length') {
    const cap = compatibility.maxOutputTokens > 0 ? ` (LLM_MAX_OUTPUT_TOKENS=${compatibility.maxOutputTokens})` : '';
    throw new ModelStopError('model_output_truncated', `the model ${model} reached its output limit${cap} before finishing the reply`);
  }
  const seen = new Set<string>();
  const toolCalls = (choice.message.tool_calls ?? []).flatMap((toolCall, position) => {
    // Only function tools are offered, so a custom tool call cannot be answered and is dropped.
    if (toolCall.type !== 'function') return [];
    const id = toolCall.id && !seen.has(toolCall.id) ? toolCall.id : `call_${res.id || 'reply'}_${position}`;
    seen.add(id);
    return [{ id, name: toolCall.function.name, arguments: toolCall.function.arguments }];
  });
  return {
    content: choice.message.content ?? null,
    toolCalls,
    usage: {
      promptTokens: res.usage?.prompt_tokens ?? 0,
      completionTokens: res.usage?.completion_tokens ?? 0,
      cachedTokens: res.usage?.prompt_tokens_details?.cached_tokens ?? 0,
      reasoningTokens: res.usage?.completion_tokens_details?.reasoning_tokens ?? 0,
    },
    model,
  };
}
