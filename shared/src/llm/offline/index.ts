import type { AgentName } from '../../agents-list.js';
import { ModelBehaviorError } from '../../errors.js';
import type { ChatRequest, ChatResponse, LlmProvider } from '../types.js';
import { architectPolicy } from './architect.js';
import { auditorPolicy } from './auditor.js';
import { checkerPolicy } from './checker.js';
import { plannerPolicy, searchPolicy } from './faq.js';
import { greeterPolicy } from './greeter.js';
import { interviewerPolicy } from './interviewer.js';
import { toolTail, toResponse, type Policy } from './protocol.js';
import { reviewerPolicy } from './reviewer.js';

const POLICIES: Partial<Record<AgentName, Policy>> = {
  greeter: greeterPolicy,
  architect: architectPolicy,
  interviewer: interviewerPolicy,
  reviewer: reviewerPolicy,
  checker: checkerPolicy,
  auditor: auditorPolicy,
  planner: plannerPolicy,
  search: searchPolicy,
};

/**
 * The `offline` provider: deterministic rule-based agents that speak the same
 * tool-calling protocol as a remote model (tool calls with JSON-string
 * arguments, results fed back as tool messages). A product mode for demos, CI
 * and load tests, not a test double.
 */
export function createOfflineProvider(opts: { latencyMs?: number; policies?: Partial<Record<AgentName, Policy>> } = {}): LlmProvider {
  const policies = { ...POLICIES, ...opts.policies };
  const latency = opts.latencyMs ?? 0;
  return {
    name: 'offline',
    async chat(req: ChatRequest): Promise<ChatResponse> {
      if (latency > 0) await sleep(latency, req.signal);
      const policy = policies[req.agent];
      if (!policy) throw new ModelBehaviorError(`the offline provider has no policy for agent ${req.agent}`);
      return toResponse(req, await policy(req, toolTail(req.messages)));
    },
  };
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(t);
      reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
    });
  });
}
