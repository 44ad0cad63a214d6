import { describe, expect, it } from 'vitest';
import {
  type AgentDefinition,
  type ChatRequest,
  type ChatResponse,
  conversationMessages,
  type FunctionCallResult,
  type LlmMessage,
  parseAndValidateToolArgs,
  success,
  type ToolCall,
  type TurnInput,
} from '@convo/agent-kit';
import { createLogger, ModelBehaviorError } from '@convo/runtime';
import { type ReviewResult, SessionForm } from '@convo/contract';
import {
  applyPlan,
  applyReview,
  formDraft,
  markAsked,
  type MissingFact,
  newFormSession,
  orderFields,
  type FormDraft,
  type ReviewerOutput,
  type ReviewOutcomeKind,
  subAgentResult,
} from '@convo/forms';
import { toolSpec } from '@convo/agent-kit/internal/llm/json-schema';
import { createOfflineProvider } from '@convo/agent-kit/internal/llm/offline/index';
import { offlineProvider } from '../support/offline-policies.js';
import { architectAgent } from '../../services/architect/src/agent.js';
import { greeterAgent } from '../../services/greeter/src/agent.js';
import { interviewerAgent } from '../../services/interviewer/src/agent.js';
import { createReviewerAgent } from '../../services/reviewer/src/agent.js';
import { arrange } from '../support/arrange.js';

const NOW = '2026-01-01T00:00:00.000Z';
const log = createLogger('test', 'silent');
const reviewerAgent = createReviewerAgent({ maxFollowUps: 3 });

const form = SessionForm.parse({
  title: 'Signup',
  fields: [
    { id: 'f-comments', fieldId: 'comments', label: 'Comments', intent: null, required: false, sortOrder: 0 },
    { id: 'f-name', fieldId: 'full_name', label: 'Full name', intent: 'Put you on the guest list', required: true, sortOrder: 2 },
    { id: 'f-email', fieldId: 'email', label: 'Email', intent: 'Send the ticket', required: true, sortOrder: 1 },
  ],
  facts: [{ id: 'k-email', formFieldId: 'f-email', factKey: 'email', fact: 'Email address' }],
});

function draft(opts: { form?: SessionForm | null; language?: 'ja' | 'en' | null } = {}): FormDraft {
  const state = newFormSession({
    sessionId: 's1',
    kind: 'form',
    form: opts.form === undefined ? form : opts.form,
    language: opts.language ?? null,
    firstAgent: 'greeter',
    now: NOW,
  });
  return formDraft(state, false, () => new Date(NOW));
}

/** A ChatRequest exactly as runAgentLoop builds it: the agent's own prompt, tools and context. */
function request(agent: AgentDefinition, session: FormDraft, turn: TurnInput, transcript: LlmMessage[]): ChatRequest {
  return {
    agent: agent.name,
    model: 'offline',
    messages: [{ role: 'system', content: agent.instructions(session, turn) }, ...transcript],
    tools: agent.tools.map((t) => toolSpec(t.name, t.description, t.schema)),
    context: agent.context(session, turn),
  };
}

function startTranscript(agent: AgentDefinition, session: FormDraft, turn: TurnInput): LlmMessage[] {
  return agent.initialMessages ? agent.initialMessages(session, turn) : conversationMessages(session);
}

/** The single tool call of a reply, its arguments checked to be a JSON string (the provider protocol) and parsed. */
function onlyCall(res: ChatResponse): { call: ToolCall; name: string; args: Record<string, unknown> } {
  expect(res.content).toBeNull();
  expect(res.toolCalls).toHaveLength(1);
  const call = res.toolCalls[0]!;
  expect(typeof call.arguments).toBe('string');
  return { call, name: call.name, args: JSON.parse(call.arguments) as Record<string, unknown> };
}

/** Runs the agent's real tool for a call and appends both sides to the transcript, as the loop does. */
async function runTool(
  agent: AgentDefinition,
  session: FormDraft,
  turn: TurnInput,
  transcript: LlmMessage[],
  res: ChatResponse,
): Promise<FunctionCallResult> {
  const { call } = onlyCall(res);
  const tool = agent.tools.find((t) => t.name === call.name);
  if (!tool) throw new Error(`no tool ${call.name}`);
  const parsed = parseAndValidateToolArgs(call.arguments, tool.schema, tool.name);
  if (!parsed.success) throw new Error(parsed.error);
  const exec = await tool.execute(parsed.data, { draft: session, agent: agent.name, turnId: turn.turnId, log });
  transcript.push({ role: 'assistant', content: null, toolCalls: [call] });
  transcript.push({ role: 'tool', toolCallId: call.id, name: call.name, content: JSON.stringify(exec.result) });
  return exec.result;
}

/** The greeter at the start of a turn in which the respondent said `message`. */
function greeterTurn(session: FormDraft, message: string | null) {
  const turn: TurnInput = { turnId: 't1', message };
  if (message !== null) session.addUserMessage(message, turn.turnId, null);
  return { turn, transcript: startTranscript(greeterAgent, session, turn) };
}

describe('offline greeter', () => {
  it('greets in both Japanese and English on the bootstrap run and asks which language to use', async () => {
    const session = draft();
    const { turn, transcript } = greeterTurn(session, null);
    const { name, args } = onlyCall(await offlineProvider().chat(request(greeterAgent, session, turn, transcript)));
    expect(name).toBe('ask');
    expect(args.message).toMatch(/こんにちは/);
    expect(args.message).toMatch(/日本語と英語/);
    expect(args.message).toMatch(/Hello!/);
    expect(args.message).toMatch(/Japanese or English/);
    expect(args.message).toContain('「Signup」');
  });

  it('greets in the preset language only and goes straight to the country when the form fixes the language', async () => {
    const session = draft({ language: 'ja' });
    const { turn, transcript } = greeterTurn(session, null);
    const { name, args } = onlyCall(await offlineProvider().chat(request(greeterAgent, session, turn, transcript)));
    expect(name).toBe('ask');
    expect(args.message).toContain('お住まいの国');
    expect(args.message).not.toMatch(/Hello|English/);
  });

  it('answers "日本語" with set_language ja', async () => {
    const session = draft();
    const { turn, transcript } = greeterTurn(session, '日本語');
    const { name, args } = onlyCall(await offlineProvider().chat(request(greeterAgent, session, turn, transcript)));
    expect({ name, args }).toEqual({ name: 'set_language', args: { language: 'ja' } });
  });

  it('after set_language succeeds, asks for the country in Japanese', async () => {
    const llm = offlineProvider();
    const session = draft();
    const { turn, transcript } = greeterTurn(session, '日本語');
    const result = await runTool(greeterAgent, session, turn, transcript, await llm.chat(request(greeterAgent, session, turn, transcript)));
    expect(result.status).toBe('success');
    expect(session.state.bootstrap.language).toBe('ja');
    const { name, args } = onlyCall(await llm.chat(request(greeterAgent, session, turn, transcript)));
    expect(name).toBe('ask');
    expect(args.message).toBe(
      '現在お住まいの国を教えていただけますか？（都市名も添えていただくと、タイムゾーンをより正確に設定できます。）',
    );
  });

  it('asks again, in both languages, when the reply names no language', async () => {
    const session = draft();
    const { turn, transcript } = greeterTurn(session, '12345');
    const { name, args } = onlyCall(await offlineProvider().chat(request(greeterAgent, session, turn, transcript)));
    expect(name).toBe('ask');
    expect(args.message).toContain('日本語');
    expect(args.message).toContain('English');
  });

  it('reads "東京に住んでいます" as set_country JP, then set_timezone with the words as hint', async () => {
    const llm = offlineProvider();
    const session = draft({ language: 'ja' });
    const { turn, transcript } = greeterTurn(session, '東京に住んでいます');
    const first = await llm.chat(request(greeterAgent, session, turn, transcript));
    expect(onlyCall(first)).toMatchObject({ name: 'set_country', args: { country: 'JP' } });
    await runTool(greeterAgent, session, turn, transcript, first);
    const second = onlyCall(await llm.chat(request(greeterAgent, session, turn, transcript)));
    expect(second).toMatchObject({ name: 'set_timezone', args: { timezone: null, hint: '東京に住んでいます' } });
  });

  it('reads "I live in Canada" as set_country CA', async () => {
    const session = draft({ language: 'en' });
    const { turn, transcript } = greeterTurn(session, 'I live in Canada');
    const { name, args } = onlyCall(await offlineProvider().chat(request(greeterAgent, session, turn, transcript)));
    expect({ name, args }).toEqual({ name: 'set_country', args: { country: 'CA' } });
  });

  it('when set_timezone returns candidates, asks which city, naming example cities of that country', async () => {
    const llm = offlineProvider();
    const session = draft({ language: 'en' });
    const { turn, transcript } = greeterTurn(session, 'I live in Canada');
    await runTool(greeterAgent, session, turn, transcript, await llm.chat(request(greeterAgent, session, turn, transcript)));
    const tz = await runTool(greeterAgent, session, turn, transcript, await llm.chat(request(greeterAgent, session, turn, transcript)));
    expect(tz.result).toHaveProperty('candidates', expect.arrayContaining(['America/Toronto', 'America/Vancouver']));
    const { name, args } = onlyCall(await llm.chat(request(greeterAgent, session, turn, transcript)));
    expect(name).toBe('ask');
    expect(args.message).toMatch(/^Canada has several time zones\. Which city do you live in/);
    expect(args.message).toContain('Toronto (America/Toronto)');
  });

  it('names the candidate cities in katakana when the session is Japanese', async () => {
    const llm = offlineProvider();
    const session = draft({ language: 'ja' });
    const { turn, transcript } = greeterTurn(session, 'カナダです');
    await runTool(greeterAgent, session, turn, transcript, await llm.chat(request(greeterAgent, session, turn, transcript)));
    await runTool(greeterAgent, session, turn, transcript, await llm.chat(request(greeterAgent, session, turn, transcript)));
    const { args } = onlyCall(await llm.chat(request(greeterAgent, session, turn, transcript)));
    expect(args.message).toMatch(/^カナダには複数のタイムゾーンがあります/);
    expect(args.message).toContain('トロント（America/Toronto）');
  });
});

describe('offline architect', () => {
  it('plans every field, required ones first then by sortOrder, with the label standing in for a missing intent', async () => {
    const session = draft({ language: 'en' });
    const turn: TurnInput = { turnId: 't1', message: null };
    const { name, args } = onlyCall(
      await offlineProvider().chat(request(architectAgent, session, turn, startTranscript(architectAgent, session, turn))),
    );
    expect(name).toBe('create_plan');
    expect(args).toEqual({
      fields: [
        { field_id: 'email', label: 'Email', intent: 'Send the ticket', required: true },
        { field_id: 'full_name', label: 'Full name', intent: 'Put you on the guest list', required: true },
        { field_id: 'comments', label: 'Comments', intent: 'Comments', required: false },
      ],
    });
  });

  it('stops calling tools once the plan was accepted', async () => {
    const llm = offlineProvider();
    const session = draft({ language: 'en' });
    const turn: TurnInput = { turnId: 't1', message: null };
    const transcript = startTranscript(architectAgent, session, turn);
    const result = await runTool(
      architectAgent,
      session,
      turn,
      transcript,
      await llm.chat(request(architectAgent, session, turn, transcript)),
    );
    expect(result.status).toBe('success');
    const res = await llm.chat(request(architectAgent, session, turn, transcript));
    expect(res.toolCalls).toEqual([]);
    expect(res.content).toBeTruthy();
  });
});

/** A session past the greeter and the architect, with the interviewer's first question asked. */
function interviewing(language: 'ja' | 'en' = 'en'): FormDraft {
  const session = draft({ language });
  session.setCountry('JP');
  session.setTimezone('Asia/Tokyo', 'single');
  applyPlan(session, {
    fields: orderFields(form.fields).map((f) => ({
      field_id: f.fieldId,
      label: f.label,
      intent: f.intent ?? f.label,
      required: f.required,
    })),
  });
  arrange(session, (state) => (state.currentAgent = 'interviewer'));
  markAsked(session, 'email');
  session.addAssistantMessage('interviewer', 'Could you tell me your email?', 't1', 'email');
  return session;
}

describe('offline interviewer', () => {
  it('opens with the bootstrap settings and the question for the first planned field', async () => {
    const session = draft({ language: 'en' });
    session.setCountry('JP');
    session.setTimezone('Asia/Tokyo', 'single');
    applyPlan(session, {
      fields: orderFields(form.fields).map((f) => ({ field_id: f.fieldId, label: f.label, intent: f.label, required: f.required })),
    });
    const turn: TurnInput = { turnId: 't1', message: null };
    const { name, args } = onlyCall(
      await offlineProvider().chat(request(interviewerAgent, session, turn, startTranscript(interviewerAgent, session, turn))),
    );
    expect(name).toBe('ask');
    expect(args.message).toContain('Japan');
    expect(args.message).toContain('Asia/Tokyo');
    expect(args.message).toContain("Let's start with the first question.");
    expect(args.message).toMatch(/email/i);
  });

  it('with an answer pending, calls subtask(reviewer) for the current field', async () => {
    const session = interviewing();
    session.addUserMessage('it is ann@', 't2', 'email');
    const turn: TurnInput = { turnId: 't2', message: 'it is ann@' };
    const { name, args } = onlyCall(
      await offlineProvider().chat(request(interviewerAgent, session, turn, startTranscript(interviewerAgent, session, turn))),
    );
    expect({ name, args }).toEqual({ name: 'subtask', args: { agent: 'reviewer', field_id: 'email', question: null, note: null } });
  });

  it('after a subtask result with outcome follow_up, asks a follow-up about the missing fact', async () => {
    const llm = offlineProvider();
    const session = interviewing();
    session.addUserMessage('it is ann@', 't2', 'email');
    const turn: TurnInput = { turnId: 't2', message: 'it is ann@' };
    const transcript = startTranscript(interviewerAgent, session, turn);
    const { call } = onlyCall(await llm.chat(request(interviewerAgent, session, turn, transcript)));
    // The reviewer's verdict, applied and handed back the way the review tool does it.
    const review: ReviewResult = { passed: false, missing_facts: ['Email address'], extracted_facts: [] };
    const applied = applyReview(session, 'email', review, 3);
    transcript.push({ role: 'assistant', content: null, toolCalls: [call] });
    transcript.push({
      role: 'tool',
      toolCallId: call.id,
      name: 'subtask',
      content: JSON.stringify(
        success(
          'Not yet complete.',
          subAgentResult(
            'reviewer',
            reviewerOutput(applied.outcome, review, [
              { fact: 'Email address', reason: 'invalid', kind: 'email', heard: 'ann@', options: [], note: null },
            ]),
          ),
        ),
      ),
    });
    const { name, args } = onlyCall(await llm.chat(request(interviewerAgent, session, turn, transcript)));
    expect(name).toBe('ask');
    expect(args.message).toMatch(/email address/i);
    expect(args.message).not.toContain("Let's start");
  });

  it('after a subtask result with outcome done, asks the next field', async () => {
    const llm = offlineProvider();
    const session = interviewing();
    session.addUserMessage('ann@example.com', 't2', 'email');
    const turn: TurnInput = { turnId: 't2', message: 'ann@example.com' };
    const transcript = startTranscript(interviewerAgent, session, turn);
    const { call } = onlyCall(await llm.chat(request(interviewerAgent, session, turn, transcript)));
    const review = { passed: true, field_value: 'ann@example.com' };
    const applied = applyReview(session, 'email', review, 3);
    transcript.push({ role: 'assistant', content: null, toolCalls: [call] });
    transcript.push({
      role: 'tool',
      toolCallId: call.id,
      name: 'subtask',
      content: JSON.stringify(success('Field email done.', subAgentResult('reviewer', reviewerOutput(applied.outcome, review, [])))),
    });
    const { name, args } = onlyCall(await llm.chat(request(interviewerAgent, session, turn, transcript)));
    expect(name).toBe('ask');
    // The value just stored is read back first, so a misreading can be corrected (docs/api.md#certainty).
    expect(args.message).toMatch(/^Got it: “ann@example\.com”\.\nThank you! Next question:/);
    expect(args.message).toMatch(/full name/i);
  });
});

/** What the review tool hands back for a verdict on the email field. */
function reviewerOutput(outcome: ReviewOutcomeKind, review: ReviewResult, missing: MissingFact[]): ReviewerOutput {
  return {
    fieldId: 'email',
    outcome,
    finalAttempt: false,
    passed: review.passed,
    skipped: false,
    field_value: review.field_value ?? null,
    missing,
    extracted_facts: review.extracted_facts ?? [],
    notice: null,
    feedback: review.feedback ?? null,
    derivation: review.derivation ?? null,
  };
}

/** The reviewer's view: a suspended interviewer loop whose pending call is subtask(reviewer) on the current field. */
function reviewing(answers: string[], fieldId = 'email'): FormDraft {
  const session = interviewing();
  for (const a of answers) session.addUserMessage(a, 't2', fieldId);
  session.setLoop({
    agent: 'interviewer',
    messages: [],
    iterations: 1,
    pendingCall: {
      id: 'call_interviewer_3',
      name: 'subtask',
      arguments: JSON.stringify({ agent: 'reviewer', field_id: fieldId, question: null, note: null }),
    },
    subAgent: 'reviewer',
    pendingStartedAt: NOW,
  });
  arrange(session, (state) => (state.currentAgent = 'reviewer'));
  return session;
}

async function reviewerCall(session: FormDraft) {
  const turn: TurnInput = { turnId: 't2', message: null };
  return onlyCall(await offlineProvider().chat(request(reviewerAgent, session, turn, startTranscript(reviewerAgent, session, turn))));
}

describe('offline reviewer', () => {
  it('fails an invalid email, listing the missing fact and explaining why', async () => {
    const { name, args } = await reviewerCall(reviewing(['it is ann@']));
    expect(name).toBe('review');
    expect(args).toMatchObject({
      passed: false,
      missing: [{ fact: 'Email address', reason: 'invalid', kind: 'email', heard: 'ann@', options: [] }],
      field_value: null,
      skipped: null,
      notice: null,
    });
    expect(args.feedback).toContain('ann@');
  });

  it('passes a valid email with the normalised value, sending every nullable property', async () => {
    const { name, args } = await reviewerCall(reviewing(['it is ann@', 'Sorry: Ann@Example.com']));
    expect(name).toBe('review');
    expect(args).toEqual({
      passed: true,
      feedback: null,
      missing: [],
      extracted_facts: ['email: ann@example.com'],
      field_value: 'ann@example.com',
      skipped: null,
      notice: null,
      // The review tool works out how sure the value is, for the rules' verdict as for a model's.
      derivation: null,
      certain: null,
    });
  });

  it('passes a declined optional field as skipped', async () => {
    const session = reviewing(['skip'], 'comments');
    session.setCurrentFieldIndex(session.state.fields.findIndex((f) => f.fieldId === 'comments'));
    const { args } = await reviewerCall(session);
    expect(args).toMatchObject({ passed: true, skipped: true });
  });
});

describe('offline provider protocol', () => {
  it('sends every tool call with JSON-string arguments that parse back to the tool input', async () => {
    const llm = offlineProvider();
    const cases: ChatRequest[] = [];
    const boot = draft();
    cases.push(request(greeterAgent, boot, { turnId: 't', message: null }, []));
    const ja = draft();
    const jaTurn = greeterTurn(ja, '日本語');
    cases.push(request(greeterAgent, ja, jaTurn.turn, jaTurn.transcript));
    const arch = draft({ language: 'en' });
    cases.push(
      request(architectAgent, arch, { turnId: 't', message: null }, startTranscript(architectAgent, arch, { turnId: 't', message: null })),
    );
    const iv = interviewing();
    iv.addUserMessage('ann@example.com', 't2', 'email');
    cases.push(
      request(interviewerAgent, iv, { turnId: 't2', message: 'x' }, startTranscript(interviewerAgent, iv, { turnId: 't2', message: 'x' })),
    );
    const rv = reviewing(['ann@example.com']);
    cases.push(
      request(reviewerAgent, rv, { turnId: 't2', message: null }, startTranscript(reviewerAgent, rv, { turnId: 't2', message: null })),
    );

    const tools = [greeterAgent, architectAgent, interviewerAgent, reviewerAgent].flatMap((a) => a.tools);
    for (const req of cases) {
      const res = await llm.chat(req);
      expect(res.model).toBe('offline');
      const { name, call } = onlyCall(res);
      const tool = tools.find((t) => t.name === name && req.tools.some((s) => s.name === name));
      expect(tool, `${req.agent} called ${name}, which it does not have`).toBeDefined();
      expect(parseAndValidateToolArgs(call.arguments, tool!.schema, name).success, `${req.agent}.${name} ${call.arguments}`).toBe(true);
    }
  });

  it('gives the same reply to the same request', async () => {
    const session = reviewing(['it is ann@']);
    const turn: TurnInput = { turnId: 't2', message: null };
    const req = request(reviewerAgent, session, turn, startTranscript(reviewerAgent, session, turn));
    const reply = await offlineProvider().chat(req);
    const repeated = await offlineProvider().chat(structuredClone(req));
    expect(repeated).toEqual(reply);

    const greeterSession = draft();
    const { turn: gt, transcript } = greeterTurn(greeterSession, 'I live in Canada, English please');
    const greq = request(greeterAgent, greeterSession, gt, transcript);
    const llm = offlineProvider();
    expect(await llm.chat(greq)).toEqual(await llm.chat(greq));
  });

  it('numbers tool call ids by the conversation length, so a retried request reuses the id', async () => {
    const session = draft();
    const { turn, transcript } = greeterTurn(session, '日本語');
    const req = request(greeterAgent, session, turn, transcript);
    const { call } = onlyCall(await offlineProvider().chat(req));
    expect(call.id).toBe(`call_greeter_${req.messages.length}`);
  });

  it('throws ModelBehaviorError for an agent it has no policy for', async () => {
    const req = {
      agent: 'weather',
      model: 'offline',
      messages: [{ role: 'user', content: 'plan a trip' }],
      tools: [],
      context: {},
    } as unknown as ChatRequest;
    await expect(offlineProvider().chat(req)).rejects.toBeInstanceOf(ModelBehaviorError);
    await expect(offlineProvider().chat(req)).rejects.toThrow(/no policy for agent weather/);
  });

  it('answers the LLM planner with the seed planner JSON of the rule plan in its context, and synthesis with the extractive answer', async () => {
    const rulePlan = {
      steps: [
        { id: 'step_search_1', type: 'search', query: '北海道 送料', topK: 3 },
        { id: 'step_answer_1', type: 'answer', style: 'faq', includeSources: true },
      ],
      needsClarification: false,
      confidence: 'high',
      language: 'ja',
      raw: { rules: ['search'] },
    };
    const llm = offlineProvider();
    const plan = await llm.chat({
      agent: 'planner',
      model: 'offline',
      messages: [{ role: 'user', content: '北海道への送料' }],
      tools: [],
      context: { rulePlan },
    });
    const { raw: _raw, ...withoutRaw } = rulePlan;
    expect(JSON.parse(plan.content!)).toEqual(withoutRaw);
    const answer = await llm.chat({ agent: 'search', model: 'offline', messages: [], tools: [], context: { extractive: '800円です。' } });
    expect(answer.content).toBe('800円です。');
  });

  it('answers with the policies it was given, and refuses an agent it has none for', async () => {
    const llm = createOfflineProvider({ policies: { planner: () => ({ text: 'planned' }) } });
    const res = await llm.chat({ agent: 'planner', model: 'offline', messages: [], tools: [], context: {} });
    expect(res).toMatchObject({ content: 'planned', toolCalls: [] });
    await expect(llm.chat({ agent: 'search', model: 'offline', messages: [], tools: [], context: {} })).rejects.toThrow(
      /no policy for agent search/,
    );
  });
});
