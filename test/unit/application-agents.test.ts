import { describe, expect, it } from 'vitest';
import { createLogger, type StepHandler } from '@convo/runtime';
import { type AgentName, SessionForm } from '@convo/contract';
import { applicationDraft, applyPlan, newFormSession, type ApplicationDraft, type FormDraft } from '@convo/forms';
import { type LlmProvider, loopStepHandler, subtaskStepHandler, systemStepHandler } from '@convo/agent-kit';
import { auditorAgent } from '../../services/auditor/src/agent.js';
import { createCheckerAgent } from '../../services/checker/src/agent.js';
import { interviewerAgent } from '../../services/interviewer/src/agent.js';
import { ScriptedModel } from '../support/scripted-model.js';

/**
 * The seed 001 invariants at the agent level, with a scripted model standing
 * in for an LLM that does not follow its prompt: code, not the prompt, keeps
 * unchecked questions from the applicant and validates checker and auditor
 * verdicts.
 */
const log = createLogger('test', 'silent');

const form = SessionForm.parse({
  title: 'Engineer',
  fields: [
    { id: 'a1', fieldId: 'full_name', label: 'Full name', intent: 'Identify the applicant', required: true, sortOrder: 1 },
    { id: 'a2', fieldId: 'email', label: 'Email', intent: 'Contact the applicant', required: true, sortOrder: 2 },
  ],
  facts: [],
  compliance: { prohibitedTopics: ['hobbies outside work'] },
});

function application(): ApplicationDraft {
  const state = newFormSession({
    sessionId: 's',
    kind: 'application',
    form,
    language: 'en',
    firstAgent: 'interviewer',
    now: '2026-01-01T00:00:00.000Z',
  });
  const session = applicationDraft(state);
  applyPlan(session, {
    fields: form.fields.map((f) => ({ field_id: f.fieldId, label: f.label, intent: f.intent ?? '', required: f.required })),
  });
  return session;
}

type Models = Partial<Record<AgentName, LlmProvider>>;

/** One turn through the step handlers, each agent on its own scripted model; returns the agents that ran. */
async function turn(session: ApplicationDraft, models: Models, message: string | null = null): Promise<AgentName[]> {
  const deps = (agent: AgentName) => ({ llm: models[agent]!, model: 'scripted', maxTurns: 6 });
  const handlers: Partial<Record<AgentName, StepHandler<ApplicationDraft> | StepHandler<FormDraft>>> = {
    interviewer: loopStepHandler(interviewerAgent, deps('interviewer')),
    checker: subtaskStepHandler(createCheckerAgent({ maxRephrasings: 1 }), deps('checker')),
    auditor: systemStepHandler(auditorAgent, deps('auditor')),
  };
  if (message !== null) session.addUserMessage(message, 't', null);
  const ran: AgentName[] = [];
  for (let seq = 1; seq <= 20; seq++) {
    const agent = session.state.currentAgent;
    ran.push(agent);
    const outcome = await handlers[agent]!({ draft: session, step: { seq, agent, turnId: 't' }, turn: { turnId: 't', message }, log });
    if (outcome.kind !== 'continue') return ran;
    session.setAgent(outcome.to);
  }
  throw new Error('turn did not end');
}

const assistantTexts = (d: ApplicationDraft) => d.state.messages.filter((m) => m.role === 'assistant').map((m) => m.text);
const results = (session: ApplicationDraft, tool: string) =>
  session.runSteps.filter((s) => s.toolName === tool).map((s) => s.output as { status: string; result: { message: string } });
const check = (question: string, fieldId: string | null = 'full_name') => ({
  toolCalls: [{ name: 'subtask', arguments: { agent: 'checker', field_id: fieldId, question, note: null } }],
});
const ask = (message: string) => ({ toolCalls: [{ name: 'ask', arguments: { message } }] });
/** Several scripted models played one after another, as one model whose loop restarts across steps. */
const inSequence = (...models: ScriptedModel[]): LlmProvider => ({
  name: 'seq',
  chat: (r) => (models.find((m) => m.remaining > 0) ?? models.at(-1)!).chat(r),
});
const verdict = (passed: boolean, violations: unknown = null) => ({ toolCalls: [{ name: 'result', arguments: { passed, violations } }] });

describe('interviewer ask gate in application interviews', () => {
  it('refuses an ask whose text never passed the quick check, and nothing reaches the applicant', async () => {
    const session = application();
    // The interviewer's first attempt is refused; it then asks for a check, suspends, and asks once resumed.
    const interviewer = inSequence(
      new ScriptedModel([ask('What is your full name?'), check('What is your full name?')]),
      new ScriptedModel([ask('What is your full name?')]),
    );
    const ran = await turn(session, { interviewer, checker: new ScriptedModel([verdict(true)]) });
    expect(ran).toEqual(['interviewer', 'checker', 'interviewer']);
    expect(results(session, 'ask')[0]).toEqual({
      status: 'error',
      result: {
        message:
          'This exact message has not passed the quick check for full_name. Call subtask with agent "checker" and this text as question first.',
      },
    });
    expect(assistantTexts(session)).toEqual(['What is your full name?']);
    expect(session.state.compliance.checks).toMatchObject([{ fieldId: 'full_name', question: 'What is your full name?', passed: true }]);
  });

  it('refuses a different text than the one that passed, then lets the checked text through', async () => {
    const session = application();
    const interviewer = inSequence(
      new ScriptedModel([check('What is your full name?')]),
      new ScriptedModel([ask('What is your full name? Also, are you married?'), ask('What is your full name?')]),
    );
    await turn(session, { interviewer, checker: new ScriptedModel([verdict(true)]) });
    const asks = results(session, 'ask');
    expect(asks.map((r) => r.status)).toEqual(['error', 'success']);
    expect(assistantTexts(session)).toEqual(['What is your full name?']);
  });

  it('a question for another field than the current one cannot be checked', async () => {
    const session = application();
    const interviewer = inSequence(
      new ScriptedModel([check('What is your email?', 'email'), check('What is your full name?')]),
      new ScriptedModel([ask('What is your full name?')]),
    );
    await turn(session, { interviewer, checker: new ScriptedModel([verdict(true)]) });
    expect(results(session, 'subtask')[0]).toMatchObject({
      status: 'error',
      result: { message: 'Only questions for the current field full_name can be checked.' },
    });
    expect(session.state.compliance.checks.map((c) => c.fieldId)).toEqual(['full_name']);
    expect(assistantTexts(session)).toEqual(['What is your full name?']);
  });
});

describe('checker agent with a remote model', () => {
  it("puts the built-in topic list in both languages and the form's own topics in its prompt", async () => {
    const session = application();
    const checker = new ScriptedModel([verdict(true)]);
    await turn(session, {
      interviewer: inSequence(new ScriptedModel([check('What is your full name?')]), new ScriptedModel([ask('What is your full name?')])),
      checker,
    });
    const system = checker.requests[0]!.messages.map((message) => String(message.content)).join('\n');
    expect(system).toMatch(/"marital status" \(EEOC\) \/ 婚姻状況/);
    expect(system).toMatch(/"religion" \(MHLW, EEOC\) \/ 宗教/);
    expect(system).toMatch(/本籍・出生地/);
    expect(system).toContain('hobbies outside work');
  });

  it('validates the verdict with the QuickCheck schema: an unknown violation type is an error the model must correct', async () => {
    const session = application();
    const checker = new ScriptedModel([
      verdict(false, [{ type: 'bad_vibes', message: 'x' }]),
      verdict(false, [{ type: 'tone_violation', message: 'too casual' }]),
    ]);
    const interviewer = inSequence(
      new ScriptedModel([check('Yo, name?')]),
      new ScriptedModel([check('What is your full name?')]),
      new ScriptedModel([ask('What is your full name?')]),
    );
    await turn(session, { interviewer, checker: inSequence(checker, new ScriptedModel([verdict(true)])) });
    const verdicts = results(session, 'result');
    expect(verdicts[0]!.status).toBe('error');
    expect(verdicts[0]!.result.message).toMatch(/Invalid parameters for result/);
    expect(session.state.compliance.checks.map((c) => [c.question, c.passed])).toEqual([
      ['Yo, name?', false],
      ['What is your full name?', true],
    ]);
    expect(session.state.compliance.checks[0]!.violations).toEqual([{ type: 'tone_violation', message: 'too casual' }]);
    expect(assistantTexts(session)).toEqual(['What is your full name?']);
  });

  it('cannot pass a question on a prohibited topic: the rule floor fails it, and after the rephrasings the field is skipped unasked', async () => {
    const session = application();
    const married = 'Before your name: are you married?';
    const interviewer = inSequence(
      new ScriptedModel([check(married)]),
      new ScriptedModel([check(married)]),
      new ScriptedModel([check('What is your email?', 'email')]),
      new ScriptedModel([ask('What is your email?')]),
    );
    // A model that passes everything.
    const lenient: LlmProvider = { name: 'l', chat: (r) => new ScriptedModel([verdict(true)]).chat(r) };
    await turn(session, { interviewer, checker: lenient });
    expect(session.state.compliance.checks.map((c) => [c.fieldId, c.passed])).toEqual([
      ['full_name', false],
      ['full_name', false],
      ['email', true],
    ]);
    expect(session.state.compliance.checks[0]!.violations.map((v) => v.type)).toContain('prohibited_topic');
    expect(session.state.fields[0]).toMatchObject({ fieldId: 'full_name', status: 'skipped', skipReason: 'compliance' });
    expect(session.state.fields[1]).toMatchObject({ fieldId: 'email', status: 'interviewing' });
    expect(assistantTexts(session)).toEqual(['What is your email?']);
  });
});
