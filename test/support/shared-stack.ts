import { inject } from 'vitest';
import type { SharedStackInfo, SharedStackRequest } from './stack-broker.js';

export { SHARED_STACK_KEYS } from './stack-broker.js';
export type { SharedStackInfo };

/**
 * A stack shared with other test files (stack-broker.ts): the gateway and the
 * agents asked for, started by the run's global setup the first time any file
 * asks for this configuration and stopped when the run ends. For files that only
 * use the public API; a file that kills, restarts or reads the logs of a process
 * starts its own with startStack.
 *
 * The environment given here joins the shared defaults (its own key and queue
 * prefixes, SHARED_STACK_KEYS); files asking with the same environment share one
 * stack, whatever agents each needs.
 */
export async function sharedStack(request: SharedStackRequest = {}): Promise<SharedStackInfo> {
  const broker = inject('stackBroker');
  const res = await fetch(`${broker}/stacks`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(request),
  });
  const body = (await res.json()) as SharedStackInfo | { error: string };
  if (!res.ok || 'error' in body) throw new Error(`shared stack: ${'error' in body ? body.error : res.status}`);
  return body;
}
