import type { AgentName, Config, Logger } from '@convo/runtime';
import { createOfflineProvider, type Policy } from './offline/index.js';
import { createOpenAiProvider } from './openai-provider.js';
import type { LlmProvider } from './types.js';

/**
 * Builds the configured provider; core code only ever sees `LlmProvider`.
 * `offlinePolicies` are the offline model's rules for the agents this
 * process runs (each agent's folder holds its own).
 */
export function createProvider(config: Config, log: Logger, offlinePolicies: Partial<Record<AgentName, Policy>> = {}): LlmProvider {
  if (config.llm.provider === 'openai') {
    return createOpenAiProvider({
      apiKey: config.llm.apiKey,
      baseUrl: config.llm.baseUrl,
      timeoutMs: config.llm.timeoutMs,
      maxRetries: config.llm.maxRetries,
      compatibility: {
        maxOutputTokens: config.llm.maxOutputTokens,
        strictTools: config.llm.strictTools,
        toolChoice: config.llm.toolChoice,
        parallelToolCalls: config.llm.parallelToolCalls,
        temperature: config.llm.temperature,
      },
      log,
    });
  }
  return createOfflineProvider({ latencyMs: config.llm.offlineLatencyMs, policies: offlinePolicies });
}
