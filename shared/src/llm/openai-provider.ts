import OpenAI from 'openai';
import { ModelBehaviorError, ProviderError } from '../errors.js';
import type { ChatRequest, ChatResponse, LlmMessage, LlmProvider } from './types.js';

type Log = { debug(obj: object, msg?: string): void; warn(obj: object, msg?: string): void };

/** OpenAI (or any OpenAI-compatible server) through the official SDK's Chat Completions with tools. */
export function createOpenAiProvider(opts: { apiKey?: string; baseUrl?: string; timeoutMs: number; maxRetries: number; log?: Log }): LlmProvider {
  const client = new OpenAI({
    apiKey: opts.apiKey ?? 'not-needed',
    baseURL: opts.baseUrl,
    timeout: opts.timeoutMs,
    maxRetries: opts.maxRetries,
  });
  return {
    name: 'openai',
    async chat(req: ChatRequest): Promise<ChatResponse> {
      try {
        const res = await client.chat.completions.create(
          {
            model: req.model,
            messages: req.messages.map(toOpenAi),
            tools: req.tools.map((t) => ({ type: 'function' as const, function: { name: t.name, description: t.description, parameters: t.parameters, strict: true } })),
            tool_choice: 'auto',
          },
          { signal: req.signal },
        );
        const choice = res.choices[0];
        if (!choice) throw new ModelBehaviorError('the model returned no choices');
        return {
          content: choice.message.content ?? null,
          toolCalls: (choice.message.tool_calls ?? []).flatMap((c) =>
            c.type === 'function' ? [{ id: c.id, name: c.function.name, arguments: c.function.arguments }] : [],
          ),
          usage: { promptTokens: res.usage?.prompt_tokens ?? 0, completionTokens: res.usage?.completion_tokens ?? 0 },
          model: res.model,
        };
      } catch (err) {
        if (err instanceof ModelBehaviorError) throw err;
        if (err instanceof OpenAI.APIError) {
          const status = err.status ?? null;
          const retryable = status === null || status === 429 || status >= 500;
          throw new ProviderError(`LLM call failed: ${err.message}`, status, retryable, err);
        }
        throw new ProviderError(`LLM call failed: ${err instanceof Error ? err.message : String(err)}`, null, true, err);
      }
    },
  };
}

function toOpenAi(m: LlmMessage): OpenAI.Chat.Completions.ChatCompletionMessageParam {
  switch (m.role) {
    case 'system':
    case 'user':
      return { role: m.role, content: m.content };
    case 'assistant':
      return {
        role: 'assistant',
        content: m.content,
        ...(m.toolCalls.length > 0
          ? { tool_calls: m.toolCalls.map((c) => ({ id: c.id, type: 'function' as const, function: { name: c.name, arguments: c.arguments } })) }
          : {}),
      };
    case 'tool':
      return { role: 'tool', tool_call_id: m.toolCallId, content: m.content };
  }
}
