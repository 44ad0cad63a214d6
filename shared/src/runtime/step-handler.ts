import type { AgentName } from '../agents-list.js';
import type { TurnInput } from '../agents/agent.js';
import type { SessionDraft } from '../agents/draft.js';
import type { Logger } from '../logger.js';
import type { Step } from '../schemas/session.js';

/** What a step decided about the rest of the turn. */
export type StepOutcome =
  /** Another agent runs next within the same turn (hand-off, subtask, or return from a subtask). */
  | { kind: 'continue'; to: AgentName }
  /** `ask` was called: the turn is complete and the system waits for the user. */
  | { kind: 'await_user' }
  /** Nothing left to do in this turn, and no question is pending. */
  | { kind: 'end' };

export type StepContext = {
  draft: SessionDraft;
  step: Step;
  turn: TurnInput;
  /** Per-turn settings accepted with the turn (FAQ dialog options), or null. */
  turnOptions?: Record<string, unknown> | null;
  log: Logger;
  signal?: AbortSignal;
};

/** An agent service's pure handler: session draft in, mutations and an outcome out. */
export type StepHandler = (ctx: StepContext) => Promise<StepOutcome>;
