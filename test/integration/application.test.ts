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
  const s = await api.createSession(form, 'application', { language });
  const sse = await SseRecorder.open(api.eventsUrl(s.sessionId, s.token));
  await sse.waitTurns(1);
  return { ...s, sse };
}

async function say(s: S, message: string): Promise<string> {
  const r = await api.turn(s.sessionId, s.token, message);
  expect(r.status).toBe(202);
  const turnId = String(r.json.turnId);
  await s.sse.waitFor((evs) => evs.some((e) => (e.type === 'turn.completed' || e.type === 'turn.failed') && e.data.turnId === turnId), 20_000, `turn "${message}"`);
  const failed = s.sse.events.find((e) => e.type === 'turn.failed' && e.data.turnId === turnId);
  expect(failed, JSON.stringify(failed?.data)).toBeUndefined();
  return String(s.sse.events.filter((e) => e.type === 'message' && e.data.role === 'assistant').at(-1)?.data.text ?? '');
}

/** Seed 001 invariant: every interviewer message is preceded by a passed check of that exact text. */
function assertEveryQuestionChecked(events: ReceivedEvent[]): void {
  const asked = events.filter((e) => e.type === 'message' && e.data.agent === 'interviewer');
  expect(asked.length).toBeGreaterThan(0);
  for (const m of asked) {
    const before = events.filter((e) => e.id < m.id && e.type === 'check');
    expect(before.at(-1)?.data.passed, `check before: ${String(m.data.text).slice(0, 60)}`).toBe(true);
  }
}

async function snapshot(s: S): Promise<Json> {
  return (await api.call('GET', `/v1/sessions/${s.sessionId}`, { token: s.token })).json;
}

describe('job application with compliance', () => {
  it('an English applicant completes a 6-field application; the auditor runs before completion', async () => {
    const s = await open(loadForm('engineer-application-en.json'), 'en');
    const first = await say(s, 'I live in Tokyo, Japan');
    expect(first).toMatch(/full name/i);
    expect((await api.call('POST', `/v1/sessions/${s.sessionId}/submit`, { token: s.token })).status).toBe(409);
    await say(s, 'Jane Doe');
    await say(s, 'jane.doe@example.com');
    await say(s, '7 years');
    const followUp = await say(s, 'I want to build reliable payment systems at scale');
    expect(s.sse.events.filter((e) => e.type === 'review').at(-1)!.data).toMatchObject({ fieldId: 'motivation', passed: false });
    expect(followUp).toMatch(/contribut/i);
    await say(s, 'I can contribute my experience with Kafka and PostgreSQL performance tuning');
    await say(s, 'April 1, 2027');
    const closing = await say(s, 'https://github.com/janedoe');
    await s.sse.waitFor((evs) => evs.some((e) => e.type === 'session.completed'), 5_000, 'session.completed');

    const types = s.sse.events.map((e) => e.type);
    expect(types.indexOf('audit')).toBeGreaterThan(-1);
    expect(types.indexOf('audit')).toBeLessThan(types.indexOf('session.completed'));
    const audit = s.sse.events.find((e) => e.type === 'audit')!.data;
    expect(audit).toMatchObject({ passed: true });
    expect(String(audit.summary)).toMatch(/Jane Doe/);
    expect(s.sse.events.find((e) => e.type === 'session.completed')!.data.audit).toEqual(audit);
    expect(closing).toMatch(/submit/i);
    assertEveryQuestionChecked(s.sse.events);

    const snap = await snapshot(s);
    expect(snap).toMatchObject({
      status: 'awaiting_confirmation',
      audit: { passed: true },
      collectedFields: { full_name: 'Jane Doe', email: 'jane.doe@example.com', experience_years: '7 years', start_date: '2027-04-01' },
    });
    expect(snap.collectedFields.portfolio).toMatch(/github\.com\/janedoe/);
    const submit = await api.call('POST', `/v1/sessions/${s.sessionId}/submit`, { token: s.token });
    expect(submit.status).toBe(200);
    expect(submit.json.audit).toMatchObject({ passed: true });
    s.sse.close();
  });

  it('a Japanese applicant completes the application in Japanese', async () => {
    const s = await open(loadForm('engineer-application-ja.json'), 'ja');
    expect(await say(s, '大阪に住んでいます')).toMatch(/氏名/);
    await say(s, '山田花子');
    await say(s, 'hanako@example.jp');
    await say(s, '5年です');
    expect(await say(s, '決済基盤の信頼性を高める仕事がしたいからです')).toMatch(/貢献/);
    await say(s, 'Goとデータベースの性能改善の経験で貢献できます');
    await say(s, '2027年4月1日');
    await say(s, 'スキップ');
    await s.sse.waitFor((evs) => evs.some((e) => e.type === 'session.completed'), 5_000, 'session.completed');
    assertEveryQuestionChecked(s.sse.events);
    const snap = await snapshot(s);
    expect(snap.audit).toMatchObject({ passed: true });
    expect(snap.collectedFields).toMatchObject({ full_name: '山田花子', email: 'hanako@example.jp', experience_years: '5年', start_date: '2027-04-01' });
    expect(snap.fields.find((f: Json) => f.fieldId === 'portfolio')).toMatchObject({ status: 'skipped' });
    expect((await api.call('POST', `/v1/sessions/${s.sessionId}/submit`, { token: s.token })).status).toBe(200);
    s.sse.close();
  });

  it('never sends a question on a prohibited topic: the field is skipped after its rephrasings fail the check', async () => {
    const form = loadForm('engineer-application-en.json');
    // Asked right after the name, so the interviewer must get past it to reach the email.
    for (const f of form.fields) if (f.sortOrder >= 2) f.sortOrder += 1;
    form.fields.push({ id: 'a9', fieldId: 'marital_status', label: 'Marital status', intent: 'marital status', required: true, sortOrder: 2 });
    form.facts.push({ id: 'b9', formFieldId: 'a9', factKey: 'married', fact: 'Whether the applicant is married', doneCriteria: 'yes or no', questioningHints: null });
    const s = await open(form, 'en');
    await say(s, 'I live in Tokyo');
    const next = await say(s, 'Jane Doe');
    const skipped = s.sse.events.filter((e) => e.type === 'state.changed' && e.data.type === 'FIELD_STATUS').map((e) => e.data.payload as Json);
    expect(skipped).toContainEqual(expect.objectContaining({ fieldId: 'marital_status', status: 'skipped', reason: 'compliance' }));
    const failedChecks = s.sse.events.filter((e) => e.type === 'check' && e.data.passed === false);
    expect(failedChecks).toHaveLength(3); // the question and two rephrasings (CHECK_MAX_REPHRASINGS=2)
    for (const c of failedChecks) expect((c.data.violations as Json[]).map((v) => v.type)).toContain('prohibited_topic');
    const assistant = s.sse.events.filter((e) => e.type === 'message' && e.data.role === 'assistant').map((e) => String(e.data.text));
    for (const text of assistant) expect(text).not.toMatch(/marital|married/i);
    expect(next).toMatch(/email/i);
    assertEveryQuestionChecked(s.sse.events);
    s.sse.close();
  });

  it('masks a prohibited topic the applicant volunteers, stores nothing of it, and the audit warns', async () => {
    const s = await open(loadForm('engineer-application-en.json'), 'en');
    for (const m of ['I live in Tokyo', 'Jane Doe', 'jane@example.com', '4 years']) await say(s, m);
    await say(s, 'I am a devout Christian and go to church every Sunday. I want to build reliable payment systems.');
    await say(s, 'I would contribute strong PostgreSQL tuning skills');
    await say(s, '2027-05-01');
    await say(s, 'skip');
    await s.sse.waitFor((evs) => evs.some((e) => e.type === 'session.completed'), 5_000, 'session.completed');
    const audit = s.sse.events.find((e) => e.type === 'audit')!.data;
    const warnings = (audit.violations as Json[]).filter((v) => v.type === 'prohibited_topic' && v.severity === 'warning');
    expect(warnings.length).toBeGreaterThan(0);
    expect(JSON.stringify(warnings)).toMatch(/religion/i);
    expect(String(audit.summary)).not.toMatch(/christian|church/i);
    const snap = await snapshot(s);
    expect(JSON.stringify(snap.collectedFields)).not.toMatch(/christian|church/i);
    expect(JSON.stringify(snap.messages)).not.toMatch(/christian|church/i);
    expect(snap.collectedFields.motivation).toMatch(/payment systems/);
    const userEvents = s.sse.events.filter((e) => e.type === 'message' && e.data.role === 'user').map((e) => String(e.data.text));
    expect(userEvents.join(' ')).not.toMatch(/christian|church/i);
    s.sse.close();
  });

  // Runs last: it stops the stack's auditor.
  it('refuses submit while every required field is done but the audit has not run; the turn completes once an auditor is back', async () => {
    await stack.procs.auditor!.kill();
    const s = await open(loadForm('engineer-application-en.json'), 'en');
    const answers = [
      'I live in Tokyo',
      'Jane Doe',
      'jane@example.com',
      '4 years',
      'I want to build reliable payment systems at scale',
      'I can contribute my experience with Kafka and PostgreSQL performance tuning',
      'April 1, 2027',
    ];
    for (const m of answers) await say(s, m);
    const last = await api.turn(s.sessionId, s.token, 'skip');
    expect(last.status).toBe(202);
    // The turn waits in the auditor's queue; nothing holds the interviewer or reviewer meanwhile.
    await s.sse.waitFor((evs) => evs.some((e) => e.type === 'agent.changed' && e.data.to === 'auditor'), 10_000, 'hand-over to the auditor');
    const waiting = await snapshot(s);
    expect(waiting.fields.filter((f: Json) => f.required).map((f: Json) => f.status)).toEqual(['done', 'done', 'done', 'done', 'done']);
    expect(waiting.audit).toBeNull();
    const refused = await api.call('POST', `/v1/sessions/${s.sessionId}/submit`, { token: s.token });
    expect(refused.status).toBe(409);
    expect(refused.json.error).toMatchObject({ code: 'not_ready' });
    expect(s.sse.events.some((e) => e.type === 'audit' || e.type === 'session.completed')).toBe(false);

    extra.push(await startService('auditor', env));
    await s.sse.waitFor((evs) => evs.some((e) => e.type === 'turn.completed' && e.data.turnId === last.json.turnId), 20_000, 'turn after the auditor returned');
    expect(s.sse.events.map((e) => e.type)).toContain('session.completed');
    expect((await api.call('POST', `/v1/sessions/${s.sessionId}/submit`, { token: s.token })).status).toBe(200);
    s.sse.close();
  });
});
