import { type AgentName, ModelBehaviorError } from '@convo/runtime';
import type { ChatRequest, ChatResponse, LlmProvider } from '../types.js';
import { toolTail, toResponse, type Policy } from './protocol.js';

export type { Policy } from './protocol.js';

/**
 * The `offline` provider: deterministic rule-based agents that speak the same
 * tool-calling protocol as a remote model (tool calls with JSON-string
 * arguments, results fed back as tool messages). A product mode for demos, CI
 * and load tests, not a test double. Each agent's policy lives in its own
 * folder (services/<agent>/src/offline.ts) and is registered by the service
 * that runs it.
 */
export function createOfflineProvider(opts: { latencyMs?: number; policies?: Partial<Record<AgentName, Policy>> } = {}): LlmProvider {
  const policies = opts.policies ?? {};
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
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
    });
  });
}
