import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, createAskTool, createTool, success } from '@convo/agent-kit';
import { createLogger, MaxTurnsExceededError, SessionDraft } from '@convo/runtime';
import { runAgentLoop } from '@convo/agent-kit/internal/loop';
import { newFormSession } from '@convo/forms';
import { ScriptedModel } from '../support/scripted-model.js';

const log = createLogger('test', 'silent');

function draft() {
  return new SessionDraft(
    newFormSession({ sessionId: 's1', kind: 'form', form: null, language: null, firstAgent: 'greeter', now: '2026-01-01T00:00:00.000Z' }),
  );
}

const setLanguage = createTool({
  name: 'set_language',
  description: 'set language',
  schema: z.object({ language: z.enum(['ja', 'en']) }),
  execute: (args, { draft: session }) => {
    session.setLanguage(args.language);
    return { result: success(`Language set to ${args.language}`) };
  },
});

const agent = createAgent({
  name: 'greeter',
  tools: [createAskTool(), setLanguage],
  instructions: () => 'test agent',
  context: (d) => ({ language: d.state.bootstrap.language }),
  remainingTasks: (d) => (d.state.bootstrap.language ? [] : ['Set the user language using set_language']),
  completion: () => null,
});

const run = (model: ScriptedModel, session = draft(), maxTurns = 10) =>
  runAgentLoop({
    agent,
    draft: session,
    llm: model,
    model: 'm',
    maxTurns,
    turn: { turnId: 't1', message: 'hi' },
    runStepPrefix: 'rs-1',
    log,
  });

describe('agent loop', () => {
  it('ends at ask and records a run step for every tool execution', async () => {
    const model = new ScriptedModel([
      { toolCalls: [{ name: 'set_language', arguments: { language: 'en' } }] },
      { toolCalls: [{ name: 'ask', arguments: { message: 'Which country?' } }] },
    ]);
    const session = draft();
    const result = await run(model, session);
    expect(result.kind).toBe('ask');
    expect(session.state.bootstrap.language).toBe('en');
    expect(session.runSteps.map((s) => [s.toolName, s.input])).toEqual([
      ['set_language', { language: 'en' }],
      ['ask', { message: 'Which country?' }],
    ]);
    expect(session.runSteps[0]?.output).toEqual({ status: 'success', result: { message: 'Language set to en' } });
    expect(session.events.map((e) => e.type)).toEqual(['state.changed', 'message']);
    // the tool result went back to the model before its second call
    const second = model.requests[1]!.messages;
    expect(second.at(-1)).toMatchObject({ role: 'tool', name: 'set_language' });
  });

  it('feeds malformed arguments back to the model as an error result instead of failing', async () => {
    const model = new ScriptedModel([
      { toolCalls: [{ name: 'set_language', arguments: '{"language": ' }] },
      { toolCalls: [{ name: 'set_language', arguments: { language: 42 } }] },
      { toolCalls: [{ name: 'ask', arguments: { message: 'ok' } }] },
    ]);
    const session = draft();
    await run(model, session);
    const results = model.requests.slice(1).map((r) => JSON.parse((r.messages.at(-1) as { content: string }).content));
    expect(results[0]).toMatchObject({ status: 'error', result: { message: expect.stringMatching(/Invalid JSON for set_language/) } });
    expect(results[1]).toMatchObject({
      status: 'error',
      result: { message: expect.stringMatching(/Invalid parameters for set_language: language/) },
    });
    expect(session.runSteps[0]?.input).toBe('{"language": ');
  });

  it('injects "You still need to" when the model answers without a tool call', async () => {
    const model = new ScriptedModel([
      { content: 'Hello there!' },
      { toolCalls: [{ name: 'set_language', arguments: { language: 'ja' } }] },
      { toolCalls: [{ name: 'ask', arguments: { message: 'どちらにお住まいですか？' } }] },
    ]);
    await run(model);
    const injected = model.requests[1]!.messages.at(-1);
    expect(injected).toEqual({ role: 'user', content: 'You still need to: Set the user language using set_language' });
  });

  it('throws MaxTurnsExceededError after maxTurns model calls', async () => {
    const model = new ScriptedModel(Array.from({ length: 3 }, () => ({ content: 'thinking…' })));
    await expect(run(model, draft(), 3)).rejects.toBeInstanceOf(MaxTurnsExceededError);
    expect(model.requests).toHaveLength(3);
  });

  it('answers an unknown tool with an error result listing the available tools', async () => {
    const model = new ScriptedModel([
      { toolCalls: [{ name: 'delete_everything', arguments: {} }] },
      { toolCalls: [{ name: 'ask', arguments: { message: 'ok' } }] },
    ]);
    await run(model);
    const res = JSON.parse((model.requests[1]!.messages.at(-1) as { content: string }).content);
    expect(res.result.message).toMatch(/Unknown tool delete_everything\. Available: ask, set_language/);
  });
});
