import OpenAI from 'openai';
import type {
  ChatCompletion,
  ChatCompletionChunk,
  ChatCompletionCreateParamsBase,
  ChatCompletionFunctionTool,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import { normaliseRoles } from './message-roles.js';
import { type Config, ModelBehaviorError, ModelStopError, ProviderError } from '@convo/runtime';
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

/** The configuration's switches for what a server accepts (their meaning is documented in config.ts). */
export type Compatibility = Pick<
  Config['llm'],
  'maxOutputTokens' | 'strictTools' | 'toolChoice' | 'parallelToolCalls' | 'temperature' | 'stream' | 'statePosition'
>;

const DEFAULT_COMPATIBILITY: Compatibility = {
  maxOutputTokens: 0,
  strictTools: true,
  toolChoice: 'auto',
  parallelToolCalls: 'omit',
  temperature: undefined,
  stream: true,
  statePosition: 'end',
};

/**
 * OpenAI, or any OpenAI-compatible server, through the official SDK's Chat
 * Completions with strict function tools, streamed by default: a tool
 * call's arguments are reported while they arrive (`onToolCallProgress`), and
 * the reply is rebuilt from the chunks into the same shape as an unstreamed one.
 * Messages go out with their roles normalised (see message-roles.ts).
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
      const attempt = compatibility.stream ? completeStreamed : complete;
      const call = (messages: LlmMessage[]) =>
        withRetries(() => attempt(client, { ...req, messages }, compatibility), policy, { model: req.model, signal: req.signal }, opts.log);
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
      opts.log?.debug(
        { model: res.model, ms: Date.now() - started, usage: res.usage, toolCalls: res.toolCalls.length },
        'openai chat completion',
      );
      return res;
    },
  };
}

/** The request body both ways of calling share. `req.context` is not sent: the rendered prompt already carries it. */
function requestBody(req: ChatRequest, compatibility: Compatibility): ChatCompletionCreateParamsBase {
  const withTools = req.tools.length > 0;
  return {
    model: req.model,
    messages: normaliseRoles(req.messages, compatibility.statePosition).map(toOpenAiMessage),
    ...(withTools ? { tools: req.tools.map((tool) => toOpenAiTool(tool, compatibility.strictTools)) } : {}),
    ...(withTools && compatibility.toolChoice !== 'omit' ? { tool_choice: compatibility.toolChoice } : {}),
    ...(withTools && compatibility.parallelToolCalls !== 'omit' ? { parallel_tool_calls: compatibility.parallelToolCalls === 'true' } : {}),
    ...(compatibility.maxOutputTokens > 0 ? { max_tokens: compatibility.maxOutputTokens } : {}),
    ...(compatibility.temperature !== undefined ? { temperature: compatibility.temperature } : {}),
  };
}

/** One HTTP attempt, unstreamed. */
function complete(client: OpenAI, req: ChatRequest, compatibility: Compatibility): Promise<ChatCompletion> {
  return client.chat.completions.create({ ...requestBody(req, compatibility), stream: false }, { signal: req.signal });
}

/**
 * One HTTP attempt, streamed: read to the end inside the attempt, so a
 * connection cut halfway through is retried like one cut before the reply.
 */
async function completeStreamed(client: OpenAI, req: ChatRequest, compatibility: Compatibility): Promise<ChatCompletion> {
  const stream = await client.chat.completions.create(
    { ...requestBody(req, compatibility), stream: true, stream_options: { include_usage: true } },
    { signal: req.signal },
  );
  const reply = new StreamedReply();
  try {
    for await (const chunk of stream) {
      for (const index of reply.add(chunk)) {
        const call = reply.calls[index]!;
        if (call.name) req.onToolCallProgress?.({ index, name: call.name, arguments: call.arguments });
      }
    }
  } catch (err) {
    if (err instanceof OpenAI.OpenAIError) throw err;
    throw new OpenAI.APIConnectionError({
      message: `the reply stream broke off: ${err instanceof Error ? err.message : String(err)}`,
      cause: err instanceof Error ? err : undefined,
    });
  }
  return reply.completion(req.model);
}

type PartialCall = { id: string; name: string; arguments: string };

/**
 * A reply rebuilt from its chunks. Tolerant of what compatible servers do:
 * tool calls without an `index` (matched by id, else continuing the last
 * one), a name sent whole in every chunk or split over several, the whole
 * arguments in one chunk, usage in the last chunk or beside finish_reason.
 */
class StreamedReply {
  readonly calls: PartialCall[] = [];
  private id = '';
  private model = '';
  private content: string | null = null;
  private refusal: string | null = null;
  private finishReason: string | null = null;
  private usage: ChatCompletion['usage'] = undefined;
  private sawChoice = false;

  /** Takes one chunk; returns the positions of the tool calls it changed. */
  add(chunk: ChatCompletionChunk): number[] {
    this.id ||= chunk.id ?? '';
    this.model ||= chunk.model ?? '';
    if (chunk.usage) this.usage = chunk.usage;
    const choice = chunk.choices?.find((candidate) => (candidate.index ?? 0) === 0);
    if (!choice) return [];
    this.sawChoice = true;
    const delta = choice.delta ?? {};
    if (typeof delta.content === 'string' && delta.content !== '') this.content = (this.content ?? '') + delta.content;
    if (typeof delta.refusal === 'string') this.refusal = (this.refusal ?? '') + delta.refusal;
    if (choice.finish_reason) this.finishReason = choice.finish_reason;
    const changed = new Set<number>();
    for (const part of delta.tool_calls ?? []) {
      const position = this.positionOf(part);
      const call = this.calls[position]!;
      if (part.id && !call.id) call.id = part.id;
      const name = part.function?.name;
      if (name && name !== call.name) call.name += name;
      if (part.function?.arguments) call.arguments += part.function.arguments;
      changed.add(position);
    }
    return [...changed];
  }

  private positionOf(part: ChatCompletionChunk.Choice.Delta.ToolCall): number {
    if (typeof part.index === 'number' && part.index >= 0) {
      while (this.calls.length <= part.index) this.calls.push({ id: '', name: '', arguments: '' });
      return part.index;
    }
    const byId = part.id ? this.calls.findIndex((call) => call.id === part.id) : -1;
    if (byId >= 0) return byId;
    const last = this.calls.at(-1);
    // Without index or a known id, a chunk naming a tool starts the next call unless it repeats the name of one that has no arguments yet.
    const name = part.function?.name;
    const startsNew = !last || Boolean(part.id) || (Boolean(name) && Boolean(last.name) && (name !== last.name || last.arguments !== ''));
    if (startsNew) this.calls.push({ id: '', name: '', arguments: '' });
    return this.calls.length - 1;
  }

  /** The reply in the unstreamed shape (no choices when the stream carried none). */
  completion(requestedModel: string): ChatCompletion {
    const calls = this.calls.filter((call) => call.name);
    return {
      id: this.id,
      object: 'chat.completion',
      created: 0,
      model: this.model || requestedModel,
      choices: this.sawChoice
        ? [
            {
              index: 0,
              logprobs: null,
              finish_reason: (this.finishReason ?? 'stop') as ChatCompletion.Choice['finish_reason'],
              message: {
                role: 'assistant',
                content: this.content,
                refusal: this.refusal,
                ...(calls.length > 0
                  ? {
                      tool_calls: calls.map((call) => ({
                        id: call.id,
                        type: 'function' as const,
                        function: { name: call.name, arguments: call.arguments },
                      })),
                    }
                  : {}),
              },
            },
          ]
        : [],
      usage: this.usage,
    };
  }
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
  return {
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: tool.parameters, ...(strict ? { strict: true } : {}) },
  };
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
  if (choice.finish_reason === 'content_filter')
    throw new ModelStopError('model_content_filtered', `the model ${model} stopped: its content filter withheld the reply`);
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
