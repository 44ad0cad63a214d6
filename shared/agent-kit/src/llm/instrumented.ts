import type { RuntimeMetrics } from '@convo/runtime';
import type { LlmProvider } from './types.js';

/** Records every model call's latency, outcome and tokens per agent, provider and model. */
export function instrumentProvider(provider: LlmProvider, metrics: RuntimeMetrics): LlmProvider {
  return {
    name: provider.name,
    async chat(req) {
      const labels = { agent: req.agent, provider: provider.name, model: req.model };
      const end = metrics.llmDuration.startTimer(labels);
      try {
        const res = await provider.chat(req);
        end({ outcome: 'ok' });
        metrics.llmTokens.inc({ ...labels, kind: 'prompt' }, res.usage.promptTokens);
        metrics.llmTokens.inc({ ...labels, kind: 'completion' }, res.usage.completionTokens);
        return res;
      } catch (err) {
        end({ outcome: 'error' });
        throw err;
      }
    },
  };
}
