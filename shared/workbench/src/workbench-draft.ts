import { SessionDraft, SystemError, type ProductHooks } from '@convo/runtime';
import type { SessionState, WorkbenchSessionState, WorkbenchState } from '@convo/contract';

/** The draft of a workbench session: the core's mutators and the worksheet's. */
export class WorkbenchDraft extends SessionDraft<WorkbenchSessionState> {
  /** Changes to the worksheet, its edit histories and the agent's results go through here. */
  updateWorkbench(change: (workbench: WorkbenchState) => void): void {
    change(this.mutable.workbench);
    this.touch();
  }
}

/** The draft of a workbench session; a session of another product is a bug in the caller. */
export function workbenchDraft(state: SessionState, owned = false, clock?: () => Date): WorkbenchDraft {
  if (state.kind === 'workbench') return new WorkbenchDraft(state, clock, owned);
  throw new SystemError(`session ${state.sessionId} is a ${state.kind} session, not a workbench`);
}

/** The workbench to the runtime: its draft (a failed turn's effects are discarded with it: nothing to repair). */
export const WORKBENCH: ProductHooks<WorkbenchDraft> = { draft: workbenchDraft };
