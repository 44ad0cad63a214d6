import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ProviderError } from '../../shared/src/errors.js';
import { toolSpec } from '../../shared/src/llm/json-schema.js';
import { createOpenAiProvider } from '../../shared/src/llm/openai-provider.js';
import type { ChatRequest } from '../../shared/src/llm/types.js';
import { startFakeOpenAi } from '../support/fake-openai-server.js';

let fake: Awaited<ReturnType<typeof startFakeOpenAi>>;
beforeAll(async () => {
  fake = await startFakeOpenAi();
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.requests.length = 0;
});

const provider = (maxRetries = 2) => createOpenAiProvider({ baseUrl: fake.url, apiKey: 'sk-test', timeoutMs: 5_000, maxRetries });
const SetLanguage = z.object({ language: z.string(), note: z.union([z.string(), z.null()]) });

function request(): ChatRequest {
  return {
    agent: 'greeter',
    model: 'test-model',
    context: { ignored: true },
    tools: [toolSpec('set_language', 'Set the language', SetLanguage)],
    messages: [
      { role: 'system', content: 'You are the greeter.' },
      { role: 'user', content: '日本語で' },
      { role: 'assistant', content: null, toolCalls: [{ id: 'call_a', name: 'set_language', arguments: '{"language":"ja","note":null}' }] },
      { role: 'tool', toolCallId: 'call_a', name: 'set_language', content: '{"status":"success","result":{"message":"ok"}}' },
    ],
  };
}

describe('openai provider over HTTP', () => {
  it('sends messages and strict tool schemas, and maps tool calls and usage back', async () => {
    fake.enqueue({ toolCalls: [{ name: 'ask', arguments: '{"message":"どちらの国にお住まいですか？"}' }] });
    const res = await provider().chat(request());
    expect(res.toolCalls).toEqual([{ id: 'call_1_0', name: 'ask', arguments: '{"message":"どちらの国にお住まいですか？"}' }]);
    expect(res.usage).toEqual({ promptTokens: 11, completionTokens: 7 });
    const body = fake.requests[0]!.body;
    expect(body.model).toBe('test-model');
    expect(fake.requests[0]!.headers.authorization).toBe('Bearer sk-test');
    expect(body.messages).toEqual([
      { role: 'system', content: 'You are the greeter.' },
      { role: 'user', content: '日本語で' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_a', type: 'function', function: { name: 'set_language', arguments: '{"language":"ja","note":null}' } }] },
      { role: 'tool', tool_call_id: 'call_a', content: '{"status":"success","result":{"message":"ok"}}' },
    ]);
    expect(body.tools[0]).toMatchObject({
      type: 'function',
      function: {
        name: 'set_language',
        strict: true,
        parameters: { type: 'object', required: ['language', 'note'], additionalProperties: false },
      },
    });
  });

  it('passes malformed tool-call arguments through untouched for the loop to reject', async () => {
    fake.enqueue({ toolCalls: [{ name: 'set_language', arguments: '{"language": ' }] });
    const res = await provider().chat(request());
    expect(res.toolCalls[0]?.arguments).toBe('{"language": ');
  });

  it('retries a 429 and a 500, then succeeds', async () => {
    fake.enqueue(
      { status: 429, headers: { 'retry-after': '0' } },
      { status: 500, headers: { 'retry-after': '0' } },
      { content: 'hello' },
    );
    const res = await provider(2).chat(request());
    expect(res.content).toBe('hello');
    expect(fake.requests).toHaveLength(3);
  });

  it('gives up after maxRetries with a retryable ProviderError', async () => {
    fake.enqueue(...Array.from({ length: 3 }, () => ({ status: 503, headers: { 'retry-after': '0' } })));
    const err = await provider(2).chat(request()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect(err).toMatchObject({ retryable: true, upstreamStatus: 503, code: 'provider_unavailable' });
    expect(fake.requests).toHaveLength(3);
  });

  it('does not retry a 401 and reports it as not retryable', async () => {
    fake.enqueue({ status: 401, body: { error: { message: 'bad key' } } });
    const err = await provider(2).chat(request()).catch((e: unknown) => e);
    expect(err).toMatchObject({ retryable: false, upstreamStatus: 401, code: 'provider_error' });
    expect(fake.requests).toHaveLength(1);
  });
});
