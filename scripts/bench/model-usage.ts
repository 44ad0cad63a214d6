import { Redis } from 'ioredis';
import { Api, loadForm, type Json } from '../../test/support/api.js';
import { startFakeOpenAi } from '../../test/support/fake-openai.js';
import { interviewModel } from '../../test/support/interview-model.js';
import { SseRecorder } from '../../test/support/sse.js';
import { row, startBenchStack, type SectionResult } from './common.js';
import { dropPrefixes } from './redis-info.js';

const AGENTS = ['greeter', 'architect', 'interviewer', 'reviewer'];
const ANSWERS = [
  'Taro Yamada',
  'taro@example.com',
  'No dietary requirements',
  '2',
  'I want to learn how teams run Redis streams in production',
];

/**
 * (d) What an answered question costs a remote model: the five-field event
 * registration through the stack with `LLM_PROVIDER=openai` against the fake
 * OpenAI-compatible server, whose model reads the agents' prompts
 * (test/support/interview-model.ts) and counts tokens as a server with
 * prefix caching does (a token per 4 characters of tools and messages;
 * cached: the start a prompt shares with the same model's previous one, in
 * blocks of 128 once it has 1,024). Model calls, prompt, cached and uncached
 * tokens per answered question, and when its question's first text reached
 * the client (first delta) against its whole message.
 */
export async function modelUsage(redisUrl: string): Promise<SectionResult> {
  const fake = await startFakeOpenAi({ estimateUsage: true });
  fake.respondWith(interviewModel({ chunkChars: 6, chunkDelayMs: 5 }));
  const { stack, keyPrefix, queuePrefix } = await startBenchStack(
    redisUrl,
    'usage',
    {
      LLM_PROVIDER: 'openai',
      OPENAI_BASE_URL: fake.url,
      OPENAI_API_KEY: 'sk-bench',
      ...Object.fromEntries(AGENTS.map((agent) => [`${agent.toUpperCase()}_MODEL`, agent])),
    },
    AGENTS,
  );
  try {
    const api = new Api(stack.url);
    const session = await api.createSession(loadForm('event-registration-en.json'));
    const sse = await SseRecorder.open(api.eventsUrl(session.sessionId, session.token));
    await sse.waitTurns(1);
    await api.turn(session.sessionId, session.token, 'English please. I live in Tokyo, Japan.');
    await sse.waitTurns(2);
    const perAnswer: Array<{ usage: Json; firstTextMs: number | null; messageMs: number }> = [];
    for (const [i, answer] of ANSWERS.entries()) {
      const sent = Date.now();
      const liveBefore = sse.live.length;
      let firstText: number | null = null;
      const watch = setInterval(() => {
        if (firstText === null && sse.live.length > liveBefore) firstText = Date.now();
      }, 1);
      await api.turn(session.sessionId, session.token, answer);
      const events = await sse.waitTurns(3 + i);
      clearInterval(watch);
      const usage = events.filter((e) => e.type === 'turn.completed').at(-1)!.data.usage as Json;
      perAnswer.push({ usage, firstTextMs: firstText === null ? null : firstText - sent, messageMs: Date.now() - sent });
    }
    sse.close();
    const sum = (key: string) => perAnswer.reduce((total, entry) => total + Number(entry.usage[key] ?? 0), 0);
    const n = perAnswer.length;
    const calls = sum('modelCalls') / n;
    const prompt = sum('promptTokens') / n;
    const cached = sum('cachedTokens') / n;
    const streamed = perAnswer.filter((entry) => entry.firstTextMs !== null);
    return {
      rows: [
        row('(d) model calls per answered question', calls.toFixed(1)),
        row('(d) prompt tokens per answered question', prompt.toFixed(0)),
        row(
          '(d) of them cached / uncached',
          `${cached.toFixed(0)} / ${(prompt - cached).toFixed(0)} (${((100 * cached) / prompt).toFixed(0)} % cached)`,
        ),
        row('(d) answered questions whose next question streamed', `${streamed.length}/${n}`),
      ],
      details: perAnswer.map(
        (entry, i) =>
          `answer ${i + 1}: ${entry.usage.modelCalls} calls, ${entry.usage.promptTokens} prompt tokens (${entry.usage.cachedTokens} cached); first text of the next question after ${entry.firstTextMs ?? '—'} ms, whole turn ${entry.messageMs} ms`,
      ),
    };
  } finally {
    await stack.stop();
    await fake.close();
    const redis = new Redis(redisUrl);
    await dropPrefixes(redis, [keyPrefix, queuePrefix]).catch(() => undefined);
    redis.disconnect();
  }
}
