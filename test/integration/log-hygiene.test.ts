import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { Api, loadForm } from '../support/api.js';
import { startStack, type Stack } from '../support/processes.js';
import { SseRecorder } from '../support/sse.js';

/**
 * What reaches the logs, at the most verbose level: an application where the
 * applicant gives a name and volunteers a prohibited topic, over the token
 * query parameter of EventSource. No message text, no token, nothing of the
 * volunteered information appears in any service's output.
 */
let stack: Stack;
let api: Api;

beforeAll(async () => {
  const id = randomUUID().slice(0, 8);
  stack = await startStack({
    env: { REDIS_URL: inject('redisUrl'), KEY_PREFIX: `logs-${id}`, QUEUE_PREFIX: `{logs-${id}}`, LOG_LEVEL: 'trace' },
    services: ['greeter', 'architect', 'interviewer', 'reviewer', 'checker', 'auditor'],
  });
  api = new Api(stack.url);
});
afterAll(async () => {
  await stack?.stop();
});

describe('logs', () => {
  it('hold no message text, token or volunteered prohibited information, even at trace level', async () => {
    const session = await api.createSession(loadForm('engineer-application-en.json'), 'application', { language: 'en' });
    const sse = await SseRecorder.open(api.eventsUrl(session.sessionId, session.token));
    await sse.waitTurns(1);
    const say = async (message: string, turns: number) => {
      expect((await api.turn(session.sessionId, session.token, message)).status).toBe(202);
      await sse.waitTurns(turns, 20_000);
    };
    await say('I live in Tokyo', 2);
    await say('Quillon Abernathy-Vasquez', 3);
    await say('quillon.av@example.com', 4);
    await say('4 years', 5);
    await say('I am a devout Zoroastrian and pray at the fire temple every morning. I want to build reliable payment systems.', 6);
    sse.close();
    const logs = Object.values(stack.procs)
      .flatMap((proc) => proc.lines)
      .join('\n');
    expect(logs.length).toBeGreaterThan(1000);
    for (const secret of ['Quillon', 'Abernathy', 'quillon.av', 'Zoroastrian', 'fire temple', 'payment systems', session.token]) {
      expect(logs.includes(secret), `"${secret}" in the logs`).toBe(false);
    }
    // The question texts the agents wrote are not logged either.
    const asked = sse.events.filter((e) => e.type === 'message' && e.data.role === 'assistant').map((e) => String(e.data.text));
    for (const question of asked) expect(logs.includes(question.slice(0, 40)), question.slice(0, 40)).toBe(false);
  });

  it('log every event stream when it opens and when it closes, with its session and how long it was open', async () => {
    const session = await api.createSession(loadForm('engineer-application-en.json'), 'application', { language: 'en' });
    const sse = await SseRecorder.open(api.eventsUrl(session.sessionId, session.token));
    await sse.waitTurns(1);
    sse.close();
    const gateway = stack.procs.gateway!;
    const opened = await gateway.waitForLine(
      (line) => line.json?.msg === 'stream opened' && line.json.sessionId === session.sessionId,
      10_000,
    );
    const closed = await gateway.waitForLine(
      (line) => line.json?.msg === 'stream closed' && line.json.sessionId === session.sessionId,
      10_000,
    );
    expect(opened.json).toMatchObject({ route: 'events' });
    expect(closed.json?.durationMs).toBeGreaterThanOrEqual(0);
    // The stream's access line has its URL, without the token.
    expect(opened.raw).toContain(`/v1/sessions/${session.sessionId}/events?token=redacted`);
    expect(opened.raw).not.toContain(session.token);
  });
});
