import type { SessionDraft } from '@convo/runtime';
import type { SessionState } from '@convo/contract';

/**
 * Test set-up only: puts a draft's state into a given shape directly, as a
 * stored session could be, without the mutators (and the events they emit)
 * that production code must go through.
 */
export function arrange<S extends SessionState>(draft: SessionDraft<S>, change: (state: S) => void): void {
  change(draft.state as S);
}
