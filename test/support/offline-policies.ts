import { createOfflineProvider } from '@convo/agent-kit/internal/llm/offline/index';
import type { LlmProvider } from '@convo/agent-kit';
import { architectPolicy } from '../../services/architect/src/offline.js';
import { auditorPolicy } from '../../services/auditor/src/offline.js';
import { checkerPolicy } from '../../services/checker/src/offline.js';
import { greeterPolicy } from '../../services/greeter/src/offline.js';
import { interviewerPolicy } from '../../services/interviewer/src/offline.js';
import { plannerPolicy } from '../../services/planner/src/offline.js';
import { reviewerPolicy } from '../../services/reviewer/src/offline.js';
import { searchPolicy } from '../../services/search/src/offline.js';

/** Every agent's offline policy, as the services register them one each: for tests that run several agents in one process. */
export const ALL_OFFLINE_POLICIES = {
  greeter: greeterPolicy,
  architect: architectPolicy,
  interviewer: interviewerPolicy,
  reviewer: reviewerPolicy,
  checker: checkerPolicy,
  auditor: auditorPolicy,
  planner: plannerPolicy,
  search: searchPolicy,
};

/** The offline provider with every agent's policy. */
export function offlineProvider(opts: Omit<Parameters<typeof createOfflineProvider>[0] & object, 'policies'> = {}): LlmProvider {
  return createOfflineProvider({ ...opts, policies: ALL_OFFLINE_POLICIES });
}
