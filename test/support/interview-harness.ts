import { createLogger, resetAfterFailure, type StepHandler } from '@convo/runtime';
import { type AgentName, SessionForm } from '@convo/contract';
import { routeUserMessage } from '@convo/forms/internal/domain/answer-routing';
import { formDraft, FORMS, newFormSession, type FormDraft } from '@convo/forms';
import { offlineProvider } from './offline-policies.js';
import { type LlmProvider, loopStepHandler, subtaskStepHandler } from '@convo/agent-kit';
import { architectAgent } from '../../services/architect/src/agent.js';
import { greeterAgent } from '../../services/greeter/src/agent.js';
import { createInterviewerAgent } from '../../services/interviewer/src/agent.js';
import { createReviewerAgent } from '../../services/reviewer/src/agent.js';

/**
 * The step runner without Redis, for unit tests of whole interviews: the
 * respondent's message is routed as the step runner routes it, each agent's
 * step handler runs in turn until the turn ends, and a step that throws ends
 * the turn the way `failTurn` does. Models are the offline provider unless a
 * test gives one per agent.
 */
export type Interview = {
  draft: FormDraft;
  /** Sends a message (null: the bootstrap run) and runs the turn; returns the agents that ran, and whether it failed. */
  say(message: string | null): Promise<{ ran: AgentName[]; failed: boolean }>;
  assistantTexts(): string[];
  lastAssistant(): string;
};

const NOW = new Date('2026-11-24T10:00:00.000Z');
const log = createLogger('test', 'silent');

export function startInterview(opts: {
  form: unknown;
  language?: 'ja' | 'en' | null;
  maxFollowUps?: number;
  maxSessionTurns?: number;
  models?: Partial<Record<AgentName, LlmProvider>>;
}): Interview {
  const form = SessionForm.parse(opts.form);
  const state = newFormSession({
    sessionId: 's1',
    kind: 'form',
    form,
    language: opts.language ?? null,
    firstAgent: 'greeter',
    now: NOW.toISOString(),
  });
  const draft = formDraft(state, false, () => NOW);
  const offline = offlineProvider();
  const deps = (agent: AgentName) => ({ llm: opts.models?.[agent] ?? offline, model: 'test', maxTurns: 10 });
  const handlers: Partial<Record<AgentName, StepHandler<FormDraft>>> = {
    greeter: loopStepHandler(greeterAgent, deps('greeter')),
    architect: loopStepHandler(architectAgent, deps('architect')),
    interviewer: loopStepHandler(createInterviewerAgent({ maxSessionTurns: opts.maxSessionTurns ?? 200 }), deps('interviewer')),
    reviewer: subtaskStepHandler(createReviewerAgent({ maxFollowUps: opts.maxFollowUps ?? 2 }), deps('reviewer')),
  };
  let turnNo = 0;
  const assistantTexts = () => draft.state.messages.filter((m) => m.role === 'assistant').map((m) => m.text);
  return {
    draft,
    assistantTexts,
    lastAssistant: () => assistantTexts().at(-1) ?? '',
    async say(message) {
      const turnId = `t${++turnNo}`;
      if (message !== null) {
        const route = routeUserMessage(draft.state, message, NOW);
        draft.addUserMessage(message, turnId, route.fieldId, route.correction);
      }
      const ran: AgentName[] = [];
      for (let seq = 1; seq <= 30; seq++) {
        const agent = draft.state.currentAgent;
        ran.push(agent);
        const before = structuredClone(draft.state);
        try {
          const outcome = await handlers[agent]!({ draft, step: { seq, agent, turnId }, turn: { turnId, message }, log });
          if (outcome.kind !== 'continue') return { ran, failed: false };
          draft.setAgent(outcome.to);
        } catch {
          // As the step runner does: the failed step's partial effects are dropped and the turn ends.
          Object.assign(draft.state, before);
          resetAfterFailure(draft, FORMS);
          return { ran, failed: true };
        }
      }
      throw new Error('turn did not end');
    },
  };
}

/** Runs the greeting and settles language and residence, so the interview's first question has been asked. */
export async function throughGreeting(interview: Interview, residence: string): Promise<void> {
  await interview.say(null);
  await interview.say(residence);
}
