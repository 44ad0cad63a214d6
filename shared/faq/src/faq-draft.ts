import { SessionDraft, SystemError, type ProductHooks } from '@convo/runtime';
import type { FaqSessionState, FaqState, SessionState } from '@convo/contract';

/** The draft of an FAQ dialog: the core's mutators and the dialog context's. */
export class FaqDraft extends SessionDraft<FaqSessionState> {
  /** Changes to the dialog context go through here (history, the results of recent turns). */
  updateFaq(change: (faq: FaqState) => void): void {
    change(this.mutable.faq);
    this.touch();
  }
}

/** The draft of an FAQ dialog; a session of another product is a bug in the caller. */
export function faqDraft(state: SessionState, owned = false, clock?: () => Date): FaqDraft {
  if (state.kind === 'faq') return new FaqDraft(state, clock, owned);
  throw new SystemError(`session ${state.sessionId} is a ${state.kind} session, not an FAQ dialog`);
}

/** The FAQ product to the runtime: its draft, and a failed turn's next turn starting with the planner again. */
export const FAQ: ProductHooks<FaqDraft> = {
  draft: faqDraft,
  repair: (draft) => {
    if (draft.state.currentAgent !== 'planner') draft.setAgent('planner');
  },
};
