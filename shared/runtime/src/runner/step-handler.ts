import type { AgentName } from '@convo/contract';
import type { Logger } from '../logger.js';
import type { Step } from '@convo/contract';
import type { SessionDraft } from './draft.js';
import type { LiveChannel } from './live.js';

/** The user turn a step belongs to; `message` is null on a session's bootstrap run. */
export type TurnInput = { turnId: string; message: string | null };

/**
 * How a product takes a user message as its turn starts: it adds the message
 * to the draft (a product may tie it to what it answers) and may ask for the
 * stored turn to be rewritten (a product may mask what must not be kept). Runs once per turn, in the step that begins it;
 * it may be async, so a product can load what it reads with where a turn first needs it.
 */
export type TurnIntake<D extends SessionDraft = SessionDraft> = (
  draft: D,
  message: string,
  turnId: string,
) => { redactedMessage?: string } | Promise<{ redactedMessage?: string }>;

/** The intake of a product that keeps messages as they are. */
export const plainTurnIntake: TurnIntake = (draft, message, turnId) => {
  draft.addUserMessage(message, turnId, null, false);
  return {};
};

/** What a step decided about the rest of the turn. */
export type StepOutcome =
  /** Another agent runs next within the same turn (hand-off, subtask, or return from a subtask). */
  | { kind: 'continue'; to: AgentName }
  /** `ask` was called: the turn is complete and the system waits for the user. */
  | { kind: 'await_user' }
  /** Nothing left to do in this turn, and no question is pending. */
  | { kind: 'end' };

export type StepContext<D extends SessionDraft = SessionDraft> = {
  /** The session's draft, of the product's own draft class (the service's DraftFactory made it). */
  draft: D;
  step: Step;
  turn: TurnInput;
  /** Per-turn settings accepted with the turn (a product's options for it), or null. */
  turnOptions?: Record<string, unknown> | null;
  log: Logger;
  signal?: AbortSignal;
  /** Live-only output of the step (message text while it is generated); absent: nothing is streamed. */
  live?: LiveChannel;
};

/** An agent service's pure handler: session draft in, mutations and an outcome out. */
export type StepHandler<D extends SessionDraft = SessionDraft> = (ctx: StepContext<D>) => Promise<StepOutcome>;
