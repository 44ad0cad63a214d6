import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { Api, type Json } from '../support/api.js';
import { startFakeOpenAi, type FakeOpenAi } from '../support/fake-openai.js';
import { startStack, type Stack } from '../support/processes.js';

/**
 * The FAQ dialog with the openai provider against a fake OpenAI server over
 * real HTTP (the LLM planner, its fallback, answer synthesis) and with
 * `mode: "crew"` against a fake crew orchestrator.
 */
let stack: Stack;
let api: Api;
let openai: FakeOpenAi;
let crew: { server: Server; url: string; requests: Json[]; replies: Array<{ status: number; body: unknown }> };

async function startFakeCrew() {
  const requests: Json[] = [];
  const replies: Array<{ status: number; body: unknown }> = [];
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString('utf8')));
    req.on('end', () => {
      requests.push({ path: req.url, body: JSON.parse(raw) as Json });
      const reply = replies.shift() ?? { status: 500, body: { error: 'no scripted reply' } };
      res.writeHead(reply.status, { 'content-type': 'application/json' }).end(JSON.stringify(reply.body));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests, replies };
}

beforeAll(async () => {
  openai = await startFakeOpenAi();
  crew = await startFakeCrew();
  const id = randomUUID().slice(0, 8);
  stack = await startStack({
    env: {
      REDIS_URL: inject('redisUrl'),
      KEY_PREFIX: `faqllm-${id}`,
      QUEUE_PREFIX: `{faqllm-${id}}`,
      LLM_PROVIDER: 'openai',
      OPENAI_BASE_URL: openai.url,
      OPENAI_API_KEY: 'test-key',
      LLM_MAX_RETRIES: '0',
      CREW_URL: crew.url,
    },
    services: ['planner', 'search'],
  });
  api = new Api(stack.url);
});
afterAll(async () => {
  await stack?.stop();
  await openai?.close();
  await new Promise((r) => crew?.server.close(r));
});

const dialog = (body: Json) => api.dialog(body);
const llmOptions = { topK: 8, language: 'ja', useMultiStepPlanner: true, useLlmPlanner: true, mode: 'local', debug: true };

describe('LLM planner', () => {
  it("uses the model's plan (seed JSON) and synthesises the answer from the hits", async () => {
    const seen = openai.requests.length;
    openai.enqueue(
      {
        content: JSON.stringify({
          steps: [
            { id: 'step_search_1', type: 'search', description: 'ギフト配送の条件', query: 'ギフト 配送 条件', topK: 5 },
            { id: 'step_search_2', type: 'search', description: '領収書発行の条件', query: '領収書 発行', topK: 5 },
            { id: 'step_answer_1', type: 'answer', style: 'faq', includeSources: true },
          ],
          needsClarification: false,
          followupQueries: ['ギフト 配送 条件', '領収書 発行'],
          confidence: 'high',
          language: 'ja',
        }),
      },
      { content: 'ギフト配送は別住所へのお届けが可能で、領収書は発送後にマイページからダウンロードできます。' },
    );
    const response = await dialog({ message: 'ギフト配送と領収書発行の条件をまとめて教えて', options: llmOptions });
    expect(response.status, JSON.stringify(response.json)).toBe(200);
    expect(response.json.meta.planner).toMatchObject({ planner: 'llm' });
    expect(response.json.meta.planner.fallback).toBeUndefined();
    expect(response.json.steps.map((s: Json) => s.query)).toEqual(['ギフト 配送 条件', '領収書 発行']);
    expect(response.json.answer).toBe('ギフト配送は別住所へのお届けが可能で、領収書は発送後にマイページからダウンロードできます。');
    expect(response.json.meta.sources.length).toBeGreaterThan(0);
    expect(response.json.meta.multiStepPlan.raw).toMatchObject({ confidence: 'high' });

    const [planReq, synthReq] = openai.requests.slice(seen);
    const planMessages = planReq!.body.messages as Json[];
    expect(planMessages[0]).toMatchObject({ role: 'system' });
    expect(planMessages[0]!.content).toMatch(/FAQ 検索の「プランナー」/);
    expect(planMessages[1]!.content).toMatch(/## 現在のユーザー質問\nギフト配送と領収書発行の条件をまとめて教えて/);
    // The synthesis request carries the hits it may use.
    expect(JSON.stringify(synthReq!.body.messages)).toMatch(/領収書/);
    // Both calls were streamed (the fake answers them chunk by chunk) and rebuilt whole.
    expect([planReq, synthReq].map((req) => req!.body.stream)).toEqual([true, true]);
  });

  it.each([
    ['unparsable JSON', { content: 'Sure! Here is the plan: {"steps": [' }, 'unparsable_json'],
    [
      'a plan that breaks the schema',
      { content: JSON.stringify({ steps: [{ id: 's1', type: 'search' }], needsClarification: false, confidence: 'high' }) },
      'invalid_plan',
    ],
    ['an upstream error', { status: 500, body: { error: { message: 'boom', type: 'server_error' } } }, 'llm_error'],
    ['a reply cut by its output limit', { content: '{"steps": [{"id": "s1", "ty', finishReason: 'length' }, 'llm_error'],
  ])('falls back to the rule-based plan on %s, recorded in meta', async (_name, reply, reason) => {
    openai.enqueue(reply as never, { content: '北海道への送料は800円です。' });
    const response = await dialog({ message: '北海道への送料を教えてください', options: llmOptions });
    expect(response.status, JSON.stringify(response.json)).toBe(200);
    expect(response.json.meta.planner).toMatchObject({ planner: 'rule', fallback: { reason } });
    expect(response.json.steps[0].query).toMatch(/北海道/);
    expect(response.json.answer).toBe('北海道への送料は800円です。');
  });

  it('answers extractively when the synthesis call fails', async () => {
    openai.enqueue({ status: 500, body: { error: { message: 'down', type: 'server_error' } } });
    const response = await dialog({ message: '北海道への送料を教えてください', options: { ...llmOptions, useLlmPlanner: false } });
    expect(response.status).toBe(200);
    expect(response.json.answer).toMatch(/800円/);
    expect(response.json.meta.planner.answer).toMatchObject({ method: 'extractive', fallback: expect.any(String) });
  });
});

describe('crew mode', () => {
  it('sends the seed contract to CREW_URL and runs the plan it returns', async () => {
    crew.replies.push({
      status: 200,
      body: {
        plan: {
          steps: [
            { id: 'step_clarify_1', type: 'clarify', questions: ['ギフト配送と領収書発行のどちらを優先して知りたいですか？'] },
            { id: 'step_search_1', type: 'search', query: 'ギフト配送 条件', topK: 5 },
            { id: 'step_answer_1', type: 'answer', style: 'faq', includeSources: true },
          ],
          needsClarification: true,
          clarifyingQuestions: ['ギフト配送と領収書発行のどちらを優先して知りたいですか？'],
          followupQueries: ['ギフト配送 条件'],
          confidence: 'high',
          language: 'ja',
          raw: { llmRoute: '120b', traceId: 'crew-xyz-123' },
        },
      },
    });
    const first = await dialog({ message: '北海道への送料を教えてください', options: { topK: 8, language: 'ja', mode: 'crew' } });
    const sessionId = first.json.sessionId;
    crew.replies.push({
      status: 200,
      body: {
        plan: { steps: [{ id: 'step_search_1', type: 'search', query: '領収書 発行' }], needsClarification: false, confidence: 'medium' },
      },
    });
    openai.enqueue({ content: '領収書はマイページからダウンロードできます。' });
    const response = await dialog({
      sessionId,
      message: '領収書を優先で',
      options: { topK: 8, language: 'ja', mode: 'crew', debug: true },
    });

    expect(first.status).toBe(200);
    expect(first.json).toMatchObject({
      needsClarification: true,
      clarifyingQuestions: ['ギフト配送と領収書発行のどちらを優先して知りたいですか？'],
      meta: { orchestratorMode: 'crew' },
    });
    expect(response.status, JSON.stringify(response.json)).toBe(200);
    expect(response.json.meta).toMatchObject({ orchestratorMode: 'crew', planner: { planner: 'llm', orchestrator: 'crew' } });
    expect(response.json.answer).toBe('領収書はマイページからダウンロードできます。');
    expect(response.json.meta.multiStepPlan.raw).toBeDefined();

    const sent = crew.requests.at(-1)!;
    expect(sent.path).toBe('/crew/orchestrator/plan');
    expect(sent.body).toMatchObject({
      locale: 'ja',
      planOptions: { topK: 8, language: 'ja' },
      routeContext: { contextTokens: expect.any(Number), complexity: expect.any(String), safetyTag: 'none' },
      debug: true,
    });
    expect(sent.body.conversation).toEqual([
      { role: 'user', content: '北海道への送料を教えてください' },
      { role: 'assistant', content: 'ギフト配送と領収書発行のどちらを優先して知りたいですか？' },
      { role: 'user', content: '領収書を優先で' },
    ]);
  });

  it('falls back to the rule-based planner when the orchestrator fails', async () => {
    crew.replies.push({ status: 503, body: { error: 'overloaded' } });
    openai.enqueue({ content: '本州への送料は500円です。' });
    const response = await dialog({ message: '本州への送料を教えてください', options: { language: 'ja', mode: 'crew' } });
    expect(response.status).toBe(200);
    expect(response.json.meta.planner).toMatchObject({ planner: 'rule', fallback: { reason: 'crew_error' } });
    expect(response.json.answer).toBe('本州への送料は500円です。');
  });
});
