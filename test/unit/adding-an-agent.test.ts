import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_NAMES, SessionForm } from '@convo/contract';
import type { AgentDefinition, Policy } from '@convo/agent-kit';
import { runAgentLoop } from '@convo/agent-kit/internal/loop';
import { createOfflineProvider } from '@convo/agent-kit/internal/llm/offline/index';
import { createLogger } from '@convo/runtime';
import { formDraft, newFormSession, type FormDraft } from '@convo/forms';
import { REPO_ROOT } from '../support/processes.js';

/**
 * docs/adding-an-agent.md, done: its code blocks marked `file=…` are written to a scratch service
 * folder inside the repository (so they import the workspace packages as a service does) and the
 * toy agent they make runs with the offline model on a form session. The registration places the
 * guide names are checked against every agent the repository has.
 */
const GUIDE = readFileSync(join(REPO_ROOT, 'docs/adding-an-agent.md'), 'utf8');
const blocks = [...GUIDE.matchAll(/```ts file=(\S+)\n([\s\S]*?)```/g)].map((m) => ({ file: m[1]!, code: m[2]! }));
const folder = join(REPO_ROOT, '.scratch', `adding-an-agent-${process.pid}`, 'services', 'recap');

let toy: { recapAgent: AgentDefinition<FormDraft>; recapPolicy: Policy };

beforeAll(async () => {
  for (const { file, code } of blocks) {
    mkdirSync(join(folder, file, '..'), { recursive: true });
    writeFileSync(join(folder, file), code);
  }
  const agent = (await import(join(folder, 'src/agent.ts'))) as { recapAgent: AgentDefinition<FormDraft> };
  const offline = (await import(join(folder, 'src/offline.ts'))) as { recapPolicy: Policy };
  toy = { recapAgent: agent.recapAgent, recapPolicy: offline.recapPolicy };
});
afterAll(() => rmSync(join(folder, '..', '..'), { recursive: true, force: true }));

const FORM = SessionForm.parse({
  title: 'Bike repair',
  fields: [
    { id: 'f1', fieldId: 'name', label: 'Full name', intent: null, required: true, sortOrder: 1 },
    { id: 'f2', fieldId: 'bike', label: 'Bike model', intent: null, required: true, sortOrder: 2 },
    { id: 'f3', fieldId: 'notes', label: 'Notes', intent: null, required: false, sortOrder: 3 },
  ],
  facts: [],
});

function settledSession(language: 'en' | 'ja'): FormDraft {
  const state = newFormSession({
    sessionId: 's1',
    kind: 'form',
    form: FORM,
    language,
    firstAgent: 'interviewer',
    now: '2026-01-01T00:00:00.000Z',
  });
  const draft = formDraft(state, true);
  draft.setFieldValue('name', 'Aiko Tanaka');
  draft.setFieldStatus('name', 'done');
  draft.setFieldValue('bike', 'Brompton C-line');
  draft.setFieldStatus('bike', 'done');
  draft.setFieldStatus('notes', 'skipped');
  return draft;
}

const run = (draft: FormDraft, policy: Policy) =>
  runAgentLoop({
    agent: toy.recapAgent as unknown as AgentDefinition,
    draft,
    llm: createOfflineProvider({ policies: { ['recap' as never]: policy } }),
    model: 'offline',
    maxTurns: 4,
    turn: { turnId: 't1', message: null },
    runStepPrefix: 'rs-1',
    log: createLogger('test', 'silent'),
  });

describe('docs/adding-an-agent.md', () => {
  it('gives every file of the toy agent, in the order of a service folder', () => {
    expect(blocks.map((block) => block.file)).toEqual(['src/prompt.ts', 'src/context.ts', 'src/agent.ts', 'src/offline.ts', 'src/main.ts']);
  });

  it('makes an agent that sends the recap of the answers through its tool, records the run step and hands back to the interviewer', async () => {
    const draft = settledSession('en');
    const result = await run(draft, toy.recapPolicy);
    expect(result).toEqual({ kind: 'completed', completion: { type: 'handoff', to: 'interviewer' } });
    const sent = draft.state.messages.filter((message) => message.role === 'assistant');
    expect(sent.map((message) => [message.agent, message.text])).toEqual([
      ['recap', 'Here is what you told us:\nFull name: Aiko Tanaka\nBike model: Brompton C-line'],
    ]);
    expect(draft.runSteps.map((step) => [step.toolName, step.output])).toEqual([
      ['recap', { status: 'success', result: { message: 'Recap sent.' } }],
    ]);
  });

  it('makes a tool that refuses a recap leaving an answer out, and says which', async () => {
    const draft = settledSession('ja');
    let attempts = 0;
    // A model that first forgets the bike, then follows the tool's answer.
    const forgetful: Policy = (req, tail) => {
      attempts += 1;
      if (attempts === 1) return { call: { name: 'recap', args: { message: '氏名: Aiko Tanaka' } } };
      expect(tail.at(-1)).toMatchObject({ status: 'error', result: { message: 'The recap leaves out: Bike model.' } });
      return toy.recapPolicy(req, tail);
    };
    await run(draft, forgetful);
    expect(draft.runSteps.map((step) => (step.output as { status: string }).status)).toEqual(['error', 'success']);
    expect(draft.state.messages.filter((message) => message.role === 'assistant').map((message) => message.text)).toEqual([
      'ご回答の内容です。\nFull name: Aiko Tanaka\nBike model: Brompton C-line',
    ]);
  });

  it("gives a main.ts of the same shape as a real agent's", () => {
    const toyMain = blocks.find((block) => block.file === 'src/main.ts')!.code;
    const architectMain = readFileSync(join(REPO_ROOT, 'services/architect/src/main.ts'), 'utf8');
    const same = (code: string) => code.replace(/\s+/g, ' ').trim();
    expect(same(toyMain)).toBe(same(architectMain.replaceAll('architect', 'recap')));
  });
});

describe('every agent is registered where docs/adding-an-agent.md says', () => {
  const read = (path: string) => readFileSync(join(REPO_ROOT, path), 'utf8');
  const dockerfile = read('Dockerfile');
  const compose = read('docker-compose.yml');
  const architecture = read('docs/architecture.md');

  it.each(AGENT_NAMES)('%s', (agent) => {
    for (const file of ['package.json', 'README.md', 'src/main.ts', 'src/agent.ts', 'src/offline.ts'])
      expect(existsSync(join(REPO_ROOT, 'services', agent, file)), `services/${agent}/${file}`).toBe(true);
    expect(dockerfile).toContain(`COPY services/${agent}/package.json services/${agent}/`);
    expect(compose).toContain(`command: ['services/${agent}/dist/main.js']`);
    expect(architecture).toMatch(new RegExp(`^\\| ${agent} \\|`, 'm'));
    // Its README names the product packages it depends on, and every repository path it names exists.
    const readme = read(`services/${agent}/README.md`);
    const manifest = JSON.parse(read(`services/${agent}/package.json`)) as { dependencies?: Record<string, string> };
    for (const product of ['forms', 'faq', 'workbench'])
      if (manifest.dependencies?.[`@convo/${product}`])
        expect(readme, `${agent} README names shared/${product}`).toContain(`shared/${product}/`);
    for (const [, path] of readme.matchAll(/`((?:shared|services|packages)\/[^`\s]+)`/g))
      expect(existsSync(join(REPO_ROOT, path!)), `${agent} README: ${path}`).toBe(true);
  });
});
