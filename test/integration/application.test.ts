import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { Api, loadForm, type Json } from '../support/api.js';
import { startService, startStack, type ServiceProcess, type Stack } from '../support/processes.js';
import { SseRecorder, type ReceivedEvent } from '../support/sse.js';

/**
 * Job applications (seed 001) through HTTP + SSE with every agent a separate
 * process: the checker vets every question, the auditor always runs at the
 * end, prohibited topics are never asked and never stored.
 */
let stack: Stack;
let api: Api;
let env: Record<string, string>;
const extra: ServiceProcess[] = [];

beforeAll(async () => {
  const id = randomUUID().slice(0, 8);
  env = { REDIS_URL: inject('redisUrl'), KEY_PREFIX: `app-${id}`, QUEUE_PREFIX: `{app-${id}}` };
  stack = await startStack({
    env,
    services: ['greeter', 'architect', 'interviewer', 'reviewer', 'checker', 'auditor'],
  });
  api = new Api(stack.url);
});
afterAll(async () => {
  await Promise.all(extra.map((p) => p.kill()));
  await stack?.stop();
});

type S = { sessionId: string; token: string; sse: SseRecorder };

async function open(form: Json, language: 'en' | 'ja'): Promise<S> {
  const session = await api.createSession(form, 'application', { language });
  const sse = await SseRecorder.open(api.eventsUrl(session.sessionId, session.token));
  await sse.waitTurns(1);
  return { ...session, sse };
}

async function say(session: S, message: string): Promise<string> {
  const response = await api.turn(session.sessionId, session.token, message);
  expect(response.status).toBe(202);
  const turnId = String(response.json.turnId);
  await session.sse.waitFor(
    (evs) => evs.some((e) => (e.type === 'turn.completed' || e.type === 'turn.failed') && e.data.turnId === turnId),
    20_000,
    `turn "${message}"`,
  );
  const failed = session.sse.events.find((e) => e.type === 'turn.failed' && e.data.turnId === turnId);
  expect(failed, JSON.stringify(failed?.data)).toBeUndefined();
  return String(session.sse.events.filter((e) => e.type === 'message' && e.data.role === 'assistant').at(-1)?.data.text ?? '');
}

/** Seed 001 invariant: every interviewer message is preceded by a passed check of that exact text. */
function assertEveryQuestionChecked(events: ReceivedEvent[]): void {
  const asked = events.filter((e) => e.type === 'message' && e.data.agent === 'interviewer');
  expect(asked.length).toBeGreaterThan(0);
  for (const message of asked) {
    const before = events.filter((e) => e.id < message.id && e.type === 'check');
    expect(before.at(-1)?.data.passed, `check before: ${String(message.data.text).slice(0, 60)}`).toBe(true);
  }
}

async function snapshot(session: S): Promise<Json> {
  return (await api.call('GET', `/v1/sessions/${session.sessionId}`, { token: session.token })).json;
}

describe('job application with compliance', () => {
  it('an English applicant completes a 6-field application; the auditor runs before completion', async () => {
    const session = await open(loadForm('engineer-application-en.json'), 'en');
    const first = await say(session, 'I live in Tokyo, Japan');
    expect(first).toMatch(/full name/i);
    expect((await api.call('POST', `/v1/sessions/${session.sessionId}/submit`, { token: session.token })).status).toBe(409);
    await say(session, 'Jane Doe');
    await say(session, 'jane.doe@example.com');
    await say(session, '7 years');
    const followUp = await say(session, 'I want to build reliable payment systems at scale');
    expect(session.sse.events.filter((e) => e.type === 'review').at(-1)!.data).toMatchObject({ fieldId: 'motivation', passed: false });
    expect(followUp).toMatch(/contribut/i);
    await say(session, 'I can contribute my experience with Kafka and PostgreSQL performance tuning');
    await say(session, 'April 1, 2027');
    const closing = await say(session, 'https://github.com/janedoe');
    await session.sse.waitFor((evs) => evs.some((e) => e.type === 'session.completed'), 5_000, 'session.completed');

    const types = session.sse.events.map((e) => e.type);
    expect(types.indexOf('audit')).toBeGreaterThan(-1);
    expect(types.indexOf('audit')).toBeLessThan(types.indexOf('session.completed'));
    const audit = session.sse.events.find((e) => e.type === 'audit')!.data;
    expect(audit).toMatchObject({ passed: true });
    expect(String(audit.summary)).toMatch(/Jane Doe/);
    expect(session.sse.events.find((e) => e.type === 'session.completed')!.data.audit).toEqual(audit);
    expect(closing).toMatch(/submit/i);
    assertEveryQuestionChecked(session.sse.events);

    const snap = await snapshot(session);
    expect(snap).toMatchObject({
      status: 'awaiting_confirmation',
      audit: { passed: true },
      collectedFields: { full_name: 'Jane Doe', email: 'jane.doe@example.com', experience_years: '7 years', start_date: '2027-04-01' },
    });
    expect(snap.collectedFields.portfolio).toMatch(/github\.com\/janedoe/);
    const submit = await api.call('POST', `/v1/sessions/${session.sessionId}/submit`, { token: session.token });
    expect(submit.status).toBe(200);
    expect(submit.json.audit).toMatchObject({ passed: true });
    session.sse.close();
  });

  it('a Japanese applicant completes the application in Japanese', async () => {
    const session = await open(loadForm('engineer-application-ja.json'), 'ja');
    expect(await say(session, '大阪に住んでいます')).toMatch(/氏名/);
    await say(session, '山田花子');
    await say(session, 'hanako@example.jp');
    await say(session, '5年です');
    expect(await say(session, '決済基盤の信頼性を高める仕事がしたいからです')).toMatch(/貢献/);
    await say(session, 'Goとデータベースの性能改善の経験で貢献できます');
    await say(session, '2027年4月1日');
    await say(session, 'スキップ');
    await session.sse.waitFor((evs) => evs.some((e) => e.type === 'session.completed'), 5_000, 'session.completed');
    assertEveryQuestionChecked(session.sse.events);
    const snap = await snapshot(session);
    expect(snap.audit).toMatchObject({ passed: true });
    expect(snap.collectedFields).toMatchObject({
      full_name: '山田花子',
      email: 'hanako@example.jp',
      experience_years: '5年',
      start_date: '2027-04-01',
    });
    expect(snap.fields.find((f: Json) => f.fieldId === 'portfolio')).toMatchObject({ status: 'skipped' });
    expect((await api.call('POST', `/v1/sessions/${session.sessionId}/submit`, { token: session.token })).status).toBe(200);
    session.sse.close();
  });

  it('never sends a question on a prohibited topic: the field is skipped after its rephrasings fail the check', async () => {
    const form = loadForm('engineer-application-en.json');
    // Asked right after the name, so the interviewer must get past it to reach the email.
    for (const f of form.fields) if (f.sortOrder >= 2) f.sortOrder += 1;
    form.fields.push({
      id: 'a9',
      fieldId: 'marital_status',
      label: 'Marital status',
      intent: 'marital status',
      required: true,
      sortOrder: 2,
    });
    form.facts.push({
      id: 'b9',
      formFieldId: 'a9',
      factKey: 'married',
      fact: 'Whether the applicant is married',
      doneCriteria: 'yes or no',
      questioningHints: null,
    });
    const session = await open(form, 'en');
    await say(session, 'I live in Tokyo');
    const next = await say(session, 'Jane Doe');
    const skipped = session.sse.events
      .filter((e) => e.type === 'state.changed' && e.data.type === 'FIELD_STATUS')
      .map((e) => e.data.payload as Json);
    expect(skipped).toContainEqual(expect.objectContaining({ fieldId: 'marital_status', status: 'skipped', reason: 'compliance' }));
    const failedChecks = session.sse.events.filter((e) => e.type === 'check' && e.data.passed === false);
    expect(failedChecks).toHaveLength(3); // the question and two rephrasings (CHECK_MAX_REPHRASINGS=2)
    for (const c of failedChecks) expect((c.data.violations as Json[]).map((v) => v.type)).toContain('prohibited_topic');
    const assistant = session.sse.events.filter((e) => e.type === 'message' && e.data.role === 'assistant').map((e) => String(e.data.text));
    for (const text of assistant) expect(text).not.toMatch(/marital|married/i);
    expect(next).toMatch(/email/i);
    assertEveryQuestionChecked(session.sse.events);
    session.sse.close();
  });

  it('masks a prohibited topic the applicant volunteers, stores nothing of it, and the audit warns', async () => {
    const session = await open(loadForm('engineer-application-en.json'), 'en');
    for (const m of ['I live in Tokyo', 'Jane Doe', 'jane@example.com', '4 years']) await say(session, m);
    await say(session, 'I am a devout Christian and go to church every Sunday. I want to build reliable payment systems.');
    await say(session, 'I would contribute strong PostgreSQL tuning skills');
    await say(session, '2027-05-01');
    await say(session, 'skip');
    await session.sse.waitFor((evs) => evs.some((e) => e.type === 'session.completed'), 5_000, 'session.completed');
    const audit = session.sse.events.find((e) => e.type === 'audit')!.data;
    const warnings = (audit.violations as Json[]).filter((v) => v.type === 'prohibited_topic' && v.severity === 'warning');
    expect(warnings.length).toBeGreaterThan(0);
    expect(JSON.stringify(warnings)).toMatch(/religion/i);
    expect(String(audit.summary)).not.toMatch(/christian|church/i);
    const snap = await snapshot(session);
    expect(JSON.stringify(snap.collectedFields)).not.toMatch(/christian|church/i);
    expect(JSON.stringify(snap.messages)).not.toMatch(/christian|church/i);
    expect(snap.collectedFields.motivation).toMatch(/payment systems/);
    const userEvents = session.sse.events.filter((e) => e.type === 'message' && e.data.role === 'user').map((e) => String(e.data.text));
    expect(userEvents.join(' ')).not.toMatch(/christian|church/i);
    session.sse.close();
  });

  // Runs last: it stops the stack's auditor.
  it('refuses submit while every required field is done but the audit has not run; the turn completes once an auditor is back', async () => {
    await stack.procs.auditor!.kill();
    const session = await open(loadForm('engineer-application-en.json'), 'en');
    const answers = [
      'I live in Tokyo',
      'Jane Doe',
      'jane@example.com',
      '4 years',
      'I want to build reliable payment systems at scale',
      'I can contribute my experience with Kafka and PostgreSQL performance tuning',
      'April 1, 2027',
    ];
    for (const m of answers) await say(session, m);
    const last = await api.turn(session.sessionId, session.token, 'skip');
    expect(last.status).toBe(202);
    // The turn waits in the auditor's queue; nothing holds the interviewer or reviewer meanwhile.
    await session.sse.waitFor(
      (evs) => evs.some((e) => e.type === 'agent.changed' && e.data.to === 'auditor'),
      10_000,
      'hand-over to the auditor',
    );
    const waiting = await snapshot(session);
    expect(waiting.fields.filter((f: Json) => f.required).map((f: Json) => f.status)).toEqual(['done', 'done', 'done', 'done', 'done']);
    expect(waiting.audit).toBeNull();
    const refused = await api.call('POST', `/v1/sessions/${session.sessionId}/submit`, { token: session.token });
    expect(refused.status).toBe(409);
    expect(refused.json.error).toMatchObject({ code: 'not_ready' });
    expect(session.sse.events.some((e) => e.type === 'audit' || e.type === 'session.completed')).toBe(false);

    extra.push(await startService('auditor', env));
    await session.sse.waitFor(
      (evs) => evs.some((e) => e.type === 'turn.completed' && e.data.turnId === last.json.turnId),
      20_000,
      'turn after the auditor returned',
    );
    expect(session.sse.events.map((e) => e.type)).toContain('session.completed');
    expect((await api.call('POST', `/v1/sessions/${session.sessionId}/submit`, { token: session.token })).status).toBe(200);
    session.sse.close();
  });
});
