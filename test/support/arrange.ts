import type { SessionDraft } from '@convo/runtime';
import type { SessionState } from '@convo/contract';

/** The state a draft holds (a product's draft holds its product's), without the read-only lens. */
type Writable<T> = T extends (...args: never[]) => unknown
  ? T
  : T extends ReadonlyArray<infer Item>
    ? Array<Writable<Item>>
    : T extends object
      ? { -readonly [Key in keyof T]: Writable<T[Key]> }
      : T;
type StateOf<D extends SessionDraft<SessionState>> = Writable<D['state']>;

/**
 * Test set-up only: puts a draft's state into a given shape directly, as a
 * stored session could be, without the mutators (and the events they emit)
 * that production code must go through.
 */
export function arrange<D extends SessionDraft<SessionState>>(draft: D, change: (state: StateOf<D>) => void): void {
  change(draft.state as unknown as StateOf<D>);
}
