import { CHOICE_MAX_CHARS, PROBLEM_TEXT_MAX_CHARS } from '@convo/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Api, type Json } from '../support/api.js';
import { sharedStack } from '../support/shared-stack.js';
import { postEventStream } from '../support/sse-post.js';

/**
 * The problem workbench (seed 003) through HTTP on a real Redis, with the
 * gateway and the workbench agent as separate processes and the offline model.
 * A worksheet is answered with its edit and share tokens; every other call
 * sends one of them.
 */
let api: Api;
/** Every worksheet this file made, with its edit token: deleted at the end, so the shared stack's per-client cap is not used up. */
const made = new Map<string, string>();

beforeAll(async () => {
  const stack = await sharedStack({ services: ['workbench'] });
  api = new Api(stack.url);
});

afterAll(async () => {
  await Promise.all([...made].map(([id, token]) => api.call('DELETE', `/api/worksheets/${id}`, { token })));
});

/** A new worksheet as created: the worksheet with its `editToken` and `shareToken`. */
async function worksheet(body: Json): Promise<Json> {
  const created = await api.call('POST', '/api/worksheets', { body });
  expect(created.status, JSON.stringify(created.json)).toBe(201);
  expect(created.json.editToken).toEqual(expect.any(String));
  expect(created.json.shareToken).toEqual(expect.any(String));
  made.set(created.json.worksheetId, created.json.editToken);
  return created.json;
}

/** The worksheet as GET answers it: the tokens are shown at creation only. */
function stored(sheet: Json): Json {
  const { editToken: _edit, shareToken: _share, ...rest } = sheet;
  return rest;
}

describe('worksheets', () => {
  it('generates 10 problems (7 multiple choice with 4 choices, 3 written with a model answer and rubric) and serves them back', async () => {
    const sheet = await worksheet({ subject: '算数', difficulty: 'normal', language: 'ja', topic: '分数' });
    const token = sheet.editToken as string;
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
    expect(sheet.editToken).not.toBe(sheet.shareToken);
    expect((await api.call('GET', `/api/worksheets/${sheet.worksheetId}`, { token })).json).toEqual(stored(sheet));
    expect((await api.call('GET', `/api/problems/${sheet.problems[0].id}`, { token })).json).toEqual(sheet.problems[0]);
    // Every generated problem passes the checker.
    const validation = await api.call('POST', `/api/worksheets/${sheet.worksheetId}/validate`, { token });
    expect(validation.status).toBe(200);
    expect(validation.json.problems.every((problem: Json) => problem.isValid)).toBe(true);
    expect(validation.json.overallScore).toBeGreaterThan(0.6);
  });

  it('refuses a subject the offline generators do not cover with 422 and the list of supported subjects', async () => {
    const refused = await api.call('POST', '/api/worksheets', { body: { subject: 'Ancient history', difficulty: 'easy', language: 'en' } });
    expect(refused.status).toBe(422);
    expect(refused.json.error.code).toBe('unsupported_subject');
    expect(refused.json.error.message).toBe(
      'Worksheets for "Ancient history" cannot be made here. Subjects offered: Math, Kanji readings, English vocabulary',
    );
    // In the request's language, without the system's own words ("offline", "generation").
    const ja = await api.call('POST', '/api/worksheets', { body: { subject: '理科', difficulty: 'easy', language: 'ja' } });
    expect(ja.status).toBe(422);
    expect(ja.json.error.message).toBe('「理科」のワークシートはここでは作れません。作れる教科: 算数・数学、漢字の読み、英単語');
  });

  it('honours a topic or refuses it with the topics offered: never other topics under the asked one’s title', async () => {
    const unknown = await api.call('POST', '/api/worksheets', {
      body: { subject: '算数', difficulty: 'easy', language: 'ja', topic: '確率' },
    });
    expect(unknown.status).toBe(422);
    expect(unknown.json.error).toEqual({
      code: 'unsupported_topic',
      message:
        '「算数」の題材「確率」には対応していません。選べる題材: 分数、割合・百分率、方程式、面積、速さ、比と比例、小数、体積、単位の換算（空欄ならすべて）',
    });
    const kanji = await api.call('POST', '/api/worksheets', {
      body: { subject: 'kanji', difficulty: 'easy', language: 'en', topic: 'animals' },
    });
    expect(kanji.status).toBe(422);
    expect(kanji.json.error.message).toBe(
      'The topic "animals" is not offered for "kanji". Topics offered: grade 1 to 6 kanji, other jōyō kanji (or leave it empty for all)',
    );
    // A kanji sheet's topic is a school grade: every word's hardest kanji is of it.
    const second = await worksheet({ subject: '漢字', difficulty: 'normal', language: 'ja', topic: '2年生' });
    expect(second.problems).toHaveLength(10);
    // A topic offered is honoured: every problem is of it.
    const sheet = await worksheet({ subject: 'math', difficulty: 'easy', language: 'en', topic: 'percentages' });
    expect(sheet.problems.every((problem: Json) => String(problem.source?.generator).startsWith('math.percent'))).toBe(true);
    const speed = await worksheet({ subject: '算数', difficulty: 'normal', language: 'ja', topic: '速さ' });
    expect(speed.problems.every((problem: Json) => problem.source?.generator === 'math.speed')).toBe(true);
    expect(speed.problems[0].prompt).toMatch(/時速|km/);
    // A vocabulary topic is a kind of thing, judged by the agent with WordNet: honoured, or refused when too few words fall under it.
    const animals = await worksheet({ subject: 'English vocabulary', difficulty: 'easy', language: 'en', topic: 'animals' });
    expect(animals.problems).toHaveLength(10);
    const school = await api.call('POST', '/api/worksheets', {
      body: { subject: 'English vocabulary', difficulty: 'easy', language: 'en', topic: 'school life' },
    });
    expect(school.status).toBe(422);
    expect(school.json.error.code).toBe('unsupported_topic');
  });

  it('answers 404 for an unknown worksheet or problem and 400 for a bad body', async () => {
    const token = 'a-token-of-no-worksheet-0123456789abcdefghij';
    expect((await api.call('GET', '/api/worksheets/ws-nope', { token })).status).toBe(404);
    expect((await api.call('GET', '/api/problems/ws-nope-p1', { token })).status).toBe(404);
    expect((await api.call('POST', '/api/worksheets', { body: { subject: 'math', difficulty: 'extreme', language: 'en' } })).status).toBe(
      400,
    );
  });
});

describe('owners and readers', () => {
  /** Every route of one worksheet, with a valid body: the reads a share token may make, and the changes only the edit token may. */
  function routes(sheet: Json) {
    const problem = sheet.problems[0];
    const worksheetPath = `/api/worksheets/${sheet.worksheetId}`;
    const problemPath = `/api/problems/${problem.id}`;
    return {
      reads: [
        ['GET', worksheetPath, undefined],
        ['GET', problemPath, undefined],
        ['GET', `${problemPath}/history`, undefined],
        ['POST', `${problemPath}/check-consistency`, {}],
        ['POST', `${problemPath}/auto-fix`, { issues: [] }],
        ['GET', `/api/suggestions/${problem.id}`, undefined],
        ['POST', `${worksheetPath}/validate`, undefined],
        ['GET', `${worksheetPath}/pdf?sheet=answers`, undefined],
      ],
      changes: [
        ['PATCH', problemPath, { field: 'explanation', value: 'Changed by someone else.', version: problem.version }],
        ['POST', `${problemPath}/undo`, undefined],
        ['POST', `${problemPath}/agent`, { request: 'make it harder' }],
        ['GET', `${worksheetPath}/runsteps`, undefined],
        ['DELETE', worksheetPath, undefined],
      ],
    } as { reads: Array<[string, string, Json | undefined]>; changes: Array<[string, string, Json | undefined]> };
  }

  it('answers 401 without a token and 404 with another worksheet’s token, on every route; the worksheet stays as it was', async () => {
    const [sheet, other] = await Promise.all([
      worksheet({ subject: 'math', difficulty: 'easy', language: 'en' }),
      worksheet({ subject: 'math', difficulty: 'easy', language: 'en' }),
    ]);
    const { reads, changes } = routes(sheet);
    for (const [method, path, body] of [...reads, ...changes]) {
      const bare = await api.call(method, path, { body });
      expect(bare.status, `${method} ${path} without a token`).toBe(401);
      expect(bare.json.error.code).toBe('unauthorized');
      for (const token of [other.editToken, other.shareToken]) {
        const foreign = await api.call(method, path, { body, token });
        expect(foreign.status, `${method} ${path} with another worksheet's token`).toBe(404);
        expect(foreign.json.error.code).toMatch(/^(worksheet|problem)_not_found$/);
      }
    }
    // Told apart from an unknown id by nothing: the same 404 body as a worksheet that does not exist.
    const unknown = await api.call('GET', '/api/worksheets/ws-00000000-0000-0000-0000-000000000000', { token: other.editToken });
    const foreign = await api.call('GET', `/api/worksheets/${sheet.worksheetId}`, { token: other.editToken });
    expect(foreign.json.error.code).toBe(unknown.json.error.code);
    expect((await api.call('GET', `/api/worksheets/${sheet.worksheetId}`, { token: sheet.editToken })).json).toEqual(stored(sheet));
    expect((await api.call('GET', `/api/problems/${sheet.problems[0].id}/history`, { token: sheet.editToken })).json.edits).toEqual([]);
  });

  it('the share token reads the worksheet, its problems, checks, suggestions, validation and PDFs, and changes nothing (404)', async () => {
    const sheet = await worksheet({ subject: '漢字', difficulty: 'easy', language: 'ja' });
    const token = sheet.shareToken as string;
    const { reads, changes } = routes(sheet);
    for (const [method, path, body] of reads) {
      const read = await api.call(method, path, { body, token });
      expect(read.status, `${method} ${path} with the share token: ${JSON.stringify(read.json)}`).toBe(200);
    }
    expect((await api.call('GET', `/api/worksheets/${sheet.worksheetId}`, { token })).json).toEqual(stored(sheet));
    expect((await api.call('POST', `/api/problems/${sheet.problems[0].id}/check-consistency`, { body: {}, token })).json.isConsistent).toBe(
      true,
    );
    const pdf = await fetch(`${api.base}/api/worksheets/${sheet.worksheetId}/pdf?sheet=questions`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(pdf.status).toBe(200);
    expect(
      Buffer.from(await pdf.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
    for (const [method, path, body] of changes) {
      const refused = await api.call(method, path, { body, token });
      expect(refused.status, `${method} ${path} with the share token`).toBe(404);
    }
    // Nothing changed, and the worksheet is still there for its owner.
    const problem = (await api.call('GET', `/api/problems/${sheet.problems[0].id}`, { token: sheet.editToken })).json;
    expect(problem).toEqual(sheet.problems[0]);
    expect((await api.call('GET', `/api/problems/${problem.id}/history`, { token })).json.edits).toEqual([]);
  });

  it('DELETE with the edit token answers 204; then the worksheet and its problems are 404 for both its tokens', async () => {
    const sheet = await worksheet({ subject: 'English vocabulary', difficulty: 'easy', language: 'en' });
    const deleted = await api.call('DELETE', `/api/worksheets/${sheet.worksheetId}`, { token: sheet.editToken });
    expect(deleted.status).toBe(204);
    made.delete(sheet.worksheetId);
    for (const token of [sheet.editToken, sheet.shareToken]) {
      expect((await api.call('GET', `/api/worksheets/${sheet.worksheetId}`, { token })).status).toBe(404);
      expect((await api.call('GET', `/api/problems/${sheet.problems[0].id}`, { token })).status).toBe(404);
      expect((await api.call('POST', `/api/worksheets/${sheet.worksheetId}/validate`, { token })).status).toBe(404);
    }
    expect((await api.call('DELETE', `/api/worksheets/${sheet.worksheetId}`, { token: sheet.editToken })).status).toBe(404);
  });
});

describe('edits, consistency and fixes', () => {
  it('keeps every edit with its version: a stale version gets 409 with the current problem; undo restores', async () => {
    const sheet = await worksheet({ subject: 'math', difficulty: 'easy', language: 'en' });
    const token = sheet.editToken as string;
    const problem = sheet.problems[0];
    const edited = await api.call('PATCH', `/api/problems/${problem.id}`, {
      token,
      body: { field: 'explanation', value: 'Work it out step by step.', version: 1 },
    });
    expect(edited.status, JSON.stringify(edited.json)).toBe(200);
    expect(edited.json).toMatchObject({ version: 2, explanation: 'Work it out step by step.' });
    const stale = await api.call('PATCH', `/api/problems/${problem.id}`, {
      token,
      body: { field: 'prompt', value: 'Something else?', version: 1 },
    });
    expect(stale.status).toBe(409);
    expect(stale.json.problem).toMatchObject({ id: problem.id, version: 2 });
    expect(
      (await api.call('PATCH', `/api/problems/${problem.id}`, { token, body: { field: 'choices', value: ['1', '2'], version: 2 } })).status,
    ).toBe(400);
    const undone = await api.call('POST', `/api/problems/${problem.id}/undo`, { token });
    expect(undone.json).toMatchObject({ version: 3, explanation: problem.explanation });
    const history = await api.call('GET', `/api/problems/${problem.id}/history`, { token });
    expect(history.json.edits.map((edit: Json) => edit.by)).toEqual(['user', 'undo']);
  });

  it(`refuses with 400 a prompt, explanation or model answer over ${PROBLEM_TEXT_MAX_CHARS} characters, a choice over ${CHOICE_MAX_CHARS}, and a value to check over the bound; the problem is unchanged`, async () => {
    const sheet = await worksheet({ subject: 'math', difficulty: 'normal', language: 'en' });
    const token = sheet.editToken as string;
    const choice = sheet.problems.find((candidate: Json) => candidate.type === 'multiple_choice');
    const written = sheet.problems.find((candidate: Json) => candidate.type === 'written');
    const long = 'x'.repeat(PROBLEM_TEXT_MAX_CHARS + 1);
    const refusals: Array<[Json, string, unknown]> = [
      [choice, 'prompt', long],
      [choice, 'explanation', long],
      [written, 'modelAnswer', long],
      [choice, 'choices', [...choice.choices.slice(0, 3), 'y'.repeat(CHOICE_MAX_CHARS + 1)]],
    ];
    for (const [problem, field, value] of refusals) {
      const refused = await api.call('PATCH', `/api/problems/${problem.id}`, { token, body: { field, value, version: problem.version } });
      expect(refused.status, `${field}: ${JSON.stringify(refused.json).slice(0, 300)}`).toBe(400);
      expect(refused.json.error.code).toBe('invalid_request');
    }
    for (const problem of [choice, written])
      expect((await api.call('GET', `/api/problems/${problem.id}`, { token })).json).toEqual(problem);
    // At the bound is accepted.
    const atBound = await api.call('PATCH', `/api/problems/${choice.id}`, {
      token,
      body: { field: 'explanation', value: 'z'.repeat(PROBLEM_TEXT_MAX_CHARS), version: choice.version },
    });
    expect(atBound.status, JSON.stringify(atBound.json).slice(0, 300)).toBe(200);
    // A value to check that is far too long is refused before any work is queued.
    for (const body of [
      { updatedField: 'prompt', newValue: 'あ'.repeat(16_000) },
      { updatedField: 'choices', newValue: [...choice.choices.slice(0, 3), 'い'.repeat(16_000)] },
    ]) {
      const refused = await api.call('POST', `/api/problems/${choice.id}/check-consistency`, { token, body });
      expect(refused.status).toBe(400);
      expect(refused.json.error.code).toBe('invalid_request');
    }
  });

  it('finds the break of an edit that marks a wrong answer, offers a fix, and the fix applied makes it consistent again', async () => {
    const sheet = await worksheet({ subject: 'math', difficulty: 'normal', language: 'en', topic: 'equations' });
    const token = sheet.editToken as string;
    const problem = sheet.problems.find((candidate: Json) => candidate.type === 'multiple_choice');
    const wrong = (problem.correctChoiceIndex + 1) % 4;
    const preview = await api.call('POST', `/api/problems/${problem.id}/check-consistency`, {
      token,
      body: { updatedField: 'choices', newValue: problem.choices },
    });
    expect(preview.json.isConsistent).toBe(true);
    await api.call('PATCH', `/api/problems/${problem.id}`, {
      token,
      body: { field: 'correctChoiceIndex', value: wrong, version: problem.version },
    });
    const report = await api.call('POST', `/api/problems/${problem.id}/check-consistency`, { token, body: {} });
    expect(report.json.isConsistent).toBe(false);
    expect(report.json.autoFixAvailable).toBe(true);
    expect(report.json.issues.map((issue: Json) => issue.kind)).toContain('wrong_answer');
    const fix = await api.call('POST', `/api/problems/${problem.id}/auto-fix`, { token, body: { issues: report.json.issues } });
    expect(fix.json.fixes.correctChoiceIndex).toBe(problem.correctChoiceIndex);
    expect(fix.json.confidence).toBeGreaterThan(0.5);
    // Not applied until the client approves.
    expect((await api.call('GET', `/api/problems/${problem.id}`, { token })).json.correctChoiceIndex).toBe(wrong);
    const current = (await api.call('GET', `/api/problems/${problem.id}`, { token })).json;
    await api.call('PATCH', `/api/problems/${problem.id}`, {
      token,
      body: { field: 'correctChoiceIndex', value: fix.json.fixes.correctChoiceIndex, version: current.version },
    });
    expect((await api.call('POST', `/api/problems/${problem.id}/check-consistency`, { token, body: {} })).json.isConsistent).toBe(true);
    // The body is optional: a POST without one checks the stored problem.
    const bare = await api.call('POST', `/api/problems/${problem.id}/check-consistency`, { token });
    expect(bare.status).toBe(200);
    expect(bare.json.isConsistent).toBe(true);
    expect((await api.call('POST', `/api/problems/${problem.id}/auto-fix`, { token })).status).toBe(200);
    // A change to check names its field and its value, of the field's type; anything less is refused, not ignored.
    for (const body of [
      { updatedField: 'choices' },
      { newValue: 'x' },
      { updatedField: 'choices', newValue: 'one string' },
      { updatedField: 'prompt', newValue: ['a', 'b'] },
    ]) {
      const refused = await api.call('POST', `/api/problems/${problem.id}/check-consistency`, { token, body });
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.json.error.code).toBe('invalid_request');
    }
  });

  it('suggests four ideas of at most 15 characters per section, in the worksheet language, the same for the same version', async () => {
    const sheet = await worksheet({ subject: '漢字', difficulty: 'easy', language: 'ja' });
    const token = sheet.editToken as string;
    const problem = sheet.problems[0];
    const ideas = await api.call('GET', `/api/suggestions/${problem.id}`, { token });
    expect(ideas.status).toBe(200);
    for (const section of ['prompt', 'choices', 'explanation']) {
      expect(ideas.json[section]).toHaveLength(4);
      for (const idea of ideas.json[section]) {
        expect([...idea].length).toBeLessThanOrEqual(15);
        expect(idea).toMatch(/[\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Han}]/u);
      }
    }
    expect((await api.call('GET', `/api/suggestions/${problem.id}`, { token })).json).toEqual(ideas.json);
    const written = sheet.problems.find((candidate: Json) => candidate.type === 'written');
    expect((await api.call('GET', `/api/suggestions/${written.id}`, { token })).json.choices).toBeUndefined();
  });
});

describe('the problem-management agent (seed cases)', () => {
  it('case 1, 「問題文をもっと具体的にして」: edits the prompt, checks consistency, scores; the problem stays consistent', async () => {
    const sheet = await worksheet({ subject: '算数', difficulty: 'normal', language: 'ja', topic: '分数' });
    const token = sheet.editToken as string;
    // A written problem: its model answer's form is what the prompt can state (a multiple-choice one's choices already show it).
    const problem = sheet.problems.find((candidate: Json) => candidate.type === 'written');
    const answer = await api.call('POST', `/api/problems/${problem.id}/agent`, { token, body: { request: '問題文をもっと具体的にして' } });
    expect(answer.status, JSON.stringify(answer.json)).toBe(200);
    expect(answer.json.intent).toBe('specify');
    expect(answer.json.actions.map((action: Json) => action.tool)).toEqual(
      expect.arrayContaining(['editor', 'consistency_checker', 'quality_scorer', 'ask']),
    );
    expect(answer.json.changed).toContain('prompt');
    expect(answer.json.after.problem.prompt).not.toBe(problem.prompt);
    expect(answer.json.after.problem.prompt.startsWith(problem.prompt)).toBe(true);
    expect(answer.json.after.consistency.isConsistent).toBe(true);
    expect(answer.json.after.quality.overallScore).toBeGreaterThan(0);
    expect(answer.json.before.problem).toEqual(problem);
    expect(answer.json.message).toMatch(/品質スコア/);
    // What the teacher sees of each tool is written for the teacher, in the sheet's language (the model's messages are English).
    for (const action of answer.json.actions as Json[]) expect(action.summary, action.tool).not.toMatch(/[A-Za-z]{4,}/);
    expect(answer.json.actions.find((action: Json) => action.tool === 'quality_scorer').summary).toMatch(/^品質スコア \d/);
    expect((await api.call('GET', `/api/problems/${problem.id}`, { token })).json.version).toBe(problem.version + 1);
    // A run step around every tool execution, kept with the worksheet.
    const runSteps = (await api.call('GET', `/api/worksheets/${sheet.worksheetId}/runsteps`, { token })).json.runSteps as Json[];
    expect(runSteps.map((run) => run.toolName)).toEqual(answer.json.actions.map((action: Json) => action.tool));
    expect(runSteps.every((run) => run.startedAt && run.finishedAt && run.input !== undefined)).toBe(true);
  });

  it('when suggestions are asked for, the answer carries them, in the sheet language', async () => {
    const sheet = await worksheet({ subject: '算数', difficulty: 'normal', language: 'ja', topic: '分数' });
    const token = sheet.editToken as string;
    const problem = sheet.problems[0];
    const answer = await api.call('POST', `/api/problems/${problem.id}/agent`, { token, body: { request: '改善の提案をして' } });
    expect(answer.status, JSON.stringify(answer.json)).toBe(200);
    expect(answer.json.intent).toBe('suggest');
    const ideas = (await api.call('GET', `/api/suggestions/${problem.id}`, { token })).json;
    expect(answer.json.message).toContain(`問題文: ${ideas.prompt.join('、')}`);
    expect(answer.json.message).toContain(`解説: ${ideas.explanation.join('、')}`);
  });

  it('an edit the rule-based editor cannot make is not made and says why, in the sheet language; nothing stock is appended', async () => {
    const sheet = await worksheet({ subject: '算数', difficulty: 'normal', language: 'ja', topic: '分数' });
    const token = sheet.editToken as string;
    const generated = sheet.problems.find((candidate: Json) => candidate.type === 'multiple_choice');
    // A problem the teacher wrote has no record to rebuild it from: harder, a translation, other choices need a model.
    const own = (
      await api.call('PATCH', `/api/problems/${generated.id}`, {
        token,
        // The same sum in the teacher's own words: still consistent, no longer as generated.
        body: {
          field: 'prompt',
          value: `${generated.prompt.replace('次の計算をしなさい。', '')} を計算すると、答えはどれになりますか。`,
          version: generated.version,
        },
      })
    ).json;
    expect(own.source).toBeNull();
    for (const request of ['問題文をもっと具体的にして', 'もっと難しくして', 'この問題を英語に翻訳して', '選択肢をもっと紛らわしくして']) {
      const answer = await api.call('POST', `/api/problems/${own.id}/agent`, { token, body: { request } });
      expect(answer.status, JSON.stringify(answer.json)).toBe(200);
      expect(answer.json.changed, request).not.toContain('prompt');
      expect(answer.json.changed, request).not.toContain('choices');
      expect(answer.json.after.problem.prompt).toBe(own.prompt);
      expect(answer.json.message, request).toMatch(/問題は変更していません。できなかったこと: .*ません。/);
      expect(answer.json.message, request).not.toMatch(/[a-z]{4,}/);
    }
  });

  it('a generated problem made harder, translated or given closer choices is rebuilt whole, consistent, and undone in one step', async () => {
    const sheet = await worksheet({ subject: '算数', difficulty: 'normal', language: 'ja', topic: '速さ' });
    const token = sheet.editToken as string;
    const problem = sheet.problems[0];
    const expected: Record<string, (after: Json) => boolean> = {
      もっと難しくして: (after) => after.prompt !== problem.prompt && after.source.generator === 'math.speed',
      この問題を英語に翻訳して: (after) => !/[ぁ-ん]/.test(after.prompt),
      選択肢をもっと紛らわしくして: (after) => JSON.stringify(after.choices) !== JSON.stringify(problem.choices),
    };
    for (const [request, holds] of Object.entries(expected)) {
      const before = (await api.call('GET', `/api/problems/${problem.id}`, { token })).json;
      const answer = await api.call('POST', `/api/problems/${problem.id}/agent`, { token, body: { request } });
      expect(answer.status, JSON.stringify(answer.json)).toBe(200);
      expect(holds(answer.json.after.problem), request).toBe(true);
      expect(answer.json.after.consistency.isConsistent, request).toBe(true);
      // One edit: one version more, and one undo restores every field it changed.
      expect(answer.json.after.problem.version, request).toBe(before.version + 1);
      const undone = await api.call('POST', `/api/problems/${problem.id}/undo`, { token });
      expect(undone.status).toBe(200);
      const { version: _after, ...restored } = undone.json;
      const { version: _before, ...original } = before;
      expect(restored, request).toEqual(original);
    }
  });

  it('case 2, "improve this problem": scores, suggests, edits, checks and scores again, with a before/after comparison', async () => {
    const sheet = await worksheet({ subject: 'math', difficulty: 'normal', language: 'en', topic: 'percentages' });
    const problem = sheet.problems[1];
    const answer = await api.call('POST', `/api/problems/${problem.id}/agent`, {
      token: sheet.editToken,
      body: { request: 'Please improve this problem' },
    });
    expect(answer.status, JSON.stringify(answer.json)).toBe(200);
    expect(answer.json.intent).toBe('improve');
    const tools = answer.json.actions.map((action: Json) => action.tool);
    expect(tools.slice(0, 5)).toEqual(['quality_scorer', 'suggestion_generator', 'editor', 'consistency_checker', 'quality_scorer']);
    expect(answer.json.before.quality.overallScore).toBeTypeOf('number');
    expect(answer.json.after.consistency.isConsistent).toBe(true);
  });

  it('a broken problem and 「整合性チェック」: the agent checks, auto-fixes and checks again', async () => {
    const sheet = await worksheet({ subject: 'math', difficulty: 'easy', language: 'ja', topic: '面積' });
    const token = sheet.editToken as string;
    const problem = sheet.problems[0];
    await api.call('PATCH', `/api/problems/${problem.id}`, {
      token,
      body: { field: 'correctChoiceIndex', value: (problem.correctChoiceIndex + 2) % 4, version: problem.version },
    });
    const answer = await api.call('POST', `/api/problems/${problem.id}/agent`, { token, body: { request: '整合性チェック' } });
    expect(answer.status, JSON.stringify(answer.json)).toBe(200);
    expect(answer.json.before.consistency.isConsistent).toBe(false);
    expect(answer.json.actions.map((action: Json) => action.tool)).toEqual(expect.arrayContaining(['consistency_checker', 'auto_fixer']));
    expect(answer.json.after.consistency.isConsistent).toBe(true);
    expect(answer.json.after.problem.correctChoiceIndex).toBe(problem.correctChoiceIndex);
  });

  it('streams the agent’s steps over SSE with Accept: text/event-stream, ending with its result', async () => {
    const sheet = await worksheet({ subject: 'math', difficulty: 'hard', language: 'en' });
    const problem = sheet.problems[2];
    const streamed = await postEventStream(
      `${api.base}/api/problems/${problem.id}/agent`,
      { request: 'make it harder' },
      { authorization: `Bearer ${sheet.editToken}` },
    );
    expect(streamed.status).toBe(200);
    const types = streamed.events.map((event) => event.type);
    expect(types).toContain('workbench.step');
    expect(types.at(-1)).toBe('workbench.result');
    expect(streamed.events.filter((event) => event.type === 'workbench.step').map((event) => (event.data as Json).tool)).toEqual(
      expect.arrayContaining(['editor', 'consistency_checker', 'quality_scorer']),
    );
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
      const response = await fetch(`${api.base}/api/worksheets/${sheet.worksheetId}/pdf?sheet=${kind}`, {
        headers: { authorization: `Bearer ${sheet.editToken}` },
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/application\/pdf/);
      expect(response.headers.get('content-disposition')).toBe(`inline; filename="${sheet.worksheetId}-${kind}.pdf"`);
      expect(
        Buffer.from(await response.arrayBuffer())
          .subarray(0, 5)
          .toString(),
      ).toBe('%PDF-');
    }
  });
});
