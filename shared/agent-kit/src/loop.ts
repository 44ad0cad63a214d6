import { type LiveChannel, type Logger, MaxTurnsExceededError, type SessionDraft } from '@convo/runtime';
import { type LlmMessage, type LoopCheckpoint, type ToolCall } from '@convo/contract';
import { Allow, parse as parsePartialJson } from 'partial-json';
import { ASK_TOOL } from './ask-tool.js';
import { toolSpec } from './llm/json-schema.js';
import type { LlmProvider, ToolSpec } from './llm/types.js';
import type { AgentDefinition, Completion, TurnInput } from './agent.js';
import { conversationMessages, estimateTokens, type PromptLimits } from './history.js';
import { failure, parseAndValidateToolArgs, ParseToolArgsSchema, type FunctionCallResult, type ToolExecution } from './tool.js';

export type LoopResult =
  { kind: 'ask' } | { kind: 'suspend'; checkpoint: LoopCheckpoint } | { kind: 'completed'; completion: Completion | null };

export type LoopOptions = {
  agent: AgentDefinition;
  draft: SessionDraft;
  llm: LlmProvider;
  model: string;
  maxTurns: number;
  turn: TurnInput;
  /** Prefix of run step ids, unique per step (e.g. `rs-<seq>`). */
  runStepPrefix: string;
  log: Logger;
  signal?: AbortSignal;
  /** A suspended loop to resume; its `pendingResult` becomes the pending call's tool output. */
  checkpoint?: LoopCheckpoint | null;
  /** Bounds of the conversation sent to the model; without them the whole conversation goes. */
  prompt?: PromptLimits;
  /** Where an `ask` message's text goes while the model writes it, and the prefix of the ids it streams under (unique per step). */
  live?: { channel: LiveChannel; messageIdPrefix: string };
};

const specCache = new WeakMap<AgentDefinition, ToolSpec[]>();
function specsOf(agent: AgentDefinition): ToolSpec[] {
  let specs = specCache.get(agent);
  if (!specs) {
    specs = agent.tools.map((t) => toolSpec(t.name, t.description, t.schema));
    specCache.set(agent, specs);
  }
  return specs;
}

/**
 * The seed's runAgentLoop: call the model with tools, run the calls, feed
 * every result (errors included) back, stop at `ask`, at a subtask, or when the
 * agent is complete; inject "You still need to: …" when the model answers
 * without a tool call; give up after `maxTurns` model calls.
 */
export async function runAgentLoop(o: LoopOptions): Promise<LoopResult> {
  const { agent, draft } = o;
  const transcript: LlmMessage[] = o.checkpoint ? [...o.checkpoint.messages] : initialTranscript(o);
  let iterations = o.checkpoint?.iterations ?? 0;
  if (o.checkpoint) resumePendingCall(o, transcript, o.checkpoint);

  if (!o.checkpoint && agent.prepare) agent.prepare(draft);
  const resumed = o.checkpoint || agent.prepare ? agent.completion(draft) : null;
  if (resumed) return { kind: 'completed', completion: resumed };

  for (;;) {
    if (iterations >= o.maxTurns) throw new MaxTurnsExceededError(agent.name, o.maxTurns);
    iterations += 1;
    const direct = agent.directCall?.(draft);
    if (direct) {
      // No model call: the rules decided this step, and the model sees it in the transcript when it is next asked.
      const call: ToolCall = { ...direct, id: `direct_${agent.name}_${iterations}` };
      transcript.push({ role: 'assistant', content: null, toolCalls: [call] });
      const stop = await runToolCalls(o, transcript, [call]);
      const outcome = loopOutcome(o, transcript, iterations, stop);
      if (outcome) return outcome;
      continue;
    }
    const messages = promptMessages(o, transcript);
    const started = Date.now();
    const streaming = liveAsk(o, iterations);
    const res = await o.llm.chat({
      agent: agent.name,
      model: o.model,
      messages,
      tools: specsOf(agent),
      context: agent.context(draft, o.turn),
      signal: o.signal,
      onToolCallProgress: streaming?.onProgress,
    });
    o.log.debug(
      { agent: agent.name, iteration: iterations, toolCalls: res.toolCalls.map((c) => c.name), ms: Date.now() - started, usage: res.usage },
      'model call',
    );
    const usage = {
      promptTokens: res.usage.promptTokens,
      cachedTokens: res.usage.cachedTokens ?? 0,
      completionTokens: res.usage.completionTokens,
      reasoningTokens: res.usage.reasoningTokens ?? 0,
    };
    draft.countModelCall(usage);
    const firstRunStep = draft.runSteps.length;
    const calls = res.toolCalls.length > 0 ? res.toolCalls : textAsToolCall(agent, draft, res.content, iterations);
    transcript.push({ role: 'assistant', content: calls === res.toolCalls ? res.content : null, toolCalls: calls });

    if (calls.length === 0) {
      const tasks = agent.remainingTasks(draft);
      if (tasks.length > 0) {
        transcript.push({ role: 'user', content: `You still need to: ${tasks.join('; ')}` });
        continue;
      }
      return { kind: 'completed', completion: agent.completion(draft) };
    }

    const stop = await runToolCalls(o, transcript, calls, streaming?.sent(res.toolCalls));
    // The call's tokens go on the first run step it caused (a suspended call records its step later, without them).
    const recorded = draft.runSteps[firstRunStep];
    if (recorded) recorded.usage = usage;
    const outcome = loopOutcome(o, transcript, iterations, stop);
    if (outcome) return outcome;
  }
}

/** Where a batch of tool calls leaves the loop: ended (ask, a subtask, the agent complete) or null to go on. */
function loopOutcome(o: LoopOptions, transcript: LlmMessage[], iterations: number, stop: Stop | null): LoopResult | null {
  if (stop?.type === 'ask') return { kind: 'ask' };
  if (stop?.type === 'suspend') {
    return {
      kind: 'suspend',
      checkpoint: {
        agent: o.agent.name,
        messages: transcript,
        iterations,
        pendingCall: stop.call,
        subAgent: stop.subAgent,
        pendingStartedAt: stop.startedAt,
      },
    };
  }
  const completion = o.agent.completion(o.draft);
  return completion ? { kind: 'completed', completion } : null;
}

/**
 * The prompt of one call: the agent's stable instructions first, then the
 * conversation and this loop's calls, then the state that changes between
 * calls, so everything before the state is a prefix a server can cache.
 */
function promptMessages(o: LoopOptions, transcript: LlmMessage[]): LlmMessage[] {
  const state = o.agent.state?.(o.draft, o.turn);
  return [
    { role: 'system', content: o.agent.instructions(o.draft, o.turn) },
    ...transcript,
    ...(state ? [{ role: 'system' as const, content: state }] : []),
  ];
}

/**
 * Plain text from an agent whose turn ends with a message to the person is
 * that message: it becomes a call of the agent's text tool (so its gates and
 * run step apply), instead of being dropped by a reminder.
 */
function textAsToolCall(agent: AgentDefinition, draft: SessionDraft, content: string | null, iteration: number): ToolCall[] {
  const text = content?.trim() ?? '';
  const tool = text ? agent.textTool?.(draft) : null;
  if (!tool) return [];
  return [{ id: `text_${agent.name}_${iteration}`, name: tool, arguments: JSON.stringify({ message: text }) }];
}

function initialTranscript(o: LoopOptions): LlmMessage[] {
  if (o.agent.initialMessages) return o.agent.initialMessages(o.draft, o.turn);
  // The instructions and state are sent with every call: the conversation gets what the budget leaves.
  const fixed = estimateTokens(o.agent.instructions(o.draft, o.turn)) + estimateTokens(o.agent.state?.(o.draft, o.turn) ?? '');
  return conversationMessages(o.draft, o.prompt, o.agent.pinned?.(o.draft), fixed);
}

/**
 * Streams the text of the first `ask` call of a reply while the model writes
 * it, unless the agent may only send text that has been checked first. The
 * message is later sent under the same id, so clients replace the partial text.
 */
function liveAsk(o: LoopOptions, iteration: number) {
  if (!o.live || !(o.agent.streamsAsk?.(o.draft) ?? true)) return null;
  const { channel } = o.live;
  const messageId = `${o.live.messageIdPrefix}.${iteration}`;
  let streamedIndex: number | null = null;
  return {
    onProgress(progress: { index: number; name: string; arguments: string }) {
      if (progress.name !== ASK_TOOL.name || (streamedIndex !== null && streamedIndex !== progress.index)) return;
      const text = partialField(progress.arguments, 'message').trimStart();
      if (text === '') return;
      streamedIndex = progress.index;
      channel.messageText(messageId, text);
    },
    /** The streamed call of the finished reply and the id its text went out under. */
    sent(toolCalls: ToolCall[]): StreamedCall | undefined {
      const call = streamedIndex === null ? undefined : toolCalls[streamedIndex];
      return call ? { callId: call.id, messageId } : undefined;
    },
  };
}

type StreamedCall = { callId: string; messageId: string };

/** A string field of a JSON object that is still being written ('' until its value starts). */
function partialField(json: string, field: string): string {
  try {
    const value = (parsePartialJson(json, Allow.STR | Allow.OBJ) as Record<string, unknown> | null)?.[field];
    return typeof value === 'string' ? value : '';
  } catch {
    return '';
  }
}

type Stop = { type: 'ask' } | { type: 'suspend'; subAgent: NonNullable<LoopCheckpoint['subAgent']>; call: ToolCall; startedAt: string };

async function runToolCalls(o: LoopOptions, transcript: LlmMessage[], calls: ToolCall[], streamed?: StreamedCall): Promise<Stop | null> {
  let stop: Stop | null = null;
  for (const call of calls) {
    if (stop) {
      // The model may batch calls; after a call that ends the step the rest are answered, not run.
      pushToolResult(transcript, call, failure('Not executed: an earlier call in this batch ended the step.'));
      continue;
    }
    const startedAt = o.draft.now();
    const exec = await executeTool(o, call, startedAt, streamed?.callId === call.id ? streamed.messageId : undefined);
    if (exec.control?.type === 'suspend') {
      stop = { type: 'suspend', subAgent: exec.control.subAgent, call, startedAt };
      continue; // its result arrives when the sub-agent has run
    }
    pushToolResult(transcript, call, exec.result);
    if (exec.control?.type === 'ask') stop = { type: 'ask' };
  }
  return stop;
}

async function executeTool(o: LoopOptions, call: ToolCall, startedAt: string, messageId?: string): Promise<ToolExecution> {
  const tool = o.agent.tools.find((t) => t.name === call.name);
  const log = o.log.child({ tool: call.name });
  if (!tool) {
    const result = failure(`Unknown tool ${call.name}. Available: ${o.agent.tools.map((t) => t.name).join(', ')}`);
    recordRunStep(o, call.name, call.arguments, result, startedAt);
    return { result };
  }
  const parsed = parseAndValidateToolArgs(call.arguments, tool.schema, tool.name);
  if (!parsed.success) {
    const result = failure(parsed.error);
    log.info({ status: 'error' }, 'tool arguments rejected');
    recordRunStep(o, tool.name, call.arguments, result, startedAt);
    return { result };
  }
  const exec = await tool.execute(parsed.data, { draft: o.draft, agent: o.agent.name, turnId: o.turn.turnId, log, messageId });
  log.info({ status: exec.result.status, control: exec.control?.type ?? null }, 'tool executed');
  // A suspended call's run step is written when its result arrives (resumePendingCall).
  if (exec.control?.type !== 'suspend') recordRunStep(o, tool.name, parsed.data, exec.result, startedAt);
  return exec;
}

function resumePendingCall(o: LoopOptions, transcript: LlmMessage[], cp: LoopCheckpoint): void {
  const result = (cp.pendingResult ?? failure('The subtask produced no result.')) as FunctionCallResult<Record<string, unknown>>;
  pushToolResult(transcript, cp.pendingCall, result);
  const parsed = ParseToolArgsSchema.safeParse(cp.pendingCall.arguments);
  recordRunStep(o, cp.pendingCall.name, parsed.success ? parsed.data : cp.pendingCall.arguments, result, cp.pendingStartedAt);
}

function pushToolResult(transcript: LlmMessage[], call: ToolCall, result: FunctionCallResult<Record<string, unknown>>): void {
  transcript.push({ role: 'tool', toolCallId: call.id, name: call.name, content: JSON.stringify(result) });
}

function recordRunStep(o: LoopOptions, toolName: string, input: unknown, output: unknown, startedAt: string): void {
  o.draft.runSteps.push({
    runStepId: `${o.runStepPrefix}-${o.draft.runSteps.length + 1}`,
    turnId: o.turn.turnId,
    agent: o.agent.name,
    toolName,
    input,
    output,
    startedAt,
    finishedAt: o.draft.now(),
  });
}
