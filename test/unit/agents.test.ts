import { describe, expect, it } from 'vitest';
import { type AgentDefinition, type LlmProvider, loopStepHandler, subtaskStepHandler } from '@convo/agent-kit';
import { createLogger, type StepHandler } from '@convo/runtime';
import { type AgentName, SessionForm } from '@convo/contract';
import { runAgentLoop } from '@convo/agent-kit/internal/loop';
import { currentField, formDraft, newFormSession, type FormDraft } from '@convo/forms';
import { offlineProvider } from '../support/offline-policies.js';
import { architectAgent } from '../../services/architect/src/agent.js';
import { greeterAgent } from '../../services/greeter/src/agent.js';
import { interviewerAgent } from '../../services/interviewer/src/agent.js';
import { createReviewerAgent } from '../../services/reviewer/src/agent.js';
import { ScriptedModel } from '../support/scripted-model.js';
import { startFakeOpenAi, type FakeRequest } from '../support/fake-openai.js';
import { interviewModel } from '../support/interview-model.js';
import { createOpenAiProvider } from '@convo/agent-kit/internal/llm/openai-provider';
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

function draft(opts: { language?: 'ja' | 'en' | null; firstAgent?: AgentName; form?: SessionForm } = {}): FormDraft {
  const state = newFormSession({
    sessionId: 's1',
    kind: 'form',
    form: opts.form ?? form,
    language: opts.language ?? null,
    firstAgent: opts.firstAgent ?? 'greeter',
    now: NOW,
  });
  return formDraft(state, false, () => new Date(NOW));
}

let turnNo = 0;

/** One run of an agent's loop for a turn, the respondent's message (if any) added first as the step runner does. */
function run(agent: AgentDefinition, session: FormDraft, message: string | null, llm: LlmProvider = offlineProvider()) {
  const turnId = `t${++turnNo}`;
  if (message !== null) session.addUserMessage(message, turnId, null);
  return runAgentLoop({
    agent,
    draft: session,
    llm,
    model: 'offline',
    maxTurns: 10,
    turn: { turnId, message },
    runStepPrefix: `rs-${turnNo}`,
    log,
  });
}

const lastAssistant = (d: FormDraft) => d.state.messages.filter((m) => m.role === 'assistant').at(-1)?.text ?? '';
const toolResults = (session: FormDraft, name: string) =>
  session.runSteps.filter((s) => s.toolName === name).map((s) => s.output as { status: string; result: { message: string } });
const stateChangeTypes = (d: FormDraft) => d.events.flatMap((e) => (e.type === 'state.changed' ? [e.data.type] : []));

describe('greeter agent (offline model)', () => {
  it('settles language, country and time zone for "English please" then "I live in Japan" and hands off to the architect', async () => {
    const session = draft();
    expect(await run(greeterAgent, session, null)).toEqual({ kind: 'ask' });
    expect(lastAssistant(session)).toMatch(/Japanese or English/);

    expect(await run(greeterAgent, session, 'English please')).toEqual({ kind: 'ask' });
    expect(session.state.bootstrap.language).toBe('en');
    expect(lastAssistant(session)).toMatch(/^Which country do you currently live in\?/);

    expect(await run(greeterAgent, session, 'I live in Japan')).toEqual({
      kind: 'completed',
      completion: { type: 'handoff', to: 'architect' },
    });
    expect(session.state.bootstrap).toMatchObject({ language: 'en', country: 'JP', timezone: 'Asia/Tokyo', timezoneAsked: false });
    expect(session.runSteps.map((s) => s.toolName)).toEqual(['ask', 'set_language', 'ask', 'set_country', 'set_timezone']);
    expect(session.stateChanges.map((c) => c.type)).toEqual([
      'ADD_ASSISTANT_MESSAGE',
      'ADD_USER_MESSAGE',
      'SET_LANGUAGE',
      'ADD_ASSISTANT_MESSAGE',
      'ADD_USER_MESSAGE',
      'SET_COUNTRY',
      'SET_TIMEZONE',
    ]);
    expect(session.events.at(-1)).toEqual({
      type: 'state.changed',
      data: { type: 'SET_TIMEZONE', payload: { timezone: 'Asia/Tokyo', source: 'single' } },
    });
  });

  it('in Japanese: "日本語" then "東京に住んでいます" sets ja, JP and Asia/Tokyo from the city', async () => {
    const session = draft();
    await run(greeterAgent, session, null);
    expect(await run(greeterAgent, session, '日本語')).toEqual({ kind: 'ask' });
    expect(lastAssistant(session)).toMatch(/^現在お住まいの国を教えていただけますか？/);
    expect((await run(greeterAgent, session, '東京に住んでいます')).kind).toBe('completed');
    expect(session.state.bootstrap).toMatchObject({ language: 'ja', country: 'JP', timezone: 'Asia/Tokyo' });
    expect(session.runSteps.find((s) => s.toolName === 'set_timezone')?.input).toEqual({ timezone: null, hint: '東京に住んでいます' });
  });

  it('asks once for the city in Canada, then falls back to Asia/Tokyo when the second answer names no city', async () => {
    const session = draft({ language: 'en' });
    expect(await run(greeterAgent, session, 'I live in Canada')).toEqual({ kind: 'ask' });
    expect(session.state.bootstrap).toMatchObject({ country: 'CA', timezone: null, timezoneAsked: true });
    expect(lastAssistant(session)).toMatch(/^Canada has several time zones/);

    expect(await run(greeterAgent, session, "I'd rather not say")).toEqual({
      kind: 'completed',
      completion: { type: 'handoff', to: 'architect' },
    });
    expect(session.state.bootstrap.timezone).toBe('Asia/Tokyo');
    expect(session.events.at(-1)).toEqual({
      type: 'state.changed',
      data: { type: 'SET_TIMEZONE', payload: { timezone: 'Asia/Tokyo', source: 'fallback' } },
    });
    const timezoneQuestions = session.state.messages.filter((m) => m.role === 'assistant' && /several time zones/.test(m.text));
    expect(timezoneQuestions).toHaveLength(1);
  });

  it('sets the zone of the city named in the answer to the Canada question', async () => {
    const session = draft({ language: 'en' });
    await run(greeterAgent, session, 'I live in Canada');
    expect((await run(greeterAgent, session, 'Vancouver')).kind).toBe('completed');
    expect(session.state.bootstrap.timezone).toBe('America/Vancouver');
    expect(session.events.at(-1)).toMatchObject({ data: { payload: { source: 'city' } } });
  });

  it.each(['Atlantis', 'ZZ'])('set_country %j returns an error result and leaves the state unchanged', async (country) => {
    const session = draft({ language: 'en' });
    const model = new ScriptedModel([
      { toolCalls: [{ name: 'set_country', arguments: { country } }] },
      { toolCalls: [{ name: 'ask', arguments: { message: 'Which country?' } }] },
    ]);
    expect(await run(greeterAgent, session, country, model)).toEqual({ kind: 'ask' });
    const [result] = toolResults(session, 'set_country');
    expect(result).toEqual({ status: 'error', result: { message: `Unknown country "${country}". Ask the respondent again.` } });
    expect(session.state.bootstrap.country).toBeNull();
    expect(stateChangeTypes(session)).not.toContain('SET_COUNTRY');
    // The error went back to the model before its next call, followed only by the current state.
    const [fedBack, state] = model.requests[1]!.messages.slice(-2);
    expect(fedBack).toMatchObject({ role: 'tool', name: 'set_country' });
    expect(JSON.parse((fedBack as { content: string }).content)).toMatchObject({ status: 'error' });
    expect(state).toMatchObject({ role: 'system', content: expect.stringMatching(/^Current state:/) });
  });

  it('refuses a language the interview cannot be held in', async () => {
    const session = draft();
    const model = new ScriptedModel([
      { toolCalls: [{ name: 'set_language', arguments: { language: 'fr' } }] },
      { toolCalls: [{ name: 'ask', arguments: { message: 'Japanese or English?' } }] },
    ]);
    await run(greeterAgent, session, 'français', model);
    expect(toolResults(session, 'set_language')[0]?.status).toBe('error');
    expect(session.state.bootstrap.language).toBeNull();
  });
});

describe('architect agent', () => {
  const planOf = (...ids: string[]) => ({
    fields: ids.map((id) => {
      const formField = form.fields.find((x) => x.fieldId === id)!;
      return { field_id: id, label: formField.label, intent: formField.intent ?? formField.label, required: formField.required };
    }),
  });

  it("rejects a plan missing a field and accepts the model's corrected second call", async () => {
    const session = draft({ language: 'en', firstAgent: 'architect' });
    const model = new ScriptedModel([
      { toolCalls: [{ name: 'create_plan', arguments: planOf('email', 'full_name') }] },
      { toolCalls: [{ name: 'create_plan', arguments: planOf('full_name', 'email', 'comments') }] },
    ]);
    const result = await run(architectAgent, session, null, model);
    expect(result).toEqual({ kind: 'completed', completion: { type: 'handoff', to: 'interviewer' } });
    const [rejected, accepted] = toolResults(session, 'create_plan');
    expect(rejected).toEqual({
      status: 'error',
      result: { message: 'Plan rejected: the plan is missing fields: comments. Include every field exactly once.' },
    });
    expect(accepted).toEqual({ status: 'success', result: { message: 'Plan saved with 3 fields.' } });
    // The rejection reached the model, and only the corrected plan was stored.
    expect(JSON.parse((model.requests[1]!.messages.at(-1) as { content: string }).content)).toMatchObject({ status: 'error' });
    expect(session.state.plan).toEqual(planOf('full_name', 'email', 'comments'));
    expect(session.state.fields.map((f) => f.fieldId)).toEqual(['full_name', 'email', 'comments']);
    expect(stateChangeTypes(session)).toEqual(['PLAN_CREATED']);
  });

  it('rejects a plan that lists a field twice without storing anything', async () => {
    const session = draft({ language: 'en', firstAgent: 'architect' });
    const model = new ScriptedModel([
      { toolCalls: [{ name: 'create_plan', arguments: planOf('email', 'email', 'full_name', 'comments') }] },
      { content: 'I give up.' },
      { toolCalls: [{ name: 'create_plan', arguments: planOf('email', 'full_name', 'comments') }] },
    ]);
    await run(architectAgent, session, null, model);
    expect(toolResults(session, 'create_plan')[0]?.result.message).toMatch(/field_id email appears twice/);
    // Answering without a tool call while the plan is missing brings the remaining task back.
    expect(model.requests[2]!.messages.at(-1)).toEqual({
      role: 'user',
      content: 'You still need to: Create the interview plan using create_plan',
    });
    expect(stateChangeTypes(session)).toEqual(['PLAN_CREATED']);
  });

  it('with the offline model, plans required fields first and hands off to the interviewer', async () => {
    const session = draft({ language: 'en', firstAgent: 'architect' });
    expect(await run(architectAgent, session, null)).toEqual({ kind: 'completed', completion: { type: 'handoff', to: 'interviewer' } });
    expect(session.state.fields.map((f) => f.fieldId)).toEqual(['email', 'full_name', 'comments']);
  });
});

/** A session whose plan is in place, the interviewer in charge. */
async function planned(language: 'ja' | 'en' = 'en'): Promise<FormDraft> {
  const session = draft({ language, firstAgent: 'architect' });
  session.setCountry('JP');
  session.setTimezone('Asia/Tokyo', 'single');
  await run(architectAgent, session, null);
  session.setAgent('interviewer');
  session.events.length = 0;
  return session;
}

describe('interviewer agent', () => {
  it('refuses to review a field that is not the current one', async () => {
    const session = await planned();
    // No answer yet, so nothing is handed to the reviewer by rule: the model's own wrong call is refused.
    session.addAssistantMessage('interviewer', 'Your email?', 't0', 'email');
    const model = new ScriptedModel([
      { toolCalls: [{ name: 'subtask', arguments: { agent: 'reviewer', field_id: 'full_name', question: null, note: null } }] },
      { toolCalls: [{ name: 'ask', arguments: { message: 'Your email again?' } }] },
    ]);
    expect(await run(interviewerAgent, session, null, model)).toEqual({ kind: 'ask' });
    expect(toolResults(session, 'subtask')).toEqual([
      { status: 'error', result: { message: 'Only the current field email can be reviewed, not full_name.' } },
    ]);
    expect(session.state.fields.map((f) => f.status)).not.toContain('reviewing');
    expect(session.state.loop).toBeNull();
  });

  it('refuses to review before the respondent answered the current field', async () => {
    const session = await planned();
    const model = new ScriptedModel([
      { toolCalls: [{ name: 'subtask', arguments: { agent: 'reviewer', field_id: 'email', question: null, note: null } }] },
      { toolCalls: [{ name: 'ask', arguments: { message: 'Could you tell me your email?' } }] },
    ]);
    expect(await run(interviewerAgent, session, null, model)).toEqual({ kind: 'ask' });
    expect(toolResults(session, 'subtask')).toEqual([
      { status: 'error', result: { message: 'The respondent has not been asked about email yet: ask about Email with ask.' } },
    ]);
    // The question that followed belongs to the current field, which is now being interviewed.
    expect(session.state.messages.at(-1)).toMatchObject({ role: 'assistant', agent: 'interviewer', fieldId: 'email' });
    expect(session.state.fields[0]).toMatchObject({ fieldId: 'email', status: 'interviewing' });
  });

  it('suspends on subtask(reviewer) once the current field was answered, marking it reviewing', async () => {
    const session = await planned();
    session.addAssistantMessage('interviewer', 'Your email?', 't0', 'email');
    session.addUserMessage('ann@example.com', 't0', 'email');
    const result = await run(interviewerAgent, session, null);
    expect(result.kind).toBe('suspend');
    if (result.kind !== 'suspend') return;
    expect(result.checkpoint).toMatchObject({ agent: 'interviewer', subAgent: 'reviewer', pendingCall: { name: 'subtask' } });
    expect(JSON.parse(result.checkpoint.pendingCall.arguments)).toEqual({
      agent: 'reviewer',
      field_id: 'email',
      question: null,
      note: null,
    });
    expect(session.state.fields[0]).toMatchObject({ fieldId: 'email', status: 'reviewing' });
    // A suspended call has no run step until its result arrives.
    expect(session.runSteps.map((s) => s.toolName)).not.toContain('subtask');
  });
});

/** The draft as the reviewer finds it: the interviewer suspended on subtask(reviewer) for the current field. */
async function underReview(answers: string[]): Promise<{ session: FormDraft; callId: string }> {
  const session = await planned();
  session.addAssistantMessage('interviewer', 'Your email?', 't0', 'email');
  for (const a of answers) session.addUserMessage(a, 't0', 'email');
  const result = await run(interviewerAgent, session, null);
  if (result.kind !== 'suspend') throw new Error(`expected the interviewer to suspend, got ${result.kind}`);
  session.setLoop(result.checkpoint);
  session.setAgent('reviewer');
  session.events.length = 0;
  return { session, callId: result.checkpoint.pendingCall.id };
}

const verdict = (over: Record<string, unknown>) => ({
  passed: true,
  feedback: null,
  missing: null,
  extracted_facts: null,
  notice: null,
  field_value: null,
  skipped: null,
  derivation: null,
  certain: null,
  ...over,
});

/** A remote reviewer model's reply: one review call with this verdict. */
const remoteVerdict = (over: Record<string, unknown>) => ({ toolCalls: [{ name: 'review', arguments: JSON.stringify(verdict(over)) }] });

/** The OpenAI provider against a local fake server, failing fast. */
const remoteModel = (baseUrl: string) =>
  createOpenAiProvider({ baseUrl, apiKey: 'sk-test', timeoutMs: 5_000, maxRetries: 0, retryBaseMs: 1 });

describe('reviewer agent', () => {
  const reviewer = createReviewerAgent({ maxFollowUps: 3 });

  it('does not let the model skip a required field: a claimed skipped: true becomes a fail with a follow-up', async () => {
    const { session, callId } = await underReview(['skip']);
    const model = new ScriptedModel([{ toolCalls: [{ name: 'review', arguments: verdict({ passed: true, skipped: true }) }] }]);
    expect(await run(reviewer, session, null, model)).toEqual({ kind: 'completed', completion: { type: 'return' } });
    const handed = session.state.subSessionResults[callId] as { status: string; result: { reviewerAgentOutput: Record<string, unknown> } };
    expect(handed.status).toBe('success');
    expect(handed.result.reviewerAgentOutput).toMatchObject({
      fieldId: 'email',
      outcome: 'follow_up',
      passed: false,
      skipped: false,
      notice: { code: 'required_no_skip' },
      feedback: 'This field is required and cannot be skipped.',
    });
    expect(session.state.fields[0]).toMatchObject({
      fieldId: 'email',
      status: 'interviewing',
      followUps: 1,
      skipReason: null,
      value: null,
    });
    expect(session.events[0]).toEqual({
      type: 'review',
      data: { fieldId: 'email', passed: false, missingFacts: [], feedback: 'This field is required and cannot be skipped.' },
    });
  });

  it('lets the model skip a declined optional field', async () => {
    const { session, callId } = await underReview(['ann@example.com']);
    // Move the review to the optional field: the respondent declined it.
    arrange(session, (state) => (state.fields[0]!.status = 'done'));
    session.setCurrentFieldIndex(session.state.fields.findIndex((f) => f.fieldId === 'comments'));
    session.addUserMessage('no thanks', 't0', 'comments');
    arrange(
      session,
      (state) =>
        (state.loop!.pendingCall.arguments = JSON.stringify({ agent: 'reviewer', field_id: 'comments', question: null, note: null })),
    );
    const model = new ScriptedModel([{ toolCalls: [{ name: 'review', arguments: verdict({ passed: true, skipped: true }) }] }]);
    await run(reviewer, session, null, model);
    expect(
      (session.state.subSessionResults[callId] as { result: { reviewerAgentOutput: unknown } }).result.reviewerAgentOutput,
    ).toMatchObject({
      fieldId: 'comments',
      outcome: 'skipped',
    });
    expect(currentField(session.state)?.field.fieldId).not.toBe('comments');
  });

  it('records one verdict per pending call and refuses a second one', async () => {
    const { session, callId } = await underReview(['ann@example.com']);
    const model = new ScriptedModel([
      {
        toolCalls: [
          { name: 'review', arguments: verdict({ field_value: 'ann@example.com' }) },
          { name: 'review', arguments: verdict({ passed: false }) },
        ],
      },
    ]);
    await run(reviewer, session, null, model);
    expect(toolResults(session, 'review').map((r) => r.status)).toEqual(['success', 'error']);
    expect(
      (session.state.subSessionResults[callId] as { result: { reviewerAgentOutput: unknown } }).result.reviewerAgentOutput,
    ).toMatchObject({
      outcome: 'done',
      passed: true,
    });
    expect(session.state.fields[0]).toMatchObject({ fieldId: 'email', status: 'done', value: 'ann@example.com' });
  });
});

/**
 * The step runner without Redis: adds the respondent's message (tied to the
 * current field once the interviewer runs), then runs each agent's step
 * handler and follows `continue` until the turn ends.
 */
/** One turn through the agents in-process; a remote provider is told the agent by the model name, as with <AGENT>_MODEL. */
async function turn(session: FormDraft, message: string | null, remote?: LlmProvider): Promise<AgentName[]> {
  const llm = remote ?? offlineProvider();
  const deps = (agent: AgentName) => ({ llm, model: remote ? agent : 'offline', maxTurns: 10 });
  const handlers: Partial<Record<AgentName, StepHandler<FormDraft>>> = {
    greeter: loopStepHandler(greeterAgent, deps('greeter')),
    architect: loopStepHandler(architectAgent, deps('architect')),
    interviewer: loopStepHandler(interviewerAgent, deps('interviewer')),
    reviewer: subtaskStepHandler(createReviewerAgent({ maxFollowUps: 2 }), deps('reviewer')),
  };
  const turnId = `t${++turnNo}`;
  if (message !== null) {
    const onField = session.state.plan && session.state.currentAgent === 'interviewer' ? currentField(session.state) : null;
    session.addUserMessage(message, turnId, onField?.field.fieldId ?? null);
  }
  const ran: AgentName[] = [];
  for (let seq = 1; seq <= 20; seq++) {
    const agent = session.state.currentAgent;
    ran.push(agent);
    const outcome = await handlers[agent]!({ draft: session, step: { seq, agent, turnId }, turn: { turnId, message }, log });
    if (outcome.kind !== 'continue') return ran;
    session.setAgent(outcome.to);
  }
  throw new Error('turn did not end');
}

describe('a whole interview with the offline model', () => {
  it('greets, plans, asks, follows up on a missing fact, and completes with every required field collected', async () => {
    const session = draft();
    expect(await turn(session, null)).toEqual(['greeter']);
    expect(await turn(session, 'English please')).toEqual(['greeter']);
    expect(await turn(session, 'I live in Japan')).toEqual(['greeter', 'architect', 'interviewer']);
    expect(session.state.plan?.fields.map((f) => f.field_id)).toEqual(['email', 'full_name', 'comments']);
    expect(lastAssistant(session)).toMatch(/Japan/);
    expect(lastAssistant(session)).toMatch(/email/i);

    // An invalid address: the reviewer fails it and the interviewer follows up.
    expect(await turn(session, 'it is ann@')).toEqual(['interviewer', 'reviewer', 'interviewer']);
    expect(session.state.fields[0]).toMatchObject({ fieldId: 'email', status: 'interviewing', followUps: 1 });
    expect(lastAssistant(session)).toMatch(/ann@/);
    expect(session.state.loop).toBeNull();

    expect(await turn(session, 'sorry, ann@example.com')).toEqual(['interviewer', 'reviewer', 'interviewer']);
    expect(session.state.fields[0]).toMatchObject({ status: 'done', value: 'ann@example.com' });
    expect(lastAssistant(session)).toMatch(/full name/i);

    await turn(session, 'Ann Lee');
    expect(session.state.fields[1]).toMatchObject({ fieldId: 'full_name', status: 'done' });
    await turn(session, 'skip');
    expect(session.state.fields[2]).toMatchObject({ fieldId: 'comments', status: 'skipped', skipReason: 'declined' });

    expect(session.state.status).toBe('awaiting_confirmation');
    expect(session.state.collectedFields).toEqual({ email: 'ann@example.com', full_name: 'Ann Lee' });
    expect(session.events.filter((e) => e.type === 'session.completed')).toEqual([
      {
        type: 'session.completed',
        data: { collectedFields: { email: 'ann@example.com', full_name: 'Ann Lee' }, audit: null, needsReview: [] },
      },
    ]);
    expect(lastAssistant(session)).toMatch(/Submit/);
    // Every field became done or skipped only through a reviewer verdict.
    expect(session.events.filter((e) => e.type === 'review').map((e) => (e.data as { fieldId: string }).fieldId)).toEqual([
      'email',
      'email',
      'full_name',
      'comments',
    ]);
  });
});

describe('a reading that is not certain (docs/api.md#certainty), with the offline model', () => {
  const booking = SessionForm.parse({
    title: 'Pick-up',
    fields: [
      { id: 'f-slot', fieldId: 'slot', label: 'Pick-up window', required: true, sortOrder: 0 },
      { id: 'f-meal', fieldId: 'meal', label: 'Meal', required: true, sortOrder: 1 },
    ],
    facts: [
      { id: 'k-slot', formFieldId: 'f-slot', factKey: 'slot', fact: 'When they can collect', answerType: 'time_range' },
      { id: 'k-meal', formFieldId: 'f-meal', factKey: 'meal', fact: 'Meal', options: ['Vegetarian', 'Fish', 'Chicken'] },
    ],
  });
  const started = async () => {
    const session = draft({ form: booking });
    await turn(session, null);
    await turn(session, 'English please');
    await turn(session, 'I live in Japan');
    expect(currentField(session.state)?.field.fieldId).toBe('slot');
    return session;
  };

  it('asks once about a guessed half of the day, stores the reading on a yes, and reads a sure value back', async () => {
    const session = await started();
    await turn(session, 'from 9 to 12');
    // Not stored yet: the field is still asked, and the question shows the reading.
    expect(session.state.fields[0]).toMatchObject({ fieldId: 'slot', status: 'interviewing', value: null, followUps: 1 });
    expect(session.state.fields[0]?.lastReview).toMatchObject({ passed: true, confirm: true, derivation: 'inferred' });
    expect(lastAssistant(session)).toBe('Just to check: “09:00–12:00” — is that right? (Reply “yes”, or tell me the right one.)');
    // A yes settles it without another review by the rules or a model.
    expect(await turn(session, "Yes, that's right.")).toEqual(['interviewer', 'reviewer', 'interviewer']);
    expect(session.state.fields[0]).toMatchObject({ status: 'done', value: '09:00/12:00' });
    expect(session.state.fields[0]?.lastReview?.derivation).toBe('confirmed');
    expect(lastAssistant(session)).toMatch(/^Thank you! Next question:/);

    // A choice named as the form writes it is sure, stored, and read back with the closing summary.
    await turn(session, 'Fish please');
    expect(session.state.fields[1]).toMatchObject({ status: 'done', value: 'Fish' });
    expect(lastAssistant(session)).toMatch(/^Got it: “Fish”\.\nThank you — that's all the questions!/);
  });

  it('reviews anything but a yes as a new answer, and keeps a loose option from being stored unseen', async () => {
    const session = await started();
    await turn(session, 'from 9 to 12');
    await turn(session, 'No - 9 in the morning until noon');
    expect(session.state.fields[0]).toMatchObject({ status: 'done', value: '09:00/12:00' });
    expect(lastAssistant(session)).toMatch(/^Got it: “09:00–12:00”\.\n/);
    await turn(session, 'the veg one');
    expect(session.state.fields[1]).toMatchObject({ status: 'interviewing', value: null });
    expect(lastAssistant(session)).toMatch(/^Just to check: “Vegetarian”/);
    await turn(session, 'yes');
    expect(session.state.fields[1]).toMatchObject({ status: 'done', value: 'Vegetarian' });
  });

  it('takes the same answer said again for an answer, not for a yes, and asks about a loose option again', async () => {
    const session = await started();
    await turn(session, 'from 9 to 12');
    await turn(session, 'yes');
    await turn(session, 'the veg one');
    expect(lastAssistant(session)).toMatch(/^Just to check: “Vegetarian”/);
    // Said again, the answer is reviewed again and asked about again: it confirms nothing.
    await turn(session, 'the veg one');
    expect(session.state.fields[1]).toMatchObject({ status: 'interviewing', value: null });
  });

  it("stores a yes or no to a fact with its own pair of options as the form's option", async () => {
    const form = SessionForm.parse({
      title: '駐車場',
      fields: [{ id: 'f-p', fieldId: 'parking', label: '駐車場の利用', required: true, sortOrder: 0 }],
      facts: [
        {
          id: 'k-p',
          formFieldId: 'f-p',
          factKey: 'parking',
          fact: '駐車場を利用するか',
          answerType: 'yes_no',
          options: ['利用する', '利用しない'],
        },
      ],
    });
    const session = draft({ form });
    await turn(session, null);
    await turn(session, '日本語');
    await turn(session, '東京に住んでいます');
    await turn(session, 'いいえ、電車で行きます');
    expect(session.state.fields[0]).toMatchObject({ status: 'done', value: '利用しない' });
  });

  it('keeps a reading that still needs confirming when no question is left, flagged for a person', async () => {
    const session = await started();
    await turn(session, 'from 9 to 12');
    await turn(session, '9 to 12');
    expect(session.state.fields[0]).toMatchObject({ status: 'interviewing', followUps: 2 });
    expect(lastAssistant(session)).toMatch(/^Just to check: “09:00–12:00”/);
    await turn(session, '9 to 12');
    expect(session.state.fields[0]).toMatchObject({ status: 'done', value: '09:00/12:00', needsReview: true });
  });
});

describe('a reading that is not certain, with a remote model over HTTP (openai provider, fake server)', () => {
  const booking = SessionForm.parse({
    title: 'Pick-up',
    fields: [{ id: 'f-slot', fieldId: 'slot', label: 'Pick-up window', intent: 'Have the bike ready', required: true, sortOrder: 0 }],
    facts: [{ id: 'k-slot', formFieldId: 'f-slot', factKey: 'slot', fact: 'When they can collect', answerType: 'time_range' }],
  });

  it('confirms what an overconfident model read, settles the yes without asking the model, and reads a sure value back', async () => {
    const fake = await startFakeOpenAi();
    const conductor = interviewModel({ chunkChars: 64 });
    const reviewed: string[] = [];
    // The reviewer model reads "from 9 to 12" as 09:00–12:00 and calls itself sure; "9pm to midnight" likewise.
    fake.respondWith((req: FakeRequest) => {
      if (req.body.model !== 'reviewer') return conductor(req);
      const said = JSON.stringify(req.body.messages);
      reviewed.push(said.includes('9pm') ? '9pm' : '9 to 12');
      const value = said.includes('9pm') ? '21:00/24:00' : '09:00/12:00';
      return remoteVerdict({ field_value: value, derivation: 'normalised', certain: true });
    });
    try {
      const llm = remoteModel(fake.url);
      const session = draft({ form: booking });
      await turn(session, null, llm);
      await turn(session, 'English please, I live in Japan', llm);
      expect(currentField(session.state)?.field.fieldId).toBe('slot');

      await turn(session, 'from 9 to 12', llm);
      // The rule, not the model, decides how sure the value is: am or pm was guessed.
      expect(session.state.fields[0]).toMatchObject({ status: 'interviewing', value: null });
      expect(session.state.fields[0]?.lastReview).toMatchObject({ confirm: true, derivation: 'inferred' });
      expect(lastAssistant(session)).toBe('Just to check: is it “09:00–12:00”?');

      await turn(session, 'yes', llm);
      expect(reviewed).toEqual(['9 to 12']);
      expect(session.state.fields[0]).toMatchObject({ status: 'done', value: '09:00/12:00' });
      expect(session.state.status).toBe('awaiting_confirmation');
    } finally {
      await fake.close();
    }
  });

  it('does not take a verdict at its word when it claims a reading was confirmed', async () => {
    const fake = await startFakeOpenAi();
    const conductor = interviewModel({ chunkChars: 64 });
    fake.respondWith((req: FakeRequest) => {
      if (req.body.model !== 'reviewer') return conductor(req);
      return remoteVerdict({ field_value: '09:00/12:00', derivation: 'confirmed', certain: true });
    });
    try {
      const llm = remoteModel(fake.url);
      const session = draft({ form: booking });
      await turn(session, null, llm);
      await turn(session, 'English please, I live in Japan', llm);
      await turn(session, 'from 9 to 12', llm);
      // Nobody was asked yet: the claim is read like any other verdict, and the guessed am/pm is asked about.
      expect(session.state.fields[0]).toMatchObject({ status: 'interviewing', value: null });
      expect(session.state.fields[0]?.lastReview).toMatchObject({ confirm: true, derivation: 'inferred' });
    } finally {
      await fake.close();
    }
  });

  it('refuses a remote interviewer message that does not show the value just stored', async () => {
    const fake = await startFakeOpenAi();
    const conductor = interviewModel({ chunkChars: 64 });
    let refusals = 0;
    fake.respondWith((req: FakeRequest) => {
      if (req.body.model === 'interviewer') {
        const prompt = (req.body.messages as Array<{ content: string | null }>).map((m) => m.content ?? '').join('\n');
        const refused = prompt.includes('Acknowledge the value just stored');
        if (refused) refusals++;
        // A model that forgets the read-back once, then does as the refusal says.
        if (!refused && prompt.includes('"echo":{'))
          return { toolCalls: [{ name: 'ask', arguments: JSON.stringify({ message: 'Thanks! Anything else?' }) }] };
      }
      if (req.body.model !== 'reviewer') return conductor(req);
      return remoteVerdict({ field_value: '21:00/24:00', derivation: null, certain: null });
    });
    try {
      const llm = remoteModel(fake.url);
      const session = draft({ form: booking });
      await turn(session, null, llm);
      await turn(session, 'English please, I live in Japan', llm);
      await turn(session, 'from 21:00 to 24:00', llm);
      expect(session.state.fields[0]).toMatchObject({ status: 'done', value: '21:00/24:00' });
      expect(refusals).toBe(1);
      expect(lastAssistant(session)).toMatch(/^Got it: “21:00–24:00”\. Thank you, that is everything/);
    } finally {
      await fake.close();
    }
  });
});
