import type { Config, Logger } from '@convo/runtime';
import type { AgentName } from '@convo/contract';
import { createOfflineProvider, type Policy } from './offline/index.js';
import { createOpenAiProvider } from './openai-provider.js';
import { hostOf, traceProvider } from './traced.js';
import type { LlmProvider } from './types.js';

/**
 * Builds the configured provider; core code only ever sees `LlmProvider`.
 * `offlinePolicies` are the offline model's rules for the agents this
 * process runs (each agent's folder holds its own). Either provider's calls
 * are traced (`chat <model>` spans, traced.ts).
 */
export function createProvider(
  config: Config,
  log: Logger,
  offlinePolicies: Partial<Record<AgentName, Policy>> = {},
  agent?: AgentName,
): LlmProvider {
  if (config.llm.provider === 'openai') {
    // A service runs one agent: its own base URL, key, temperature and output cap when it has them.
    const own = agent ? config.llm.agents[agent] : undefined;
    const baseUrl = own?.baseUrl ?? config.llm.baseUrl;
    const provider = createOpenAiProvider({
      apiKey: own?.apiKey ?? config.llm.apiKey,
      baseUrl,
      timeoutMs: config.llm.timeoutMs,
      maxRetries: config.llm.maxRetries,
      compatibility: {
        maxOutputTokens: own?.maxOutputTokens ?? config.llm.maxOutputTokens,
        strictTools: config.llm.strictTools,
        toolChoice: config.llm.toolChoice,
        parallelToolCalls: config.llm.parallelToolCalls,
        temperature: own?.temperature ?? config.llm.temperature,
        stream: config.llm.stream,
        statePosition: config.llm.statePosition,
      },
      log,
    });
    return traceProvider(provider, { serverAddress: hostOf(baseUrl ?? 'https://api.openai.com/v1') });
  }
  return traceProvider(createOfflineProvider({ latencyMs: config.llm.offlineLatencyMs, policies: offlinePolicies }));
}
