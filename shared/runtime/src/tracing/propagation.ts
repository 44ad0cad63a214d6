import { context, propagation, ROOT_CONTEXT, type Context } from '@opentelemetry/api';
import type { TraceCarrier } from '@convo/contract';

/**
 * Trace context across the queue: a job's `trace` field holds the W3C
 * `traceparent` / `tracestate` of the context it was enqueued in, and the
 * worker continues that trace. With tracing off the API's propagator is a
 * no-op: nothing is written, and every job carries `trace: null`.
 */

/** The W3C headers of `ctx` (the active context by default); null when it carries no sampled-or-not span (tracing off, no span). */
export function injectTrace(ctx: Context = context.active()): TraceCarrier | null {
  const headers: Record<string, string> = {};
  propagation.inject(ctx, headers);
  const traceparent = headers.traceparent;
  return traceparent ? { traceparent, tracestate: headers.tracestate ?? null } : null;
}

/**
 * The remote parent a job (its `trace` field) or an HTTP request (its
 * headers) names, as a context to start spans in; the root context when
 * there is none, so the span starts a new trace.
 */
export function extractTrace(carrier: TraceCarrier | Readonly<Record<string, unknown>> | null | undefined): Context {
  if (!carrier) return ROOT_CONTEXT;
  const headers: Record<string, string> = {};
  for (const name of ['traceparent', 'tracestate']) {
    const value = carrier[name as keyof typeof carrier];
    if (typeof value === 'string') headers[name] = value;
  }
  return propagation.extract(ROOT_CONTEXT, headers);
}

/** The `trace` field of a payload not yet validated (a job the sweeper found, a job of another type). */
export function traceOf(data: unknown): TraceCarrier | null {
  const trace = (data as { trace?: unknown } | null | undefined)?.trace;
  if (!trace || typeof trace !== 'object') return null;
  const { traceparent, tracestate } = trace as { traceparent?: unknown; tracestate?: unknown };
  return typeof traceparent === 'string' ? { traceparent, tracestate: typeof tracestate === 'string' ? tracestate : null } : null;
}
