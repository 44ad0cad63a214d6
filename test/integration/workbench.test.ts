import { beforeAll, describe, expect, it } from 'vitest';
import { Api, type Json } from '../support/api.js';
import { sharedStack } from '../support/shared-stack.js';
import { postEventStream } from '../support/sse-post.js';

/**
 * The problem workbench (seed 003) through HTTP on a real Redis, with the
 * gateway and the workbench agent as separate processes and the offline model.
 */
let api: Api;

beforeAll(async () => {
  const stack = await sharedStack({ services: ['workbench'] });
  api = new Api(stack.url);
});

async function worksheet(body: Json): Promise<Json> {
  const created = await api.call('POST', '/api/worksheets', { body });
  expect(created.status, JSON.stringify(created.json)).toBe(201);
  return created.json;
}

describe('worksheets', () => {
  it('generates 10 problems (7 multiple choice with 4 choices, 3 written with a model answer and rubric) and serves them back', async () => {
    const sheet = await worksheet({ subject: '算数', difficulty: 'normal', language: 'ja', topic: '分数' });
    expect(sheet).toMatchObject({ subject: '算数', difficulty: 'normal', language: 'ja' });
    expect(sheet.problems).toHaveLength(10);
    const choice = sheet.problems.filter((problem: Json) => problem.type === 'multiple_choice');
    const written = sheet.problems.filter((problem: Json) => problem.type === 'written');
    expect(choice).toHaveLength(7);
    expect(written).toHaveLength(3);
    for (const problem of choice) {
      expect(problem.choices).toHaveLength(4);
      expect(new Set(problem.choices).size).toBe(4);
      expect(problem.correctChoiceIndex).toBeGreaterThanOrEqual(0);
    }
    for (const problem of written) expect(problem.modelAnswer && problem.rubric.length).toBeTruthy();
    expect(sheet.problems.map((problem: Json) => problem.index)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect((await api.call('GET', `/api/worksheets/${sheet.worksheetId}`)).json).toEqual(sheet);
    expect((await api.call('GET', `/api/problems/${sheet.problems[0].id}`)).json).toEqual(sheet.problems[0]);
    // Every generated problem passes the checker.
    const validation = await api.call('POST', `/api/worksheets/${sheet.worksheetId}/validate`);
    expect(validation.status).toBe(200);
    expect(validation.json.problems.every((problem: Json) => problem.isValid)).toBe(true);
    expect(validation.json.overallScore).toBeGreaterThan(0.6);
  });

  it('refuses a subject the offline generators do not cover with 422 and the list of supported subjects', async () => {
    const refused = await api.call('POST', '/api/worksheets', { body: { subject: 'Ancient history', difficulty: 'easy', language: 'en' } });
    expect(refused.status).toBe(422);
    expect(refused.json.error.code).toBe('unsupported_subject');
    expect(refused.json.error.message).toMatch(/math/);
    expect(refused.json.error.message).toMatch(/kanji/);
  });

  it('answers 404 for an unknown worksheet or problem and 400 for a bad body', async () => {
    expect((await api.call('GET', '/api/worksheets/ws-nope')).status).toBe(404);
    expect((await api.call('GET', '/api/problems/ws-nope-p1')).status).toBe(404);
    expect((await api.call('POST', '/api/worksheets', { body: { subject: 'math', difficulty: 'extreme', language: 'en' } })).status).toBe(400);
  });
});

describe('edits, consistency and fixes', () => {
  it('keeps every edit with its version: a stale version gets 409 with the current problem; undo restores', async () => {
    const sheet = await worksheet({ subject: 'math', difficulty: 'easy', language: 'en' });
    const problem = sheet.problems[0];
    const edited = await api.call('PATCH', `/api/problems/${problem.id}`, { body: { field: 'explanation', value: 'Work it out step by step.', version: 1 } });
    expect(edited.status, JSON.stringify(edited.json)).toBe(200);
    expect(edited.json).toMatchObject({ version: 2, explanation: 'Work it out step by step.' });
    const stale = await api.call('PATCH', `/api/problems/${problem.id}`, { body: { field: 'prompt', value: 'Something else?', version: 1 } });
    expect(stale.status).toBe(409);
    expect(stale.json.problem).toMatchObject({ id: problem.id, version: 2 });
    expect((await api.call('PATCH', `/api/problems/${problem.id}`, { body: { field: 'choices', value: ['1', '2'], version: 2 } })).status).toBe(400);
    const undone = await api.call('POST', `/api/problems/${problem.id}/undo`);
    expect(undone.json).toMatchObject({ version: 3, explanation: problem.explanation });
    const history = await api.call('GET', `/api/problems/${problem.id}/history`);
    expect(history.json.edits.map((edit: Json) => edit.by)).toEqual(['user', 'undo']);
  });

  it('finds the break of an edit that marks a wrong answer, offers a fix, and the fix applied makes it consistent again', async () => {
    const sheet = await worksheet({ subject: 'math', difficulty: 'normal', language: 'en', topic: 'equations' });
    const problem = sheet.problems.find((candidate: Json) => candidate.type === 'multiple_choice');
    const wrong = (problem.correctChoiceIndex + 1) % 4;
    const preview = await api.call('POST', `/api/problems/${problem.id}/check-consistency`, { body: { updatedField: 'choices', newValue: problem.choices } });
    expect(preview.json.isConsistent).toBe(true);
    await api.call('PATCH', `/api/problems/${problem.id}`, { body: { field: 'correctChoiceIndex', value: wrong, version: problem.version } });
    const report = await api.call('POST', `/api/problems/${problem.id}/check-consistency`, { body: {} });
    expect(report.json.isConsistent).toBe(false);
    expect(report.json.autoFixAvailable).toBe(true);
    expect(report.json.issues.map((issue: Json) => issue.kind)).toContain('wrong_answer');
    const fix = await api.call('POST', `/api/problems/${problem.id}/auto-fix`, { body: { issues: report.json.issues } });
    expect(fix.json.fixes.correctChoiceIndex).toBe(problem.correctChoiceIndex);
    expect(fix.json.confidence).toBeGreaterThan(0.5);
    // Not applied until the client approves.
    expect((await api.call('GET', `/api/problems/${problem.id}`)).json.correctChoiceIndex).toBe(wrong);
    const current = (await api.call('GET', `/api/problems/${problem.id}`)).json;
    await api.call('PATCH', `/api/problems/${problem.id}`, { body: { field: 'correctChoiceIndex', value: fix.json.fixes.correctChoiceIndex, version: current.version } });
    expect((await api.call('POST', `/api/problems/${problem.id}/check-consistency`, { body: {} })).json.isConsistent).toBe(true);
    // The body is optional: a POST without one checks the stored problem.
    const bare = await api.call('POST', `/api/problems/${problem.id}/check-consistency`);
    expect(bare.status).toBe(200);
    expect(bare.json.isConsistent).toBe(true);
    expect((await api.call('POST', `/api/problems/${problem.id}/auto-fix`)).status).toBe(200);
    // A change to check names its field and its value, of the field's type; anything less is refused, not ignored.
    for (const body of [{ updatedField: 'choices' }, { newValue: 'x' }, { updatedField: 'choices', newValue: 'one string' }, { updatedField: 'prompt', newValue: ['a', 'b'] }]) {
      const refused = await api.call('POST', `/api/problems/${problem.id}/check-consistency`, { body });
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.json.error.code).toBe('invalid_request');
    }
  });

  it('suggests four ideas of at most 15 characters per section, in the worksheet language, the same for the same version', async () => {
    const sheet = await worksheet({ subject: '漢字', difficulty: 'easy', language: 'ja' });
    const problem = sheet.problems[0];
    const ideas = await api.call('GET', `/api/suggestions/${problem.id}`);
    expect(ideas.status).toBe(200);
    for (const section of ['prompt', 'choices', 'explanation']) {
      expect(ideas.json[section]).toHaveLength(4);
      for (const idea of ideas.json[section]) {
        expect([...idea].length).toBeLessThanOrEqual(15);
        expect(idea).toMatch(/[\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Han}]/u);
      }
    }
    expect((await api.call('GET', `/api/suggestions/${problem.id}`)).json).toEqual(ideas.json);
    const written = sheet.problems.find((candidate: Json) => candidate.type === 'written');
    expect((await api.call('GET', `/api/suggestions/${written.id}`)).json.choices).toBeUndefined();
  });
});

describe('the problem-management agent (seed cases)', () => {
  it('case 1, 「問題文をもっと具体的にして」: edits the prompt, checks consistency, scores; the problem stays consistent', async () => {
    const sheet = await worksheet({ subject: '算数', difficulty: 'normal', language: 'ja', topic: '分数' });
    const problem = sheet.problems[0];
    const answer = await api.call('POST', `/api/problems/${problem.id}/agent`, { body: { request: '問題文をもっと具体的にして' } });
    expect(answer.status, JSON.stringify(answer.json)).toBe(200);
    expect(answer.json.intent).toBe('specify');
    expect(answer.json.actions.map((action: Json) => action.tool)).toEqual(expect.arrayContaining(['editor', 'consistency_checker', 'quality_scorer', 'ask']));
    expect(answer.json.changed).toContain('prompt');
    expect(answer.json.after.problem.prompt).not.toBe(problem.prompt);
    expect(answer.json.after.problem.prompt.startsWith(problem.prompt)).toBe(true);
    expect(answer.json.after.consistency.isConsistent).toBe(true);
    expect(answer.json.after.quality.overallScore).toBeGreaterThan(0);
    expect(answer.json.before.problem).toEqual(problem);
    expect(answer.json.message).toMatch(/品質スコア/);
    expect((await api.call('GET', `/api/problems/${problem.id}`)).json.version).toBe(problem.version + 1);
    // A run step around every tool execution, kept with the worksheet.
    const runSteps = (await api.call('GET', `/api/worksheets/${sheet.worksheetId}/runsteps`)).json.runSteps as Json[];
    expect(runSteps.map((run) => run.toolName)).toEqual(answer.json.actions.map((action: Json) => action.tool));
    expect(runSteps.every((run) => run.startedAt && run.finishedAt && run.input !== undefined)).toBe(true);
  });

  it('case 2, "improve this problem": scores, suggests, edits, checks and scores again, with a before/after comparison', async () => {
    const sheet = await worksheet({ subject: 'math', difficulty: 'normal', language: 'en', topic: 'percentages' });
    const problem = sheet.problems[1];
    const answer = await api.call('POST', `/api/problems/${problem.id}/agent`, { body: { request: 'Please improve this problem' } });
    expect(answer.status, JSON.stringify(answer.json)).toBe(200);
    expect(answer.json.intent).toBe('improve');
    const tools = answer.json.actions.map((action: Json) => action.tool);
    expect(tools.slice(0, 5)).toEqual(['quality_scorer', 'suggestion_generator', 'editor', 'consistency_checker', 'quality_scorer']);
    expect(answer.json.before.quality.overallScore).toBeTypeOf('number');
    expect(answer.json.after.consistency.isConsistent).toBe(true);
  });

  it('a broken problem and 「整合性チェック」: the agent checks, auto-fixes and checks again', async () => {
    const sheet = await worksheet({ subject: 'math', difficulty: 'easy', language: 'ja', topic: '面積' });
    const problem = sheet.problems[0];
    await api.call('PATCH', `/api/problems/${problem.id}`, { body: { field: 'correctChoiceIndex', value: (problem.correctChoiceIndex + 2) % 4, version: problem.version } });
    const answer = await api.call('POST', `/api/problems/${problem.id}/agent`, { body: { request: '整合性チェック' } });
    expect(answer.status, JSON.stringify(answer.json)).toBe(200);
    expect(answer.json.before.consistency.isConsistent).toBe(false);
    expect(answer.json.actions.map((action: Json) => action.tool)).toEqual(expect.arrayContaining(['consistency_checker', 'auto_fixer']));
    expect(answer.json.after.consistency.isConsistent).toBe(true);
    expect(answer.json.after.problem.correctChoiceIndex).toBe(problem.correctChoiceIndex);
  });

  it('streams the agent’s steps over SSE with Accept: text/event-stream, ending with its result', async () => {
    const sheet = await worksheet({ subject: 'math', difficulty: 'hard', language: 'en' });
    const problem = sheet.problems[2];
    const streamed = await postEventStream(`${api.base}/api/problems/${problem.id}/agent`, { request: 'make it harder' });
    expect(streamed.status).toBe(200);
    const types = streamed.events.map((event) => event.type);
    expect(types).toContain('workbench.step');
    expect(types.at(-1)).toBe('workbench.result');
    expect(streamed.events.filter((event) => event.type === 'workbench.step').map((event) => (event.data as Json).tool)).toEqual(expect.arrayContaining(['editor', 'consistency_checker', 'quality_scorer']));
    // Every event of the stream is one the AsyncAPI document lists for the workbench agent's channel.
    const asyncapi = (await (await fetch(`${api.base}/docs/asyncapi.json`)).json()) as { channels: { workbenchAgent: { messages: Json } } };
    const listed = Object.keys(asyncapi.channels.workbenchAgent.messages);
    expect([...new Set(types)].filter((type) => !listed.includes(type))).toEqual([]);
  });
});

describe('PDF', () => {
  it('serves the question and answer sheets as application/pdf', async () => {
    const sheet = await worksheet({ subject: '算数', difficulty: 'easy', language: 'ja' });
    for (const kind of ['questions', 'answers']) {
      const response = await fetch(`${api.base}/api/worksheets/${sheet.worksheetId}/pdf?sheet=${kind}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/application\/pdf/);
      expect(Buffer.from(await response.arrayBuffer()).subarray(0, 5).toString()).toBe('%PDF-');
    }
  });
});
