import { SystemError } from '../errors.js';
import { coreDraft, type DraftFactory, type SessionDraft } from './draft.js';
import { plainTurnIntake, type TurnIntake } from './step-handler.js';

/**
 * What a product gives the runtime, so the runtime can run its steps without
 * knowing what the product keeps: the draft its agents work on (its subclass
 * of SessionDraft), how its turns take a user message, and how a failed turn
 * leaves its part of the state. Each product package exports one; an agent
 * service is started with its product's, the gateway (whose sweeper fails the
 * turns of every product) with `productsByKind` over all of them.
 */
export type ProductHooks<D extends SessionDraft = SessionDraft> = {
  draft: DraftFactory<D>;
  /** How a turn takes the user's message; without one it is added as it is. */
  intake?: TurnIntake<D>;
  /**
   * Puts the product's part back in order when a turn fails (the runtime has already closed the
   * suspended loop and given the conversation back to the agent that ran it).
   */
  repair?: (draft: D) => void;
};

/** The core alone: a product that keeps nothing of its own, and the runtime's tests. */
export const CORE_PRODUCT: ProductHooks = { draft: coreDraft };

/**
 * One set of hooks over several products, chosen by the session's `kind`: for a process that
 * serves sessions of every product (the gateway's sweeper). A kind nobody registered is a bug.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each product's hooks take its own draft; the kind picks them
export function productsByKind(byKind: Readonly<Record<string, ProductHooks<any>>>): ProductHooks {
  const of = (kind: string): ProductHooks => {
    const hooks = byKind[kind];
    if (!hooks) throw new SystemError(`no product serves sessions of kind ${kind}`);
    return hooks;
  };
  return {
    draft: (state, owned) => of(state.kind).draft(state, owned),
    intake: (draft, message, turnId) => (of(draft.state.kind).intake ?? plainTurnIntake)(draft, message, turnId),
    repair: (draft) => of(draft.state.kind).repair?.(draft),
  };
}
