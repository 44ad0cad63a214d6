import { type Config, type SessionDraft, type StepContext, type StepHandler, type StepOutcome, SystemError } from '@convo/runtime';
import { type AgentName, type LoopCheckpoint, mutableCopy } from '@convo/contract';
import type { AgentDefinition } from './agent.js';
import { runAgentLoop } from './loop.js';
import type { FunctionCallResult } from './tool.js';
import type { LlmProvider } from './llm/types.js';
import type { PromptLimits } from './history.js';

export type LoopHandlerDeps = { llm: LlmProvider; model: string; maxTurns: number; prompt?: PromptLimits };

/** An agent's loop settings from the configuration: its model, the bound on model calls, and its prompt limits. */
export function loopDeps(config: Config, agent: AgentName, llm: LlmProvider): LoopHandlerDeps {
  return {
    llm,
    model: config.llm.models[agent],
    maxTurns: config.agentMaxTurns,
    prompt: { historyMessages: config.llm.historyMessages, tokenBudget: config.llm.agents[agent].promptTokenBudget },
  };
}

function runLoop<D extends SessionDraft>(
  agent: AgentDefinition<D>,
  deps: LoopHandlerDeps,
  ctx: StepContext<D>,
  checkpoint: LoopCheckpoint | null,
) {
  return runAgentLoop({
    agent,
    draft: ctx.draft,
    llm: deps.llm,
    model: deps.model,
    maxTurns: deps.maxTurns,
    prompt: deps.prompt,
    turn: ctx.turn,
    runStepPrefix: `rs-${ctx.step.seq}`,
    log: ctx.log,
    signal: ctx.signal,
    checkpoint,
    live: ctx.live ? { channel: ctx.live, messageIdPrefix: `${ctx.draft.state.sessionId}-m${ctx.step.seq}` } : undefined,
  });
}

/**
 * Step handler of a conversation-owning agent (greeter, architect,
 * interviewer): runs its loop, resuming a suspended loop whose subtask result
 * has arrived, and maps the loop's end to the turn's next move.
 */
export function loopStepHandler<D extends SessionDraft>(agent: AgentDefinition<D>, deps: LoopHandlerDeps): StepHandler<D> {
  return async (ctx: StepContext<D>): Promise<StepOutcome> => {
    const { draft } = ctx;
    const cp = draft.state.loop;
    const checkpoint = cp && cp.agent === agent.name && cp.pendingResult !== undefined ? mutableCopy<LoopCheckpoint>(cp) : null;
    if (checkpoint) draft.setLoop(null);
    const result = await runLoop(agent, deps, ctx, checkpoint);
    if (result.kind === 'ask') return { kind: 'await_user' };
    if (result.kind === 'suspend') {
      draft.setLoop(result.checkpoint);
      return { kind: 'continue', to: result.checkpoint.subAgent };
    }
    if (result.completion?.type === 'handoff') return { kind: 'continue', to: result.completion.to };
    return { kind: 'end' };
  };
}

/**
 * Step handler of a sub-agent (reviewer, checker, auditor): a fresh loop of
 * its own whose tool leaves a FunctionCallResult for the caller in
 * `subSessionResults[<pending call id>]`; control then returns to the caller.
 */
export function subtaskStepHandler<D extends SessionDraft>(
  agent: AgentDefinition<D>,
  deps: LoopHandlerDeps,
  opts: { then?: (draft: D) => AgentName | null } = {},
): StepHandler<D> {
  return async (ctx: StepContext<D>): Promise<StepOutcome> => {
    const { draft } = ctx;
    const cp = draft.state.loop;
    if (!cp || cp.subAgent !== agent.name || cp.pendingResult !== undefined) {
      throw new SystemError(`${agent.name} step without a pending subtask`);
    }
    await runLoop(agent, deps, ctx, null);
    const missing: FunctionCallResult<Record<string, unknown>> = {
      status: 'error',
      result: { message: `${agent.name} finished without a result` },
    };
    draft.resolveSubtask(missing);
    // `then` lets the system run another agent first (the auditor after the last field); the caller resumes after it.
    return { kind: 'continue', to: opts.then?.(draft) ?? cp.agent };
  };
}

/**
 * Step handler of an agent the system runs on its own initiative (the auditor
 * once every field is resolved). The caller's suspended loop stays suspended
 * and resumes after it.
 */
export function systemStepHandler<D extends SessionDraft>(agent: AgentDefinition<D>, deps: LoopHandlerDeps): StepHandler<D> {
  return async (ctx: StepContext<D>): Promise<StepOutcome> => {
    await runLoop(agent, deps, ctx, null);
    const cp = ctx.draft.state.loop;
    return cp ? { kind: 'continue', to: cp.agent } : { kind: 'end' };
  };
}
