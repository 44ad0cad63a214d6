import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ModelBehaviorError, ModelStopError, ProviderError } from '@convo/runtime';
import { toolSpec } from '@convo/agent-kit/internal/llm/json-schema';
import { createOpenAiProvider, type OpenAiProviderOptions, shortenHistory } from '@convo/agent-kit/internal/llm/openai-provider';
import { CONVERSATION_START, normaliseRoles } from '@convo/agent-kit/internal/llm/message-roles';
import type { ChatRequest } from '@convo/agent-kit';
import { startFakeOpenAi, type FakeOpenAi } from '../support/fake-openai.js';

/**
 * The OpenAI provider over real HTTP against a scripted OpenAI-compatible
 * server. Retry delays are kept tiny with `retry-after: 0` or `retryBaseMs: 1`.
 */
let fake: FakeOpenAi;
beforeAll(async () => {
  fake = await startFakeOpenAi();
});
afterAll(() => fake.close());
afterEach(() => {
  // Every test consumes exactly the replies it planned.
  expect(fake.pending()).toBe(0);
  fake.requests.length = 0;
});

function provider(overrides: Partial<OpenAiProviderOptions> = {}) {
  return createOpenAiProvider({ baseUrl: fake.url, apiKey: 'sk-test', timeoutMs: 5_000, maxRetries: 2, retryBaseMs: 1, ...overrides });
}

const SetLanguage = z.object({ language: z.string(), note: z.union([z.string(), z.null()]) });

function request(overrides: Partial<ChatRequest> = {}): ChatRequest {
  return {
    agent: 'greeter',
    model: 'test-model',
    context: { secret: 'context is for the offline provider only' },
    tools: [toolSpec('set_language', 'Set the language', SetLanguage)],
    messages: [
      { role: 'system', content: 'You are the greeter.' },
      { role: 'user', content: '日本語で' },
      { role: 'assistant', content: null, toolCalls: [{ id: 'call_a', name: 'set_language', arguments: '{"language":"ja","note":null}' }] },
      { role: 'tool', toolCallId: 'call_a', name: 'set_language', content: '{"status":"success","result":{"message":"ok"}}' },
      { role: 'assistant', content: 'どちらの国にお住まいですか？', toolCalls: [] },
      { role: 'user', content: '日本' },
    ],
    ...overrides,
  };
}

const failure = (p: Promise<unknown>) =>
  p.then(
    () => expect.unreachable('the call should have failed'),
    (e: unknown) => e,
  );

describe('openai provider: request and response mapping', () => {
  it('sends the model, our messages in Chat Completions form and strict tools, and maps the tool calls back', async () => {
    fake.enqueue({
      toolCalls: [
        { name: 'set_country', arguments: '{"country":"JP"}' },
        { name: 'ask', arguments: '{"message":"東京ですか？"}' },
      ],
    });

    const res = await provider().chat(request());

    expect(res).toEqual({
      content: null,
      toolCalls: [
        { id: 'call_1_0', name: 'set_country', arguments: '{"country":"JP"}' },
        { id: 'call_1_1', name: 'ask', arguments: '{"message":"東京ですか？"}' },
      ],
      usage: { promptTokens: 11, completionTokens: 7, cachedTokens: 0, reasoningTokens: 0 },
      model: 'test-model',
    });
    expect(fake.requests).toHaveLength(1);
    const { body, headers } = fake.requests[0]!;
    expect(headers.authorization).toBe('Bearer sk-test');
    expect(body.model).toBe('test-model');
    expect(body.messages).toEqual([
      { role: 'system', content: 'You are the greeter.' },
      { role: 'user', content: '日本語で' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_a', type: 'function', function: { name: 'set_language', arguments: '{"language":"ja","note":null}' } }],
      },
      { role: 'tool', tool_call_id: 'call_a', content: '{"status":"success","result":{"message":"ok"}}' },
      { role: 'assistant', content: 'どちらの国にお住まいですか？' },
      { role: 'user', content: '日本' },
    ]);
    expect(body.tool_choice).toBe('auto');
    expect(body.tools).toEqual([
      {
        type: 'function',
        function: {
          name: 'set_language',
          description: 'Set the language',
          strict: true,
          parameters: {
            type: 'object',
            properties: { language: { type: 'string' }, note: { type: ['string', 'null'] } },
            required: ['language', 'note'],
            additionalProperties: false,
          },
        },
      },
    ]);
    expect(JSON.stringify(body)).not.toContain('context is for the offline provider only');
  });

  it('passes malformed tool-call arguments through as the raw string for the agent loop to reject', async () => {
    fake.enqueue({ toolCalls: [{ name: 'set_language', arguments: '{"language": ' }] });
    const res = await provider().chat(request());
    expect(res.toolCalls).toEqual([{ id: 'call_2_0', name: 'set_language', arguments: '{"language": ' }]);
  });

  it('maps a plain answer and the token usage the server reports', async () => {
    fake.enqueue({ content: 'Hello!', usage: { prompt_tokens: 1234, completion_tokens: 56 } });
    const res = await provider().chat(request());
    expect(res).toMatchObject({ content: 'Hello!', toolCalls: [], usage: { promptTokens: 1234, completionTokens: 56 } });
  });

  it('omits tools and tool_choice when the agent offers no tools', async () => {
    fake.enqueue({ content: 'ok' });
    await provider().chat(request({ tools: [] }));
    expect(fake.requests[0]!.body).not.toHaveProperty('tools');
    expect(fake.requests[0]!.body).not.toHaveProperty('tool_choice');
  });

  it('uses a placeholder key for a local compatible server given no apiKey', async () => {
    fake.enqueue({ content: 'ok' });
    await createOpenAiProvider({ baseUrl: fake.url, timeoutMs: 5_000, maxRetries: 0 }).chat(request());
    expect(fake.requests[0]!.headers.authorization).toBe('Bearer not-needed');
  });

  it('refuses to start with neither an apiKey nor a baseUrl', () => {
    expect(() => createOpenAiProvider({ timeoutMs: 5_000, maxRetries: 0 })).toThrow(/apiKey/);
  });

  it('reports a response without choices as a ModelBehaviorError, without retrying', async () => {
    fake.enqueue({ status: 200, body: { id: 'x', object: 'chat.completion', created: 0, model: 'test-model', choices: [] } });
    const err = await failure(provider().chat(request()));
    expect(err).toBeInstanceOf(ModelBehaviorError);
    expect(fake.requests).toHaveLength(1);
  });
});

describe('openai provider: retries', () => {
  it('retries a 429 honouring retry-after and then succeeds', async () => {
    fake.enqueue({ status: 429, headers: { 'retry-after': '0' } }, { content: 'hello' });
    const res = await provider().chat(request());
    expect(res.content).toBe('hello');
    expect(fake.requests).toHaveLength(2);
  });

  it('waits what retry-after-ms asks instead of its own backoff', { timeout: 5_000 }, async () => {
    // With a 60 s base delay the test could only finish in time by honouring the header.
    fake.enqueue({ status: 429, headers: { 'retry-after-ms': '5' } }, { content: 'hello' });
    const res = await provider({ retryBaseMs: 60_000, retryMaxMs: 60_000 }).chat(request());
    expect(res.content).toBe('hello');
    expect(fake.requests).toHaveLength(2);
  });

  it('retries 500, 500 with backoff and succeeds on the third attempt, logging each retry', async () => {
    fake.enqueue({ status: 500 }, { status: 500 }, { toolCalls: [{ name: 'ask', arguments: '{"message":"hi"}' }] });
    const warnings: object[] = [];
    const log = { debug: () => {}, warn: (obj: object) => void warnings.push(obj) };
    const res = await provider({ log }).chat(request());
    expect(res.toolCalls.map((c) => c.name)).toEqual(['ask']);
    expect(fake.requests).toHaveLength(3);
    expect(warnings).toMatchObject([
      { status: 500, attempt: 1 },
      { status: 500, attempt: 2 },
    ]);
  });

  it('retries a dropped connection', async () => {
    fake.enqueue({ disconnect: true }, { content: 'back' });
    expect((await provider().chat(request())).content).toBe('back');
    expect(fake.requests).toHaveLength(2);
  });

  it('retries an attempt that runs past timeoutMs', async () => {
    fake.enqueue({ delayMs: 2_000, reply: { content: 'too late' } }, { content: 'in time' });
    expect((await provider({ timeoutMs: 200 }).chat(request())).content).toBe('in time');
    expect(fake.requests).toHaveLength(2);
  });

  it('gives up after maxRetries with a retryable ProviderError', async () => {
    fake.enqueue({ status: 500 }, { status: 502 }, { status: 503 });
    const err = await failure(provider({ maxRetries: 2 }).chat(request()));
    expect(err).toBeInstanceOf(ProviderError);
    expect(err).toMatchObject({ retryable: true, upstreamStatus: 503, code: 'provider_unavailable' });
    expect((err as Error).message).toMatch(/after 3 attempts/);
    expect(fake.requests).toHaveLength(3);
  });

  it('gives up at once when the server asks to wait longer than a minute', async () => {
    fake.enqueue({ status: 429, headers: { 'retry-after': '120' } });
    const err = await failure(provider().chat(request()));
    expect(err).toMatchObject({ retryable: true, upstreamStatus: 429 });
    expect(fake.requests).toHaveLength(1);
  });

  it.each([400, 401, 403, 404])('does not retry a %i and reports it as not retryable', async (status) => {
    fake.enqueue({ status, body: { error: { message: `nope ${status}`, type: 'invalid_request_error' } } });
    const err = await failure(provider().chat(request()));
    expect(err).toBeInstanceOf(ProviderError);
    expect(err).toMatchObject({ retryable: false, upstreamStatus: status, code: 'provider_error' });
    expect((err as Error).message).toContain(`nope ${status}`);
    expect(fake.requests).toHaveLength(1);
  });

  it('obeys x-should-retry: false on a 5xx', async () => {
    fake.enqueue({ status: 500, headers: { 'x-should-retry': 'false' } });
    const err = await failure(provider().chat(request()));
    expect(err).toMatchObject({ retryable: false, upstreamStatus: 500 });
    expect(fake.requests).toHaveLength(1);
  });

  it('stops waiting for a retry as soon as the caller aborts, rejecting with the abort reason', async () => {
    fake.enqueue({ status: 429, headers: { 'retry-after': '30' } });
    const controller = new AbortController();
    const call = failure(provider().chat(request({ signal: controller.signal })));
    await fake.waitForRequests(1);
    const reason = new Error('job cancelled');
    controller.abort(reason);
    expect(await call).toBe(reason);
    expect(fake.requests).toHaveLength(1);
  });
});

describe('openai provider: replies that stop short, and servers that differ', () => {
  const raw = (message: Record<string, unknown>, finishReason: string, id = 'chatcmpl-x') => ({
    status: 200,
    body: {
      id,
      object: 'chat.completion',
      created: 0,
      model: 'test-model',
      choices: [{ index: 0, finish_reason: finishReason, message: { role: 'assistant', content: null, refusal: null, ...message } }],
      usage: { prompt_tokens: 5, completion_tokens: 3, total_tokens: 8 },
    },
  });

  it('fails a reply cut by its output limit as retryable model_output_truncated, naming the configured cap', async () => {
    fake.enqueue(raw({ content: '{"language":"j' }, 'length'));
    const err = await failure(provider({ compatibility: { maxOutputTokens: 64 } }).chat(request()));
    expect(err).toBeInstanceOf(ModelStopError);
    expect(err).toMatchObject({ code: 'model_output_truncated', retryable: true });
    expect((err as Error).message).toMatch(/LLM_MAX_OUTPUT_TOKENS=64/);
    expect(fake.requests[0]!.body.max_tokens).toBe(64);
  });

  it('keeps a refusal’s text and a content filter stop as errors of their own, not retried and not an empty reply', async () => {
    fake.enqueue(raw({ refusal: 'I cannot help with that.' }, 'stop'), raw({ content: null }, 'content_filter'));
    const refused = await failure(provider().chat(request()));
    expect(refused).toMatchObject({ code: 'model_refused', retryable: false });
    expect((refused as Error).message).toMatch(/I cannot help with that\./);
    expect(await failure(provider().chat(request()))).toMatchObject({ code: 'model_content_filtered', retryable: false });
    expect(fake.requests).toHaveLength(2);
  });

  it('gives tool calls without a usable id (missing, empty, repeated) ids of their own', async () => {
    const call = (id: string | undefined) => ({
      ...(id === undefined ? {} : { id }),
      type: 'function',
      function: { name: 'set_language', arguments: '{"language":"ja","note":null}' },
    });
    fake.enqueue(raw({ tool_calls: [call(''), call(undefined), call('dup'), call('dup')] }, 'tool_calls', 'chatcmpl-ids'));
    const res = await provider().chat(request());
    const ids = res.toolCalls.map((toolCall) => toolCall.id);
    expect(new Set(ids).size).toBe(4);
    expect(ids.every((id) => id.length > 0)).toBe(true);
    expect(ids[2]).toBe('dup');
  });

  it('retries once with the older half of the conversation left out when the context is too long', async () => {
    fake.enqueue(
      {
        status: 400,
        body: {
          error: {
            message: "This model's maximum context length is 4096 tokens.",
            type: 'invalid_request_error',
            code: 'context_length_exceeded',
            param: 'messages',
          },
        },
      },
      { content: 'はい' },
    );
    const res = await provider().chat(request());
    expect(res.content).toBe('はい');
    const [first, second] = fake.requests.map((entry) => entry.body.messages as Array<{ role: string }>);
    expect(second!.length).toBeLessThan(first!.length);
    expect(second![0]!.role).toBe('system');
    expect(second![1]!.role).toBe('user');
  });

  it('sends what a server accepts: no strict, no tool_choice, parallel tool calls off, a temperature', async () => {
    fake.enqueue({ content: 'ok' });
    await provider({ compatibility: { strictTools: false, toolChoice: 'omit', parallelToolCalls: 'false', temperature: 0.2 } }).chat(
      request(),
    );
    const body = fake.requests[0]!.body;
    expect(body.tool_choice).toBeUndefined();
    expect(body.tools[0].function.strict).toBeUndefined();
    expect(body.parallel_tool_calls).toBe(false);
    expect(body.temperature).toBe(0.2);
    expect(body.max_tokens).toBeUndefined();
  });

  it('reads cached and reasoning tokens from the usage details', async () => {
    const reply = raw({ content: 'ok' }, 'stop');
    (reply.body.usage as Record<string, unknown>) = {
      prompt_tokens: 100,
      completion_tokens: 40,
      total_tokens: 140,
      prompt_tokens_details: { cached_tokens: 64 },
      completion_tokens_details: { reasoning_tokens: 12 },
    };
    fake.enqueue(reply);
    expect((await provider().chat(request())).usage).toEqual({
      promptTokens: 100,
      completionTokens: 40,
      cachedTokens: 64,
      reasoningTokens: 12,
    });
  });

  it('never leaves a shortened history starting with a tool result or without a user message', () => {
    const shortened = shortenHistory(request().messages);
    expect(shortened[0]!.role).toBe('system');
    expect(shortened[1]!.role).toBe('user');
    expect(
      shortened.some(
        (message) =>
          message.role === 'tool' &&
          !shortened.some((other) => other.role === 'assistant' && other.toolCalls.some((toolCall) => toolCall.id === message.toolCallId)),
      ),
    ).toBe(false);
  });
});

describe('openai provider: streaming', () => {
  const ask = (message: string) => ({ name: 'ask', arguments: JSON.stringify({ message }) });

  it('streams by default, reports a tool call’s arguments as they grow, and rebuilds the reply from the chunks', async () => {
    fake.enqueue({
      toolCalls: [{ name: 'set_country', arguments: '{"country":"JP"}' }, ask('東京にお住まいですか？')],
      usage: { prompt_tokens: 30, completion_tokens: 9 },
      stream: { chunkChars: 4 },
    });
    const progress: Array<{ index: number; name: string; arguments: string }> = [];
    const res = await provider().chat(request({ onToolCallProgress: (p) => progress.push({ ...p }) }));
    expect(fake.requests[0]!.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    expect(res.toolCalls).toEqual([
      { id: expect.stringMatching(/^call_\d+_0$/), name: 'set_country', arguments: '{"country":"JP"}' },
      { id: expect.stringMatching(/^call_\d+_1$/), name: 'ask', arguments: '{"message":"東京にお住まいですか？"}' },
    ]);
    expect(res.usage).toMatchObject({ promptTokens: 30, completionTokens: 9 });
    // The ask call's arguments arrived in several growing pieces, each the whole string so far.
    const asks = progress.filter((p) => p.index === 1);
    expect(asks.length).toBeGreaterThan(3);
    expect(asks.every((p, i) => i === 0 || p.arguments.startsWith(asks[i - 1]!.arguments))).toBe(true);
    expect(asks.at(-1)!.arguments).toBe('{"message":"東京にお住まいですか？"}');
  });

  it('rebuilds tool calls from servers that send no index and no ids', async () => {
    fake.enqueue({
      toolCalls: [{ name: 'set_country', arguments: '{"country":"JP"}' }, ask('Tokyo?')],
      ids: [null, ''],
      stream: { omitIndex: true, chunkChars: 5 },
    });
    const res = await provider().chat(request());
    expect(res.toolCalls.map((c) => [c.name, c.arguments])).toEqual([
      ['set_country', '{"country":"JP"}'],
      ['ask', '{"message":"Tokyo?"}'],
    ]);
    expect(new Set(res.toolCalls.map((c) => c.id)).size).toBe(2);
    expect(res.toolCalls.every((c) => c.id.length > 0)).toBe(true);
  });

  it('retries a reply that breaks off halfway, and the progress starts again from nothing', async () => {
    fake.enqueue(
      { toolCalls: [ask('Which country?')], stream: { chunkChars: 3, cutAfter: 4, chunkDelayMs: 5 } },
      { toolCalls: [ask('Which country?')], stream: { chunkChars: 3 } },
    );
    const seen: string[] = [];
    const res = await provider().chat(request({ onToolCallProgress: (p) => seen.push(p.arguments) }));
    expect(res.toolCalls[0]!.arguments).toBe('{"message":"Which country?"}');
    expect(fake.requests).toHaveLength(2);
    const restart = seen.findIndex((text, i) => i > 0 && text.length < seen[i - 1]!.length);
    expect(restart).toBeGreaterThan(0);
  });

  it('finds a length stop and a refusal in a streamed reply too', async () => {
    fake.enqueue(
      { content: '{"language":"j', finishReason: 'length' },
      {
        status: 200,
        body: {
          id: 'r',
          object: 'chat.completion',
          created: 0,
          model: 'm',
          choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: null, refusal: 'Not this.' } }],
        },
      },
    );
    expect(await failure(provider().chat(request()))).toMatchObject({ code: 'model_output_truncated', retryable: true });
    const refused = await failure(provider().chat(request()));
    expect(refused).toMatchObject({ code: 'model_refused' });
    expect((refused as Error).message).toMatch(/Not this\./);
  });

  it('sends no stream when streaming is switched off', async () => {
    fake.enqueue({ content: 'ok' });
    const res = await provider({ compatibility: { stream: false } }).chat(request());
    expect(res.content).toBe('ok');
    expect(fake.requests[0]!.body.stream).toBe(false);
  });
});

describe('message roles every chat template accepts', () => {
  it('starts the conversation with a user message, even on a first call with only the system prompt', async () => {
    expect(
      normaliseRoles([
        { role: 'system', content: 'You greet.' },
        { role: 'system', content: 'State: {}' },
      ]),
    ).toEqual([
      { role: 'system', content: 'You greet.\n\nState: {}' },
      { role: 'user', content: CONVERSATION_START },
    ]);
    const fromAssistant = normaliseRoles([
      { role: 'system', content: 'S' },
      { role: 'assistant', content: 'Hello!', toolCalls: [] },
      { role: 'user', content: 'Hi' },
    ]);
    expect(fromAssistant.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
  });

  it('merges two user messages in a row but never a tool call with its result', () => {
    const messages = normaliseRoles([
      { role: 'system', content: 'S' },
      { role: 'user', content: 'one' },
      { role: 'user', content: 'two' },
      { role: 'assistant', content: null, toolCalls: [{ id: 'a', name: 'ask', arguments: '{}' }] },
      { role: 'tool', toolCallId: 'a', name: 'ask', content: 'ok' },
      { role: 'system', content: 'State' },
    ]);
    expect(messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'system']);
    expect(messages[1]).toEqual({ role: 'user', content: 'one\n\ntwo' });
  });

  it('moves the state into the first system message for templates that accept one there only', async () => {
    fake.enqueue({ content: 'ok' });
    await provider({ compatibility: { statePosition: 'start' } }).chat(
      request({
        messages: [
          { role: 'system', content: 'Rules.' },
          { role: 'user', content: 'hi' },
          { role: 'system', content: 'State: 1' },
        ],
      }),
    );
    expect(fake.requests[0]!.body.messages).toEqual([
      { role: 'system', content: 'Rules.\n\nState: 1' },
      { role: 'user', content: 'hi' },
    ]);
  });
});
