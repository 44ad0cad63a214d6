import { ATTR, inSpan, SpanKind } from '@convo/runtime';
import type { LlmProvider } from './types.js';

/**
 * A `chat <model>` client span around every model call, with the GenAI
 * semantic conventions' attributes (provider, requested and answering model,
 * token usage). Names and counts only: no prompt or reply text is put on a
 * span, as none is logged. Retries inside the provider are part of the span.
 */
export function traceProvider(provider: LlmProvider, opts: { serverAddress?: string } = {}): LlmProvider {
  return {
    name: provider.name,
    chat(req) {
      const attributes = {
        [ATTR.genAiOperation]: 'chat',
        [ATTR.genAiProvider]: provider.name,
        [ATTR.genAiRequestModel]: req.model,
        [ATTR.genAiAgent]: req.agent,
        [ATTR.agent]: req.agent,
        ...(opts.serverAddress ? { [ATTR.serverAddress]: opts.serverAddress } : {}),
      };
      return inSpan(`chat ${req.model}`, { kind: SpanKind.CLIENT, attributes }, async (span) => {
        const res = await provider.chat(req);
        span.setAttributes({
          [ATTR.genAiResponseModel]: res.model,
          [ATTR.genAiInputTokens]: res.usage.promptTokens,
          [ATTR.genAiOutputTokens]: res.usage.completionTokens,
          ...(res.usage.cachedTokens !== undefined ? { [ATTR.genAiCacheReadTokens]: res.usage.cachedTokens } : {}),
          ...(res.usage.reasoningTokens !== undefined ? { [ATTR.genAiReasoningTokens]: res.usage.reasoningTokens } : {}),
          'convo.llm.tool_calls': res.toolCalls.length,
        });
        return res;
      });
    },
  };
}

/** The host a provider talks to, for `server.address`; undefined when the URL does not parse. */
export function hostOf(url: string): string | undefined {
  try {
    return new URL(url).hostname;
  } catch {
    return undefined;
  }
}
