import { performance } from 'node:perf_hooks';

/**
 * A time budget for text analysis, so no text a person sends can hold a
 * process's event loop for long: a worker that analyses one message keeps
 * renewing its job locks and serving other sessions.
 *
 * Analysis is synchronous, so the budget is a deadline for one synchronous
 * call: `withinTextBudget(fn)` starts it (a call nested in another keeps the
 * outer deadline), and the loops that grow with the input call
 * `checkTextBudget()`, which throws TextBudgetExceededError once the deadline
 * has passed. The algorithms are linear and the inputs bounded, so a normal
 * message never comes near it; the budget is what makes a slow path that slipped
 * through fail one request with a clear code instead of stalling everyone.
 */

/** Default budget of one analysis call; services set theirs from TEXT_BUDGET_MS (setTextBudgetMs). */
export const DEFAULT_TEXT_BUDGET_MS = 1_000;

let budgetMs = DEFAULT_TEXT_BUDGET_MS;
/** The analysis running now: its deadline (performance.now() time) and budget; null outside one. */
let running: { deadline: number; ms: number } | null = null;

/** The error a step turns into the failure code `input_too_complex` (the agent kit maps it). */
export class TextBudgetExceededError extends Error {
  readonly code = 'input_too_complex';
  constructor(readonly budgetMs: number) {
    super(`the text took longer than ${budgetMs} ms to analyse; send a shorter or simpler message`);
    this.name = 'TextBudgetExceededError';
  }
}

export function setTextBudgetMs(ms: number): void {
  if (!Number.isFinite(ms) || ms <= 0) throw new RangeError(`a text budget must be a positive number of milliseconds, got ${ms}`);
  budgetMs = ms;
}

export function textBudgetMs(): number {
  return budgetMs;
}

/** Runs `fn` (synchronous) under the text budget; inside another budgeted call it shares that call's deadline. */
export function withinTextBudget<T>(fn: () => T, ms: number = budgetMs): T {
  if (running !== null) return fn();
  running = { deadline: performance.now() + ms, ms };
  try {
    const result = fn();
    // The deadline is cleared when this returns: an async analysis would run its rest unbudgeted.
    if (result instanceof Promise) throw new TypeError('withinTextBudget takes a synchronous function');
    return result;
  } finally {
    running = null;
  }
}

/** Throws TextBudgetExceededError when the running budgeted call is past its deadline; free outside one. */
export function checkTextBudget(): void {
  if (running !== null && performance.now() > running.deadline) throw new TextBudgetExceededError(running.ms);
}
