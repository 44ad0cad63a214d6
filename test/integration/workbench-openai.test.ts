import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { Api, type Json } from '../support/api.js';
import { startFakeOpenAi } from '../support/fake-openai.js';
import { startStack, type Stack } from '../support/processes.js';

/**
 * The workbench with LLM_PROVIDER=openai against a fake OpenAI-compatible
 * server over real HTTP: the model generates the worksheet (checked, fixed,
 * faulty problems asked for again) and chooses the agent's tools in the
 * seed's two cases.
 */
let stack: Stack;
let fake: Awaited<ReturnType<typeof startFakeOpenAi>>;
let api: Api;

beforeAll(async () => {
  fake = await startFakeOpenAi();
  const id = randomUUID().slice(0, 8);
  stack = await startStack({
    env: {
      REDIS_URL: inject('redisUrl'),
      KEY_PREFIX: `wbo-${id}`,
      QUEUE_PREFIX: `{wbo-${id}}`,
      LLM_PROVIDER: 'openai',
      OPENAI_BASE_URL: fake.url,
      OPENAI_API_KEY: 'sk-test',
      WORKBENCH_MODEL: 'workbench-model',
      LLM_MAX_RETRIES: '1',
      JOB_ATTEMPTS: '1',
    },
    services: ['workbench'],
  });
  api = new Api(stack.url);
});
afterAll(async () => {
  await stack?.stop();
  await fake?.close();
});

const call = (name: string, args: unknown) => ({ toolCalls: [{ name, arguments: JSON.stringify(args) }] });

/** Seven multiple-choice problems and three written ones, as a model would submit them. */
function modelWorksheet(): Json[] {
  const choice = (a: number, b: number, mark: number | null = null) => {
    const answer = a + b;
    const choices = [String(answer), String(answer + 1), String(answer - 1), String(answer + 10)];
    return {
      type: 'multiple_choice',
      prompt: `What is ${a} + ${b}?`,
      choices,
      correct_choice_index: mark ?? 0,
      model_answer: null,
      rubric: null,
      explanation: `${a} + ${b} = ${answer}.`,
    };
  };
  return [
    choice(3, 4),
    // Marked wrong: the auto-fixer re-marks it.
    choice(5, 6, 2),
    choice(7, 8),
    choice(9, 1),
    // A capital question with a duplicate choice: no automatic fix, so it is asked for again.
    {
      type: 'multiple_choice',
      prompt: 'Which city is the capital of France?',
      choices: ['Paris', 'Lyon', 'Lyon', 'Nice'],
      correct_choice_index: 0,
      model_answer: null,
      rubric: null,
      explanation: 'Paris is the capital of France.',
    },
    choice(12, 13),
    choice(20, 22),
    {
      type: 'written',
      prompt: 'What is 6 + 7? Show your working.',
      choices: null,
      correct_choice_index: null,
      model_answer: '6 + 7 = 13',
      rubric: ['adds correctly', 'answer 13'],
      explanation: '6 + 7 = 13.',
    },
    {
      type: 'written',
      prompt: 'What is 15% of 80?',
      choices: null,
      correct_choice_index: null,
      model_answer: '80 × 0.15 = 12',
      rubric: ['multiplies by 0.15', 'answer 12'],
      explanation: '80 × 15/100 = 12.',
    },
    {
      type: 'written',
      prompt: 'Solve for x: 2x + 3 = 11.',
      choices: null,
      correct_choice_index: null,
      model_answer: 'x = 4',
      rubric: ['subtracts 3', 'divides by 2', 'x = 4'],
      explanation: '2x = 8, so x = 4.',
    },
  ];
}

let sheet: Json;

describe('the workbench on a remote model', () => {
  it('generates the worksheet with the model: validated, the wrong mark fixed, the faulty problem asked for again', async () => {
    fake.enqueue(
      call('submit_worksheet', { problems: modelWorksheet() }),
      call('submit_problems', {
        problems: [
          {
            index: 5,
            type: 'multiple_choice',
            prompt: 'Which city is the capital of France?',
            choices: ['Paris', 'Lyon', 'Marseille', 'Nice'],
            correct_choice_index: 0,
            model_answer: null,
            rubric: null,
            explanation: 'Paris is the capital of France.',
          },
        ],
      }),
    );
    const created = await api.call('POST', '/api/worksheets', { body: { subject: 'Arithmetic', difficulty: 'easy', language: 'en' } });
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    sheet = created.json;
    expect(sheet.problems).toHaveLength(10);
    expect(sheet.problems[1].correctChoiceIndex).toBe(0);
    expect(sheet.problems[4].choices).toEqual(['Paris', 'Lyon', 'Marseille', 'Nice']);
    expect(fake.pending()).toBe(0);
    // The generation request offered the tool with its JSON Schema and the model configured for the agent.
    expect(fake.requests[0]!.body.model).toBe('workbench-model');
    expect(fake.requests[0]!.body.tools[0].function.name).toBe('submit_worksheet');
    const validation = await api.call('POST', `/api/worksheets/${sheet.worksheetId}/validate`, { token: sheet.editToken });
    expect(validation.json.problems.every((problem: Json) => problem.isValid)).toBe(true);
  });

  it('case 1 on the model: 「問題文をもっと具体的にして」 → editor, consistency_checker, quality_scorer, then its summary', async () => {
    const problem = sheet.problems[0];
    const specific = 'What is 3 + 4? Give the answer as a whole number.';
    fake.enqueue(
      call('editor', { field: 'prompt', instruction: 'make the prompt more specific', new_value: specific, intent: null }),
      call('consistency_checker', {}),
      call('quality_scorer', {}),
      call('ask', { message: 'I made the question state the answer form; it is consistent.' }),
    );
    const answer = await api.call('POST', `/api/problems/${problem.id}/agent`, {
      token: sheet.editToken,
      body: { request: '問題文をもっと具体的にして' },
    });
    expect(answer.status, JSON.stringify(answer.json)).toBe(200);
    expect(answer.json.after.problem.prompt).toBe(specific);
    expect(answer.json.after.consistency.isConsistent).toBe(true);
    expect(answer.json.actions.map((action: Json) => action.tool)).toEqual(['editor', 'consistency_checker', 'quality_scorer', 'ask']);
    expect(answer.json.message).toMatch(/consistent/);
    // Tool results went back to the model as tool messages.
    const last = fake.requests.at(-1)!.body.messages;
    expect(last.filter((message: Json) => message.role === 'tool')).toHaveLength(3);
  });

  it('case 2 on the model: "improve this problem" → score, suggestions, an edit the checker breaks and the fixer repairs, score again', async () => {
    const problem = sheet.problems[2];
    fake.enqueue(
      call('quality_scorer', {}),
      call('suggestion_generator', {}),
      // The model's new explanation contradicts the answer (15): the checker says so and the fixer rewrites it.
      call('editor', { field: 'explanation', instruction: 'explain the working', new_value: 'Add the ones: 7 + 8 = 16.', intent: null }),
      call('consistency_checker', {}),
      call('auto_fixer', {}),
      call('consistency_checker', {}),
      call('quality_scorer', {}),
      call('ask', { message: 'Improved the explanation and fixed its result.' }),
    );
    const answer = await api.call('POST', `/api/problems/${problem.id}/agent`, {
      token: sheet.editToken,
      body: { request: 'Improve this problem' },
    });
    expect(answer.status, JSON.stringify(answer.json)).toBe(200);
    expect(answer.json.actions.map((action: Json) => action.tool)).toEqual([
      'quality_scorer',
      'suggestion_generator',
      'editor',
      'consistency_checker',
      'auto_fixer',
      'consistency_checker',
      'quality_scorer',
      'ask',
    ]);
    const checks = answer.json.actions.filter((action: Json) => action.tool === 'consistency_checker');
    // For the teacher: the checker's finding, then that nothing is left.
    expect(checks[0].summary).toMatch(/working gives "16"/);
    expect(checks[1].summary).toBe('No consistency issues.');
    expect(answer.json.after.consistency.isConsistent).toBe(true);
    expect(answer.json.after.problem.explanation).toMatch(/15/);
    expect(answer.json.changed).toEqual(['explanation']);
  });
});
