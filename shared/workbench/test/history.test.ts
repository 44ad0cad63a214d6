import { describe, expect, it } from 'vitest';
import { coreSessionState, PROBLEM_HISTORY_MAX, type WorkbenchSessionState } from '@convo/contract';
import { applyEdit, generateOfflineWorksheet, workbenchDraft } from '@convo/workbench';

describe("a problem's edit history", () => {
  it(`keeps the newest ${PROBLEM_HISTORY_MAX} edits however often the problem is edited`, async () => {
    const now = new Date().toISOString();
    const request = { subject: 'math', difficulty: 'normal' as const, language: 'en' as const };
    const worksheet = await generateOfflineWorksheet('ws-history', request, now);
    let state: WorkbenchSessionState = {
      ...coreSessionState({ sessionId: 'ws-history', language: 'en', firstAgent: 'workbench', now }),
      kind: 'workbench',
      workbench: { request, shareTokenHash: null, worksheet, history: {}, results: [], active: null },
    };
    let problem = worksheet.problems[0]!;
    for (let i = 1; i <= PROBLEM_HISTORY_MAX + 10; i++) {
      const draft = workbenchDraft(state);
      problem = applyEdit(draft, problem, { field: 'explanation', value: `Explanation number ${i}.` }, 'user');
      state = draft.state as WorkbenchSessionState;
    }
    const history = state.workbench.history[problem.id]!;
    expect(history).toHaveLength(PROBLEM_HISTORY_MAX);
    expect(history.at(-1)!.after).toBe(`Explanation number ${PROBLEM_HISTORY_MAX + 10}.`);
    expect(history[0]!.after).toBe('Explanation number 11.');
    expect(problem.version).toBe(PROBLEM_HISTORY_MAX + 11);
  });
});
