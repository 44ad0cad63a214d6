import { isSpanContextValid, trace } from '@opentelemetry/api';

/** `trace_id` and `span_id` of the active span, for log lines (logger.ts); undefined outside a span. */
export function activeTraceIds(): { trace_id: string; span_id: string } | undefined {
  const spanContext = trace.getActiveSpan()?.spanContext();
  return spanContext && isSpanContextValid(spanContext) ? { trace_id: spanContext.traceId, span_id: spanContext.spanId } : undefined;
}
