import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import { createOfflineProvider } from './offline/index.js';
import { createOpenAiProvider } from './openai-provider.js';
import type { LlmProvider } from './types.js';

/** Builds the configured provider; core code only ever sees `LlmProvider`. */
export function createProvider(config: Config, log: Logger): LlmProvider {
  if (config.llm.provider === 'openai') {
    return createOpenAiProvider({
      apiKey: config.llm.apiKey,
      baseUrl: config.llm.baseUrl,
      timeoutMs: config.llm.timeoutMs,
      maxRetries: config.llm.maxRetries,
      log,
    });
  }
  return createOfflineProvider({ latencyMs: config.llm.offlineLatencyMs });
}
