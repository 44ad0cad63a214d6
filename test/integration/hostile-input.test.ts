import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { Api, loadForm, type Json } from '../support/api.js';
import { startStack, type Stack } from '../support/processes.js';
import { SseRecorder } from '../support/sse.js';

/**
 * The probes of issue 31 that need the agents, on a stack of its own (the
 * test reads the workers' logs): the worst text of each character class, at
 * the size limits, through every text path. No request stalls the gateway
 * (its /healthz keeps answering while each is processed), a worker keeps
 * serving other sessions while one session sends them, and no job loses its
 * lock to its own CPU work. Bounds on time are generous (a loaded 2-core
 * machine) and catch stalls of seconds, which is what these inputs caused;
 * the measured figures are printed.
 */
const WRITE_KEY = `hostile-writer-${randomUUID()}`;
let stack: Stack;
let api: Api;

beforeAll(async () => {
  const id = randomUUID().slice(0, 8);
  stack = await startStack({
    env: {
      REDIS_URL: inject('redisUrl'),
      KEY_PREFIX: `hostile-${id}`,
      QUEUE_PREFIX: `{hostile-${id}}`,
      FAQ_WRITE_KEY: WRITE_KEY,
      RATE_LIMIT_MAX: '0',
      CLIENT_MAX_STREAMS: '0',
    },
    services: ['greeter', 'architect', 'interviewer', 'reviewer', 'planner', 'search', 'workbench'],
  });
  api = new Api(stack.url);
});
afterAll(async () => {
  await stack?.stop();
});

/** The worst inputs: long runs of one class of character, and alternations, at the message limit. */
const CLASSES: Array<[string, string]> = [
  ['digits', '0'.repeat(8000)],
  ['katakana long mark', 'ー'.repeat(8000)],
  ['katakana', 'ア'.repeat(8000)],
  ['kanji', '漢'.repeat(8000)],
  ['hiragana', 'あ'.repeat(8000)],
  ['latin', 'a'.repeat(8000)],
  ['spaces', `x${' '.repeat(7998)}x`],
  ['dots', '.…'.repeat(4000)],
  ['commas', ','.repeat(8000)],
  ['marks', '!?'.repeat(4000)],
  ['ideographic full stops', '。'.repeat(8000)],
  ['digits and letters', '1a'.repeat(4000)],
  ['katakana and digits', 'ア1'.repeat(4000)],
  ['brackets', '('.repeat(8000)],
  ['decimals', '0.'.repeat(4000)],
];

/**
 * Polls /healthz every few milliseconds while `work` runs and resolves with
 * the slowest answer: a gateway whose event loop is held answers late.
 */
async function slowestHealthzDuring(work: () => Promise<unknown>): Promise<number> {
  let slowest = 0;
  let done = false;
  const poll = (async () => {
    while (!done) {
      const started = performance.now();
      await fetch(`${api.base}/healthz`).then((res) => res.arrayBuffer());
      slowest = Math.max(slowest, performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  })();
  try {
    await work();
  } finally {
    done = true;
    await poll;
  }
  return slowest;
}

async function worksheet(): Promise<Json> {
  const created = await api.call('POST', '/api/worksheets', { body: { subject: '算数', difficulty: 'normal', language: 'ja' } });
  expect(created.status, JSON.stringify(created.json)).toBe(201);
  return created.json;
}

describe('no request stalls the gateway', () => {
  it('answers /healthz promptly while it handles each worst request of up to 1 MB, on every text route', { timeout: 300_000 }, async () => {
    const sheet = await worksheet();
    const problem = sheet.problems[0];
    const token = sheet.editToken as string;
    const session = await api.createSession(loadForm('event-registration-ja.json'));
    const megabyte = 'ア'.repeat(340_000); // about 1 MB of UTF-8
    const csv = `id,question,answer\n${Array.from({ length: 60 }, (_, i) => `kata-${i},${'カ'.repeat(2000)},${'ー'.repeat(6000)}`).join('\n')}\n`;
    const requests: Array<[string, () => Promise<{ status: number }>]> = [
      [
        'check-consistency, a prompt of 4,000 zeros',
        () =>
          api.call('POST', `/api/problems/${problem.id}/check-consistency`, {
            token,
            body: { updatedField: 'prompt', newValue: '0'.repeat(4000) },
          }),
      ],
      [
        'check-consistency, 16,000 zeros (over the limit)',
        () =>
          api.call('POST', `/api/problems/${problem.id}/check-consistency`, {
            token,
            body: { updatedField: 'prompt', newValue: '0'.repeat(16_000) },
          }),
      ],
      [
        'check-consistency, an explanation of 4,000 漢',
        () =>
          api.call('POST', `/api/problems/${problem.id}/check-consistency`, {
            token,
            body: { updatedField: 'explanation', newValue: '漢'.repeat(4000) },
          }),
      ],
      [
        'PATCH, 1 MB of katakana',
        () =>
          api.call('PATCH', `/api/problems/${problem.id}`, { token, body: { field: 'prompt', value: megabyte, version: problem.version } }),
      ],
      ['a turn of 8,000 ー', () => api.turn(session.sessionId, session.token, 'ー'.repeat(8000))],
      ['/agent.search, 2,000 ア', () => api.call('POST', '/agent.search', { body: { query: 'ア'.repeat(2000) } })],
      ['/agent.dialog, 8,000 ア', () => api.call('POST', '/agent.dialog', { body: { message: 'ア'.repeat(8000) } })],
      [
        'a session with a 1 MB form',
        () =>
          api.call('POST', '/v1/sessions', {
            body: { kind: 'form', form: { ...loadForm('event-registration-en.json'), title: megabyte } },
          }),
      ],
      [
        'a corpus upload of long katakana runs',
        () => api.call('POST', '/faq/documents', { token: WRITE_KEY, rawBody: csv, headers: { 'content-type': 'text/csv' } }),
      ],
      ['validate', () => api.call('POST', `/api/worksheets/${sheet.worksheetId}/validate`, { token })],
      ['PDF', () => api.call('GET', `/api/worksheets/${sheet.worksheetId}/pdf?sheet=answers`, { token })],
    ];
    const measured: string[] = [];
    for (const [what, request] of requests) {
      let status = 0;
      const slowest = await slowestHealthzDuring(async () => (status = (await request()).status));
      measured.push(`${what}: ${status}, slowest /healthz ${Math.round(slowest)} ms`);
      expect(status, what).not.toBe(500);
      expect(slowest, `${what}: /healthz took ${Math.round(slowest)} ms`).toBeLessThan(1_000);
    }
    console.log(`[hostile input] the gateway while it handles each request:\n  ${measured.join('\n  ')}`);
  });
});

describe('one session cannot stall a worker for others', () => {
  it(
    'while one session sends the worst text of every class, another session’s turns complete, and no job loses its lock',
    { timeout: 600_000 },
    async () => {
      const open = async () => {
        const session = await api.createSession(loadForm('event-registration-en.json'), 'form', { language: 'en' });
        const sse = await SseRecorder.open(api.eventsUrl(session.sessionId, session.token));
        await sse.waitTurns(1, 60_000);
        return { ...session, sse };
      };
      const [hostile, normal] = await Promise.all([open(), open()]);
      const ended = (sse: SseRecorder, turnId: string) =>
        sse.waitFor(
          (events) => events.some((e) => (e.type === 'turn.completed' || e.type === 'turn.failed') && e.data.turnId === turnId),
          120_000,
          `turn ${turnId}`,
        );

      const normalTurns: number[] = [];
      let hostileDone = false;
      const hostileRun = (async () => {
        for (const [, text] of CLASSES) {
          const posted = await api.turn(hostile.sessionId, hostile.token, text);
          expect(posted.status).toBe(202);
          await ended(hostile.sse, String(posted.json.turnId));
        }
        hostileDone = true;
      })();
      const answers = [
        'I live in Tokyo, Japan',
        'Jane Doe',
        'jane@example.com',
        '2',
        'I want to learn about queues',
        'I am a backend engineer',
        'skip',
      ];
      for (let i = 0; !hostileDone || i < 3; i++) {
        const started = performance.now();
        const posted = await api.turn(normal.sessionId, normal.token, answers[i % answers.length]!);
        expect(posted.status).toBe(202);
        const events = await ended(normal.sse, String(posted.json.turnId));
        expect(
          events.find(
            (e) =>
              e.data.turnId === posted.json.turnId && e.type.startsWith('turn.') && e.type !== 'turn.started' && e.type !== 'turn.queued',
          )?.type,
        ).toBe('turn.completed');
        normalTurns.push(Math.round(performance.now() - started));
        if (i > 60) break;
      }
      await hostileRun;

      // Each hostile turn ended: completed, or failed as too complex — never hung, never failed another way.
      const failures = hostile.sse.events.filter((e) => e.type === 'turn.failed').map((e) => (e.data.error as Json).code);
      expect(failures.filter((code) => code !== 'input_too_complex')).toEqual([]);
      console.log(
        `[hostile input] ${CLASSES.length} worst turns in one session (${failures.length} refused as too complex); the other session's turns took ${normalTurns.join(', ')} ms`,
      );
      expect(Math.max(...normalTurns)).toBeLessThan(20_000);

      const lost = Object.values(stack.procs).flatMap((proc) =>
        proc.lines.filter((line) => /Missing lock|could not renew lock|job stalled/i.test(line)).map((line) => `${proc.name}: ${line}`),
      );
      expect(lost).toEqual([]);
      hostile.sse.close();
      normal.sse.close();
    },
  );
});
