import { ModelBehaviorError } from '@convo/runtime';
import { type AgentName } from '@convo/contract';
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
      const policy = policies[req.agent];
      if (!policy) throw new ModelBehaviorError(`the offline provider has no policy for agent ${req.agent}`);
      const res = toResponse(req, await policy(req, toolTail(req.messages)));
      if (latency > 0) await (req.onToolCallProgress ? writeSlowly(res, latency, req) : sleep(latency, req.signal));
      return res;
    },
  };
}

/** Pieces a reply's tool-call arguments are written in when streamed. */
const STREAM_PIECES = 8;

/**
 * Spends the simulated latency the way a streaming model does: half before
 * the first token, the rest writing each tool call's arguments in pieces, so
 * a demo shows a question appear while it is written.
 */
async function writeSlowly(res: ChatResponse, latency: number, req: ChatRequest): Promise<void> {
  await sleep(latency / 2, req.signal);
  const pause = latency / 2 / Math.max(1, res.toolCalls.length * STREAM_PIECES);
  for (const [index, call] of res.toolCalls.entries()) {
    const size = Math.ceil(call.arguments.length / STREAM_PIECES);
    for (let end = size; end < call.arguments.length + size; end += size) {
      req.onToolCallProgress?.({ index, name: call.name, arguments: call.arguments.slice(0, end) });
      await sleep(pause, req.signal);
    }
  }
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
