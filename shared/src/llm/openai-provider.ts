import OpenAI from 'openai';
import type {
  ChatCompletion,
  ChatCompletionFunctionTool,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import { ModelBehaviorError, ProviderError } from '../errors.js';
import type { ChatRequest, ChatResponse, LlmMessage, LlmProvider, ToolSpec } from './types.js';

/** The two log levels the provider uses; a pino logger fits. */
export type ProviderLog = { debug(obj: object, msg?: string): void; warn(obj: object, msg?: string): void };

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

/** Placeholder key: the SDK refuses to start without one, local servers ignore it. */
const NO_KEY = 'not-needed';
const DEFAULT_BASE_URL = 'https://api.openai.com/v1';
/** A server asking for a longer pause than this ends the retries: the job queue's backoff takes over. */
const MAX_RETRY_AFTER_MS = 60_000;

/**
 * OpenAI, or any OpenAI-compatible server, through the official SDK's Chat
 * Completions with strict function tools.
 *
 * Retries are ours, not the SDK's (the client runs with `maxRetries: 0`): the
 * SDK honours Retry-After without an upper bound, sleeps through an abort of
 * `req.signal`, has a fixed 0.5 s base delay and cannot report a retry to our
 * logger. Classification follows the SDK's: 408, 409, 429, 5xx, connection
 * errors and timeouts are retried, an `x-should-retry` header overrides.
 *
 * Errors: when retries run out, `ProviderError` with `retryable: true`; any
 * other 4xx, `ProviderError` with `retryable: false`; a response without
 * choices, `ModelBehaviorError`; an abort rejects with the signal's reason.
 * Malformed tool-call arguments are passed through untouched: the agent loop
 * validates them and shows the model its mistake.
 */
export function createOpenAiProvider(opts: OpenAiProviderOptions): LlmProvider {
  const client = createClient(opts);
  const policy: RetryPolicy = {
    maxRetries: opts.maxRetries,
    baseMs: opts.retryBaseMs ?? 500,
    maxMs: opts.retryMaxMs ?? 8_000,
  };
  return {
    name: 'openai',
    async chat(req: ChatRequest): Promise<ChatResponse> {
      const started = Date.now();
      const completion = await withRetries(() => complete(client, req), policy, req, opts.log);
      const res = fromCompletion(completion, req.model);
      opts.log?.debug({ model: res.model, ms: Date.now() - started, usage: res.usage, toolCalls: res.toolCalls.length }, 'openai chat completion');
      return res;
    },
  };
}

function createClient(opts: OpenAiProviderOptions): OpenAI {
  if (!opts.apiKey && !opts.baseUrl) {
    throw new Error('openai provider needs an apiKey (or a baseUrl for a local OpenAI-compatible server)');
  }
  // Every option the SDK would otherwise read from process.env is set here: only config.ts reads the environment.
  return new OpenAI({
    apiKey: opts.apiKey ?? NO_KEY,
    baseURL: opts.baseUrl ?? DEFAULT_BASE_URL,
    organization: null,
    project: null,
    timeout: opts.timeoutMs,
    maxRetries: 0,
  });
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

type RetryPolicy = { maxRetries: number; baseMs: number; maxMs: number };

/** What one failed attempt means for the next. */
type Failure = { status: number | null; retryable: boolean; retryAfterMs: number | null; message: string };

async function withRetries<T>(attempt: () => Promise<T>, policy: RetryPolicy, req: ChatRequest, log?: ProviderLog): Promise<T> {
  for (let retry = 0; ; retry++) {
    try {
      return await attempt();
    } catch (err) {
      if (req.signal?.aborted) throw req.signal.reason;
      const failure = classify(err);
      const delayMs = failure.retryAfterMs ?? backoffMs(retry, policy);
      if (!failure.retryable || retry >= policy.maxRetries || delayMs > MAX_RETRY_AFTER_MS) {
        throw toProviderError(failure, retry + 1, err);
      }
      log?.warn({ model: req.model, status: failure.status, attempt: retry + 1, delayMs, err: failure.message }, 'openai call failed, retrying');
      await sleep(delayMs, req.signal);
    }
  }
}

/** Sorts an SDK error by whether another attempt may succeed; anything else is our bug and is rethrown. */
function classify(err: unknown): Failure {
  if (err instanceof OpenAI.APIConnectionError) {
    // Includes APIConnectionTimeoutError: the attempt ran past `timeoutMs` or never connected.
    return { status: null, retryable: true, retryAfterMs: null, message: err.message };
  }
  if (err instanceof OpenAI.APIError && typeof err.status === 'number') {
    const headers = err.headers;
    return { status: err.status, retryable: isRetryable(err.status, headers), retryAfterMs: retryAfterMs(headers), message: err.message };
  }
  if (err instanceof OpenAI.OpenAIError) return { status: null, retryable: false, retryAfterMs: null, message: err.message };
  throw err;
}

function isRetryable(status: number, headers: Headers | undefined): boolean {
  // OpenAI's own hint, which the SDK obeys too.
  const hint = headers?.get('x-should-retry');
  if (hint === 'true') return true;
  if (hint === 'false') return false;
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/** `retry-after-ms` (OpenAI's, precise) before `retry-after` (seconds or an HTTP date); null when absent or unreadable. */
function retryAfterMs(headers: Headers | undefined): number | null {
  const ms = Number.parseFloat(headers?.get('retry-after-ms') ?? '');
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers?.get('retry-after');
  if (!value) return null;
  const seconds = Number.parseFloat(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - Date.now());
}

/** Exponential backoff with jitter (50–100 % of the step), so many workers do not retry in lockstep. */
function backoffMs(retry: number, policy: RetryPolicy): number {
  const step = Math.min(policy.baseMs * 2 ** retry, policy.maxMs);
  return step * (0.5 + Math.random() * 0.5);
}

function toProviderError(f: Failure, attempts: number, cause: unknown): ProviderError {
  const status = f.status === null ? 'no response' : `status ${f.status}`;
  const message = f.retryable
    ? `LLM call failed after ${attempts} attempt${attempts === 1 ? '' : 's'} (${status}): ${f.message}`
    : `LLM call rejected (${status}): ${f.message}`;
  return new ProviderError(message, f.status, f.retryable, cause);
}

/** A pause that ends early, rejecting with the signal's reason, when the caller aborts. */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
