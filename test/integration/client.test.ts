import {
  createClient,
  ProblemConflictError,
  type ConvoClient,
  type CreateSessionInput,
  type EventStream,
  type StreamEvent,
} from '@convo/client';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadForm } from '../support/api.js';
import { sharedStack } from '../support/shared-stack.js';

/**
 * @convo/client against the real system: the gateway and the agents as
 * separate processes on a real Redis (offline model), over real HTTP and SSE.
 */
let client: ConvoClient;

beforeAll(async () => {
  const stack = await sharedStack({ services: ['greeter', 'architect', 'interviewer', 'reviewer', 'planner', 'search', 'workbench'] });
  client = createClient({ baseUrl: stack.url });
});

/** Reads `events` until `done` says so; the stream stays open for more. */
async function readUntil(
  events: AsyncIterator<StreamEvent>,
  into: StreamEvent[],
  done: (ev: StreamEvent) => boolean,
): Promise<StreamEvent> {
  for (;;) {
    const next = await events.next();
    if (next.done) throw new Error(`the stream ended before the awaited event (after ${into.map((e) => `${e.id}:${e.type}`).join(' ')})`);
    into.push(next.value);
    if (done(next.value)) return next.value;
  }
}

const ended = (turnId: string) => (ev: StreamEvent) => ev.type === 'turn.completed' && ev.data.turnId === turnId;
const lastQuestion = (events: StreamEvent[]) => events.filter((e) => e.type === 'message' && e.data.role === 'assistant').at(-1);

describe('@convo/client against the platform', { timeout: 60_000 }, () => {
  it('follows a form interview, resumes a dropped stream after lastEventId with no event twice or missing, and reads the snapshot', async () => {
    const created = await client.sessions.create({
      kind: 'form',
      form: loadForm('event-registration-en.json') as CreateSessionInput['form'],
      options: { language: 'en' },
    });
    expect(created.eventsUrl).toBe(`/v1/sessions/${created.sessionId}/events`);
    const session = client.withToken(created.token);
    const received: StreamEvent[] = [];

    // First connection: the greeting, then the first answer and the first field's question.
    const first: EventStream = session.sessions.events(created.sessionId, { signal: AbortSignal.timeout(30_000) });
    const events = first[Symbol.asyncIterator]();
    const greeting = await readUntil(events, received, (ev) => ev.type === 'turn.completed');
    expect(received.map((e) => e.type)).toEqual(['turn.started', 'message', 'turn.completed']);
    expect(greeting.id).toBe(3);
    const country = await session.sessions.postTurn(created.sessionId, { message: 'I live in Tokyo, Japan' });
    expect(country.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    await readUntil(events, received, ended(country.turnId));
    const question = lastQuestion(received);
    expect(question?.type === 'message' && question.data.text).toMatch(/full name/i);

    // The connection drops; an answer is posted meanwhile; a new stream resumes after the last event read.
    await events.return?.();
    const resumeFrom = first.lastEventId;
    expect(resumeFrom).toBe(received.at(-1)?.id);
    const answer = await session.sessions.postTurn(created.sessionId, { message: 'Jane Doe' });
    // Posting the same key again is the same turn, not a second one.
    await expect(
      session.sessions.postTurn(created.sessionId, { message: 'Jane Doe', idempotencyKey: answer.idempotencyKey }),
    ).resolves.toMatchObject({ turnId: answer.turnId });
    const resumed = session.sessions.events(created.sessionId, { lastEventId: resumeFrom, signal: AbortSignal.timeout(30_000) });
    const after: StreamEvent[] = [];
    await readUntil(resumed[Symbol.asyncIterator](), after, ended(answer.turnId));
    resumed.close();
    expect(after[0]?.id).toBe(resumeFrom + 1);
    expect(after.filter((e) => e.type === 'turn.started').map((e) => e.type === 'turn.started' && e.data.turnId)).toEqual([answer.turnId]);

    // Stored events (deltas aside) numbered 1..n with no gap and no repeat, exactly what a full replay gives.
    const stored = [...received, ...after].filter((e) => e.type !== 'message.delta');
    expect(stored.map((e) => e.id)).toEqual(stored.map((_, i) => i + 1));
    const replay: StreamEvent[] = [];
    const full = session.sessions.events(created.sessionId, { signal: AbortSignal.timeout(30_000) });
    await readUntil(full[Symbol.asyncIterator](), replay, ended(answer.turnId));
    full.close();
    expect(replay.map((e) => `${e.id} ${e.type}`)).toEqual(stored.map((e) => `${e.id} ${e.type}`));

    const snapshot = await session.sessions.get(created.sessionId);
    expect(snapshot).toMatchObject({
      sessionId: created.sessionId,
      kind: 'form',
      status: 'active',
      lastEventId: stored.at(-1)?.id,
      turn: { active: null, queued: 0 },
    });
    expect(snapshot.messages.map((m) => m.text)).toEqual(stored.flatMap((e) => (e.type === 'message' ? [e.data.text] : [])));
    expect(snapshot.fields.find((f) => f.fieldId === 'full_name')).toMatchObject({ status: 'done', value: 'Jane Doe' });

    await session.sessions.delete(created.sessionId);
    await expect(session.sessions.get(created.sessionId)).rejects.toMatchObject({ name: 'ApiError', status: expect.any(Number) });
  });

  it('searches the FAQ, holds a dialog over JSON with its session token, and follows one over SSE to its answer', async () => {
    const search = await client.faq.search({ query: 'retrun policy', topK: 3 });
    expect(search.hits.length).toBeGreaterThan(0);
    expect(search.hits[0]?.question).toMatch(/return/i);

    const opened = await client.faq.dialog({ message: 'Can I pay with PayPal?' });
    expect(opened.sessionId).toMatch(/^dialog-/);
    expect(opened.sessionToken).toEqual(expect.any(String));
    expect(opened.answer ?? opened.clarifyingQuestions).toBeTruthy();
    const next = await client.faq.dialog(
      { sessionId: opened.sessionId, message: 'How much is shipping to Asia?' },
      { token: opened.sessionToken },
    );
    expect(next.sessionId).toBe(opened.sessionId);
    await expect(client.faq.dialog({ sessionId: opened.sessionId, message: 'hello' })).rejects.toMatchObject({ status: 401 });

    const stream = await client.faq.dialogStream({ message: 'How much is shipping to Asia?' });
    expect(stream.sessionId).toMatch(/^dialog-/);
    expect(stream.sessionToken).toEqual(expect.any(String));
    const types: string[] = [];
    for await (const ev of stream) types.push(ev.type);
    expect(types[0]).toBe('turn.started');
    expect(types.at(-1)).toMatch(/^(answer|clarify)$/);
  });

  it('edits a workbench problem with its edit token, gets a typed conflict with the current problem for a stale version, reads with the share token, and deletes it', async () => {
    const created = await client.workbench.createWorksheet({ subject: '算数', difficulty: 'normal', language: 'ja' });
    expect(created.problems).toHaveLength(10);
    const { editToken, shareToken } = created;
    // The edit token as the client's default token; the share token per call.
    const owner = client.withToken(editToken).workbench;
    await expect(client.workbench.getProblem(created.problems[0]!.id)).rejects.toMatchObject({
      name: 'ApiError',
      status: 401,
      code: 'unauthorized',
    });
    const problem = await owner.getProblem(created.problems[0]!.id);
    const edited = await owner.patchProblem(problem.id, {
      field: 'explanation',
      value: `${problem.explanation}（確認済み）`,
      version: problem.version,
    });
    expect(edited.version).toBe(problem.version + 1);
    const stale = await owner
      .patchProblem(problem.id, { field: 'explanation', value: 'older edit', version: problem.version })
      .catch((e: unknown) => e);
    expect(stale).toBeInstanceOf(ProblemConflictError);
    expect(stale).toMatchObject({ status: 409, problem: { id: problem.id, version: edited.version, explanation: edited.explanation } });
    const pdf = await client.workbench.pdf(created.worksheetId, 'answers', { token: shareToken });
    expect(new TextDecoder().decode(pdf.slice(0, 5))).toBe('%PDF-');
    await expect(client.workbench.getProblem(problem.id, { token: shareToken })).resolves.toMatchObject({ version: edited.version });
    // A reader changes nothing: for the share token the problem is not there to change.
    await expect(client.workbench.undo(problem.id, { token: shareToken })).rejects.toMatchObject({ status: 404 });
    await expect(client.workbench.deleteWorksheet(created.worksheetId, { token: shareToken })).rejects.toMatchObject({ status: 404 });
    await expect(owner.deleteWorksheet(created.worksheetId)).resolves.toBeUndefined();
    await expect(owner.getWorksheet(created.worksheetId)).rejects.toMatchObject({ status: 404, code: 'worksheet_not_found' });
  });
});
