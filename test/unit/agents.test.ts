import { describe, expect, it } from 'vitest';
import { type AgentDefinition, type LlmProvider, loopStepHandler, subtaskStepHandler } from '@convo/agent-kit';
import { type AgentName, createLogger, SessionDraft, SessionForm, type StepHandler, type FormDraft } from '@convo/runtime';
import { runAgentLoop } from '@convo/agent-kit/internal/loop';
import { currentField, newFormSession } from '@convo/forms';
import { offlineProvider } from '../support/offline-policies.js';
import { architectAgent } from '../../services/architect/src/agent.js';
import { greeterAgent } from '../../services/greeter/src/agent.js';
import { interviewerAgent } from '../../services/interviewer/src/agent.js';
import { createReviewerAgent } from '../../services/reviewer/src/agent.js';
import { ScriptedModel } from '../support/scripted-model.js';
import { arrange } from '../support/arrange.js';

const NOW = '2026-01-01T00:00:00.000Z';
const log = createLogger('test', 'silent');

const form = SessionForm.parse({
  title: 'Signup',
  fields: [
    { id: 'f-comments', fieldId: 'comments', label: 'Comments', required: false, sortOrder: 0 },
    { id: 'f-email', fieldId: 'email', label: 'Email', intent: 'Send the ticket', required: true, sortOrder: 1 },
    { id: 'f-name', fieldId: 'full_name', label: 'Full name', intent: 'Put you on the guest list', required: true, sortOrder: 2 },
  ],
  facts: [{ id: 'k-email', formFieldId: 'f-email', factKey: 'email', fact: 'Email address' }],
});

function draft(opts: { language?: 'ja' | 'en' | null; firstAgent?: AgentName } = {}): FormDraft {
  const state = newFormSession({
    sessionId: 's1',
    kind: 'form',
    form,
    language: opts.language ?? null,
    firstAgent: opts.firstAgent ?? 'greeter',
    now: NOW,
  });
  return new SessionDraft(state, () => new Date(NOW));
}

let turnNo = 0;

/** One run of an agent's loop for a turn, the respondent's message (if any) added first as the step runner does. */
function run(agent: AgentDefinition, d: FormDraft, message: string | null, llm: LlmProvider = offlineProvider()) {
  const turnId = `t${++turnNo}`;
  if (message !== null) d.addUserMessage(message, turnId, null);
  return runAgentLoop({ agent, draft: d, llm, model: 'offline', maxTurns: 10, turn: { turnId, message }, runStepPrefix: `rs-${turnNo}`, log });
}

const lastAssistant = (d: FormDraft) => d.state.messages.filter((m) => m.role === 'assistant').at(-1)?.text ?? '';
const toolResults = (d: FormDraft, name: string) =>
  d.runSteps.filter((s) => s.toolName === name).map((s) => s.output as { status: string; result: { message: string } });
const stateChangeTypes = (d: FormDraft) => d.events.flatMap((e) => (e.type === 'state.changed' ? [e.data.type] : []));

describe('greeter agent (offline model)', () => {
  it('settles language, country and time zone for "English please" then "I live in Japan" and hands off to the architect', async () => {
    const d = draft();
    expect(await run(greeterAgent, d, null)).toEqual({ kind: 'ask' });
    expect(lastAssistant(d)).toMatch(/Japanese or English/);

    expect(await run(greeterAgent, d, 'English please')).toEqual({ kind: 'ask' });
    expect(d.state.bootstrap.language).toBe('en');
    expect(lastAssistant(d)).toMatch(/^Which country do you currently live in\?/);

    expect(await run(greeterAgent, d, 'I live in Japan')).toEqual({ kind: 'completed', completion: { type: 'handoff', to: 'architect' } });
    expect(d.state.bootstrap).toMatchObject({ language: 'en', country: 'JP', timezone: 'Asia/Tokyo', timezoneAsked: false });
    expect(d.runSteps.map((s) => s.toolName)).toEqual(['ask', 'set_language', 'ask', 'set_country', 'set_timezone']);
    expect(d.stateChanges.map((c) => c.type)).toEqual([
      'ADD_ASSISTANT_MESSAGE',
      'ADD_USER_MESSAGE',
      'SET_LANGUAGE',
      'ADD_ASSISTANT_MESSAGE',
      'ADD_USER_MESSAGE',
      'SET_COUNTRY',
      'SET_TIMEZONE',
    ]);
    expect(d.events.at(-1)).toEqual({ type: 'state.changed', data: { type: 'SET_TIMEZONE', payload: { timezone: 'Asia/Tokyo', source: 'single' } } });
  });

  it('in Japanese: "日本語" then "東京に住んでいます" sets ja, JP and Asia/Tokyo from the city', async () => {
    const d = draft();
    await run(greeterAgent, d, null);
    expect(await run(greeterAgent, d, '日本語')).toEqual({ kind: 'ask' });
    expect(lastAssistant(d)).toMatch(/^現在お住まいの国を教えていただけますか？/);
    expect((await run(greeterAgent, d, '東京に住んでいます')).kind).toBe('completed');
    expect(d.state.bootstrap).toMatchObject({ language: 'ja', country: 'JP', timezone: 'Asia/Tokyo' });
    expect(d.runSteps.find((s) => s.toolName === 'set_timezone')?.input).toEqual({ timezone: null, hint: '東京に住んでいます' });
  });

  it('asks once for the city in Canada, then falls back to Asia/Tokyo when the second answer names no city', async () => {
    const d = draft({ language: 'en' });
    expect(await run(greeterAgent, d, 'I live in Canada')).toEqual({ kind: 'ask' });
    expect(d.state.bootstrap).toMatchObject({ country: 'CA', timezone: null, timezoneAsked: true });
    expect(lastAssistant(d)).toMatch(/^Canada has several time zones/);

    expect(await run(greeterAgent, d, "I'd rather not say")).toEqual({ kind: 'completed', completion: { type: 'handoff', to: 'architect' } });
    expect(d.state.bootstrap.timezone).toBe('Asia/Tokyo');
    expect(d.events.at(-1)).toEqual({ type: 'state.changed', data: { type: 'SET_TIMEZONE', payload: { timezone: 'Asia/Tokyo', source: 'fallback' } } });
    const timezoneQuestions = d.state.messages.filter((m) => m.role === 'assistant' && /several time zones/.test(m.text));
    expect(timezoneQuestions).toHaveLength(1);
  });

  it('sets the zone of the city named in the answer to the Canada question', async () => {
    const d = draft({ language: 'en' });
    await run(greeterAgent, d, 'I live in Canada');
    expect((await run(greeterAgent, d, 'Vancouver')).kind).toBe('completed');
    expect(d.state.bootstrap.timezone).toBe('America/Vancouver');
    expect(d.events.at(-1)).toMatchObject({ data: { payload: { source: 'city' } } });
  });

  it.each(['Atlantis', 'ZZ'])('set_country %j returns an error result and leaves the state unchanged', async (country) => {
    const d = draft({ language: 'en' });
    const model = new ScriptedModel([
      { toolCalls: [{ name: 'set_country', arguments: { country } }] },
      { toolCalls: [{ name: 'ask', arguments: { message: 'Which country?' } }] },
    ]);
    expect(await run(greeterAgent, d, country, model)).toEqual({ kind: 'ask' });
    const [result] = toolResults(d, 'set_country');
    expect(result).toEqual({ status: 'error', result: { message: `Unknown country "${country}". Ask the respondent again.` } });
    expect(d.state.bootstrap.country).toBeNull();
    expect(stateChangeTypes(d)).not.toContain('SET_COUNTRY');
    // The error went back to the model before its next call.
    expect(model.requests[1]!.messages.at(-1)).toMatchObject({ role: 'tool', name: 'set_country' });
    expect(JSON.parse((model.requests[1]!.messages.at(-1) as { content: string }).content)).toMatchObject({ status: 'error' });
  });

  it('refuses a language the interview cannot be held in', async () => {
    const d = draft();
    const model = new ScriptedModel([
      { toolCalls: [{ name: 'set_language', arguments: { language: 'fr' } }] },
      { toolCalls: [{ name: 'ask', arguments: { message: 'Japanese or English?' } }] },
    ]);
    await run(greeterAgent, d, 'français', model);
    expect(toolResults(d, 'set_language')[0]?.status).toBe('error');
    expect(d.state.bootstrap.language).toBeNull();
  });
});

describe('architect agent', () => {
  const planOf = (...ids: string[]) => ({
    fields: ids.map((id) => {
      const f = form.fields.find((x) => x.fieldId === id)!;
      return { field_id: id, label: f.label, intent: f.intent ?? f.label, required: f.required };
    }),
  });

  it("rejects a plan missing a field and accepts the model's corrected second call", async () => {
    const d = draft({ language: 'en', firstAgent: 'architect' });
    const model = new ScriptedModel([
      { toolCalls: [{ name: 'create_plan', arguments: planOf('email', 'full_name') }] },
      { toolCalls: [{ name: 'create_plan', arguments: planOf('full_name', 'email', 'comments') }] },
    ]);
    const r = await run(architectAgent, d, null, model);
    expect(r).toEqual({ kind: 'completed', completion: { type: 'handoff', to: 'interviewer' } });
    const [rejected, accepted] = toolResults(d, 'create_plan');
    expect(rejected).toEqual({
      status: 'error',
      result: { message: 'Plan rejected: the plan is missing fields: comments. Include every field exactly once.' },
    });
    expect(accepted).toEqual({ status: 'success', result: { message: 'Plan saved with 3 fields.' } });
    // The rejection reached the model, and only the corrected plan was stored.
    expect(JSON.parse((model.requests[1]!.messages.at(-1) as { content: string }).content)).toMatchObject({ status: 'error' });
    expect(d.state.plan).toEqual(planOf('full_name', 'email', 'comments'));
    expect(d.state.fields.map((f) => f.fieldId)).toEqual(['full_name', 'email', 'comments']);
    expect(stateChangeTypes(d)).toEqual(['PLAN_CREATED']);
  });

  it('rejects a plan that lists a field twice without storing anything', async () => {
    const d = draft({ language: 'en', firstAgent: 'architect' });
    const model = new ScriptedModel([
      { toolCalls: [{ name: 'create_plan', arguments: planOf('email', 'email', 'full_name', 'comments') }] },
      { content: 'I give up.' },
      { toolCalls: [{ name: 'create_plan', arguments: planOf('email', 'full_name', 'comments') }] },
    ]);
    await run(architectAgent, d, null, model);
    expect(toolResults(d, 'create_plan')[0]?.result.message).toMatch(/field_id email appears twice/);
    // Answering without a tool call while the plan is missing brings the remaining task back.
    expect(model.requests[2]!.messages.at(-1)).toEqual({ role: 'user', content: 'You still need to: Create the interview plan using create_plan' });
    expect(stateChangeTypes(d)).toEqual(['PLAN_CREATED']);
  });

  it('with the offline model, plans required fields first and hands off to the interviewer', async () => {
    const d = draft({ language: 'en', firstAgent: 'architect' });
    expect(await run(architectAgent, d, null)).toEqual({ kind: 'completed', completion: { type: 'handoff', to: 'interviewer' } });
    expect(d.state.fields.map((f) => f.fieldId)).toEqual(['email', 'full_name', 'comments']);
  });
});

/** A session whose plan is in place, the interviewer in charge. */
async function planned(language: 'ja' | 'en' = 'en'): Promise<FormDraft> {
  const d = draft({ language, firstAgent: 'architect' });
  d.setCountry('JP');
  d.setTimezone('Asia/Tokyo', 'single');
  await run(architectAgent, d, null);
  d.setAgent('interviewer');
  d.events.length = 0;
  return d;
}

describe('interviewer agent', () => {
  it('refuses to review a field that is not the current one', async () => {
    const d = await planned();
    d.addAssistantMessage('interviewer', 'Your email?', 't0', 'email');
    d.addUserMessage('ann@example.com', 't0', 'email');
    const model = new ScriptedModel([
      { toolCalls: [{ name: 'subtask', arguments: { agent: 'reviewer', field_id: 'full_name', question: null, note: null } }] },
      { toolCalls: [{ name: 'ask', arguments: { message: 'Your email again?' } }] },
    ]);
    expect(await run(interviewerAgent, d, null, model)).toEqual({ kind: 'ask' });
    expect(toolResults(d, 'subtask')).toEqual([
      { status: 'error', result: { message: 'Only the current field email can be reviewed, not full_name.' } },
    ]);
    expect(d.state.fields.map((f) => f.status)).not.toContain('reviewing');
    expect(d.state.loop).toBeNull();
  });

  it('refuses to review before the respondent answered the current field', async () => {
    const d = await planned();
    const model = new ScriptedModel([
      { toolCalls: [{ name: 'subtask', arguments: { agent: 'reviewer', field_id: 'email', question: null, note: null } }] },
      { toolCalls: [{ name: 'ask', arguments: { message: 'Could you tell me your email?' } }] },
    ]);
    expect(await run(interviewerAgent, d, null, model)).toEqual({ kind: 'ask' });
    expect(toolResults(d, 'subtask')).toEqual([
      { status: 'error', result: { message: 'The respondent has not been asked about email yet: ask about Email with ask.' } },
    ]);
    // The question that followed belongs to the current field, which is now being interviewed.
    expect(d.state.messages.at(-1)).toMatchObject({ role: 'assistant', agent: 'interviewer', fieldId: 'email' });
    expect(d.state.fields[0]).toMatchObject({ fieldId: 'email', status: 'interviewing' });
  });

  it('suspends on subtask(reviewer) once the current field was answered, marking it reviewing', async () => {
    const d = await planned();
    d.addAssistantMessage('interviewer', 'Your email?', 't0', 'email');
    d.addUserMessage('ann@example.com', 't0', 'email');
    const r = await run(interviewerAgent, d, null);
    expect(r.kind).toBe('suspend');
    if (r.kind !== 'suspend') return;
    expect(r.checkpoint).toMatchObject({ agent: 'interviewer', subAgent: 'reviewer', pendingCall: { name: 'subtask' } });
    expect(JSON.parse(r.checkpoint.pendingCall.arguments)).toEqual({ agent: 'reviewer', field_id: 'email', question: null, note: null });
    expect(d.state.fields[0]).toMatchObject({ fieldId: 'email', status: 'reviewing' });
    // A suspended call has no run step until its result arrives.
    expect(d.runSteps.map((s) => s.toolName)).not.toContain('subtask');
  });
});

/** The draft as the reviewer finds it: the interviewer suspended on subtask(reviewer) for the current field. */
async function underReview(answers: string[]): Promise<{ d: FormDraft; callId: string }> {
  const d = await planned();
  d.addAssistantMessage('interviewer', 'Your email?', 't0', 'email');
  for (const a of answers) d.addUserMessage(a, 't0', 'email');
  const r = await run(interviewerAgent, d, null);
  if (r.kind !== 'suspend') throw new Error(`expected the interviewer to suspend, got ${r.kind}`);
  d.setLoop(r.checkpoint);
  d.setAgent('reviewer');
  d.events.length = 0;
  return { d, callId: r.checkpoint.pendingCall.id };
}

const verdict = (over: Record<string, unknown>) => ({
  passed: true,
  feedback: null,
  missing_facts: null,
  extracted_facts: null,
  field_value: null,
  skipped: null,
  ...over,
});

describe('reviewer agent', () => {
  const reviewer = createReviewerAgent({ maxFollowUps: 3 });

  it('does not let the model skip a required field: a claimed skipped: true becomes a fail with a follow-up', async () => {
    const { d, callId } = await underReview(['skip']);
    const model = new ScriptedModel([{ toolCalls: [{ name: 'review', arguments: verdict({ passed: true, skipped: true }) }] }]);
    expect(await run(reviewer, d, null, model)).toEqual({ kind: 'completed', completion: { type: 'return' } });
    const handed = d.state.subSessionResults[callId] as { status: string; result: { reviewerAgentOutput: Record<string, unknown> } };
    expect(handed.status).toBe('success');
    expect(handed.result.reviewerAgentOutput).toMatchObject({
      fieldId: 'email',
      outcome: 'follow_up',
      passed: false,
      skipped: false,
      feedback: 'This field is required and cannot be skipped.',
    });
    expect(d.state.fields[0]).toMatchObject({ fieldId: 'email', status: 'interviewing', followUps: 1, skipReason: null, value: null });
    expect(d.events[0]).toEqual({
      type: 'review',
      data: { fieldId: 'email', passed: false, missingFacts: [], feedback: 'This field is required and cannot be skipped.' },
    });
  });

  it('lets the model skip a declined optional field', async () => {
    const { d, callId } = await underReview(['ann@example.com']);
    // Move the review to the optional field: the respondent declined it.
    arrange(d, (state) => (state.fields[0]!.status = 'done'));
    d.setCurrentFieldIndex(d.state.fields.findIndex((f) => f.fieldId === 'comments'));
    d.addUserMessage('no thanks', 't0', 'comments');
    arrange(d, (state) => (state.loop!.pendingCall.arguments = JSON.stringify({ agent: 'reviewer', field_id: 'comments', question: null, note: null })));
    const model = new ScriptedModel([{ toolCalls: [{ name: 'review', arguments: verdict({ passed: true, skipped: true }) }] }]);
    await run(reviewer, d, null, model);
    expect((d.state.subSessionResults[callId] as { result: { reviewerAgentOutput: unknown } }).result.reviewerAgentOutput).toMatchObject({
      fieldId: 'comments',
      outcome: 'skipped',
    });
    expect(currentField(d.state)?.field.fieldId).not.toBe('comments');
  });

  it('records one verdict per pending call and refuses a second one', async () => {
    const { d, callId } = await underReview(['ann@example.com']);
    const model = new ScriptedModel([
      {
        toolCalls: [
          { name: 'review', arguments: verdict({ field_value: 'ann@example.com' }) },
          { name: 'review', arguments: verdict({ passed: false }) },
        ],
      },
    ]);
    await run(reviewer, d, null, model);
    expect(toolResults(d, 'review').map((r) => r.status)).toEqual(['success', 'error']);
    expect((d.state.subSessionResults[callId] as { result: { reviewerAgentOutput: unknown } }).result.reviewerAgentOutput).toMatchObject({
      outcome: 'done',
      passed: true,
    });
    expect(d.state.fields[0]).toMatchObject({ fieldId: 'email', status: 'done', value: 'ann@example.com' });
  });
});

/**
 * The step runner without Redis: adds the respondent's message (tied to the
 * current field once the interviewer runs), then runs each agent's step
 * handler and follows `continue` until the turn ends.
 */
async function turn(d: FormDraft, message: string | null): Promise<AgentName[]> {
  const llm = offlineProvider();
  const deps = { llm, model: 'offline', maxTurns: 10 };
  const handlers: Partial<Record<AgentName, StepHandler>> = {
    greeter: loopStepHandler(greeterAgent, deps),
    architect: loopStepHandler(architectAgent, deps),
    interviewer: loopStepHandler(interviewerAgent, deps),
    reviewer: subtaskStepHandler(createReviewerAgent({ maxFollowUps: 2 }), deps),
  };
  const turnId = `t${++turnNo}`;
  if (message !== null) {
    const onField = d.state.plan && d.state.currentAgent === 'interviewer' ? currentField(d.state) : null;
    d.addUserMessage(message, turnId, onField?.field.fieldId ?? null);
  }
  const ran: AgentName[] = [];
  for (let seq = 1; seq <= 20; seq++) {
    const agent = d.state.currentAgent;
    ran.push(agent);
    const outcome = await handlers[agent]!({ draft: d, step: { seq, agent, turnId }, turn: { turnId, message }, log });
    if (outcome.kind !== 'continue') return ran;
    d.setAgent(outcome.to);
  }
  throw new Error('turn did not end');
}

describe('a whole interview with the offline model', () => {
  it('greets, plans, asks, follows up on a missing fact, and completes with every required field collected', async () => {
    const d = draft();
    expect(await turn(d, null)).toEqual(['greeter']);
    expect(await turn(d, 'English please')).toEqual(['greeter']);
    expect(await turn(d, 'I live in Japan')).toEqual(['greeter', 'architect', 'interviewer']);
    expect(d.state.plan?.fields.map((f) => f.field_id)).toEqual(['email', 'full_name', 'comments']);
    expect(lastAssistant(d)).toMatch(/Japan/);
    expect(lastAssistant(d)).toMatch(/email/i);

    // An invalid address: the reviewer fails it and the interviewer follows up.
    expect(await turn(d, 'it is ann@')).toEqual(['interviewer', 'reviewer', 'interviewer']);
    expect(d.state.fields[0]).toMatchObject({ fieldId: 'email', status: 'interviewing', followUps: 1 });
    expect(lastAssistant(d)).toMatch(/ann@/);
    expect(d.state.loop).toBeNull();

    expect(await turn(d, 'sorry, ann@example.com')).toEqual(['interviewer', 'reviewer', 'interviewer']);
    expect(d.state.fields[0]).toMatchObject({ status: 'done', value: 'ann@example.com' });
    expect(lastAssistant(d)).toMatch(/full name/i);

    await turn(d, 'Ann Lee');
    expect(d.state.fields[1]).toMatchObject({ fieldId: 'full_name', status: 'done' });
    await turn(d, 'skip');
    expect(d.state.fields[2]).toMatchObject({ fieldId: 'comments', status: 'skipped', skipReason: 'declined' });

    expect(d.state.status).toBe('awaiting_confirmation');
    expect(d.state.collectedFields).toEqual({ email: 'ann@example.com', full_name: 'Ann Lee' });
    expect(d.events.filter((e) => e.type === 'session.completed')).toEqual([
      { type: 'session.completed', data: { collectedFields: { email: 'ann@example.com', full_name: 'Ann Lee' }, audit: null, needsReview: [] } },
    ]);
    expect(lastAssistant(d)).toMatch(/Submit/);
    // Every field became done or skipped only through a reviewer verdict.
    expect(d.events.filter((e) => e.type === 'review').map((e) => (e.data as { fieldId: string }).fieldId)).toEqual([
      'email',
      'email',
      'full_name',
      'comments',
    ]);
  });
});
