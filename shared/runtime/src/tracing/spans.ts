import {
  context,
  INVALID_SPAN_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Span,
} from '@opentelemetry/api';
import { tracingEnabled } from './setup.js';

/**
 * Span helpers over `@opentelemetry/api`, so services and the agent kit
 * trace without depending on OpenTelemetry themselves. With tracing off
 * (setup.ts installed nothing) they run the work with a non-recording span
 * and build nothing.
 */
export { SpanKind, SpanStatusCode };
export type { Attributes as SpanAttributes, Context as TraceContext, Span };

/**
 * Attribute names: the project's own (`convo.*`) and the semantic
 * conventions' still-incubating ones, spelled here rather than imported
 * from `@opentelemetry/semantic-conventions/incubating` (whose names may
 * change between minor versions, as its README warns).
 */
export const ATTR = {
  sessionId: 'convo.session_id',
  turnId: 'convo.turn_id',
  agent: 'convo.agent',
  stepSeq: 'convo.step_seq',
  stepResult: 'convo.step_result',
  jobVersion: 'convo.job_version',
  commitMode: 'convo.commit.mode',
  commitOk: 'convo.commit.ok',
  commitEvents: 'convo.commit.events',
  messagingSystem: 'messaging.system',
  messagingOperationType: 'messaging.operation.type',
  messagingOperationName: 'messaging.operation.name',
  messagingDestination: 'messaging.destination.name',
  messagingMessageId: 'messaging.message.id',
  dbSystem: 'db.system.name',
  dbOperation: 'db.operation.name',
  errorType: 'error.type',
  genAiOperation: 'gen_ai.operation.name',
  genAiProvider: 'gen_ai.provider.name',
  genAiAgent: 'gen_ai.agent.name',
  genAiRequestModel: 'gen_ai.request.model',
  genAiResponseModel: 'gen_ai.response.model',
  genAiInputTokens: 'gen_ai.usage.input_tokens',
  genAiOutputTokens: 'gen_ai.usage.output_tokens',
  genAiCacheReadTokens: 'gen_ai.usage.cache_read.input_tokens',
  genAiReasoningTokens: 'gen_ai.usage.reasoning.output_tokens',
  serverAddress: 'server.address',
} as const;

/** BullMQ's errors that steer a job (moved back, delayed) rather than report a failure. */
const CONTROL_FLOW_ERRORS = new Set(['DelayedError', 'WaitingError', 'WaitingChildrenError', 'RateLimitError']);

const NOT_RECORDING = trace.wrapSpanContext(INVALID_SPAN_CONTEXT);

export type SpanOptions = {
  kind?: SpanKind;
  /** The parent's context; the active one by default. */
  parent?: Context;
  attributes?: Attributes;
};

/**
 * Runs `fn` in a new span (active while it runs, so spans and logs inside
 * it are its children); a thrown error is recorded on the span and rethrown.
 */
export async function inSpan<T>(name: string, opts: SpanOptions, fn: (span: Span) => Promise<T>): Promise<T> {
  if (!tracingEnabled()) return fn(NOT_RECORDING);
  const { span, context: spanContext } = startSpan(name, opts);
  try {
    return await context.with(spanContext, fn, undefined, span);
  } catch (err) {
    recordError(span, err);
    throw err;
  } finally {
    span.end();
  }
}

/** A span its caller ends (an HTTP request's, ended when the answer is sent), and the context it is active in. */
export function startSpan(name: string, opts: SpanOptions): { span: Span; context: Context } {
  const parent = opts.parent ?? context.active();
  const span = trace.getTracer('convo').startSpan(name, { kind: opts.kind ?? SpanKind.INTERNAL, attributes: opts.attributes }, parent);
  return { span, context: trace.setSpan(parent, span) };
}

/** Runs `fn` with `ctx` active. */
export function withTraceContext<T>(ctx: Context, fn: () => T): T {
  return context.with(ctx, fn);
}

/** Adds attributes to the active span, if any (what is known only later, e.g. the turn id a request was given). */
export function annotateActiveSpan(attributes: Attributes): void {
  trace.getActiveSpan()?.setAttributes(attributes);
}

/** Marks the span failed with the error's code (AppError) or name; BullMQ's steering errors are not failures. */
export function recordError(span: Span, err: unknown): void {
  const error = err instanceof Error ? err : new Error(String(err));
  if (CONTROL_FLOW_ERRORS.has(error.name)) return;
  const code = (error as { code?: unknown }).code;
  span.recordException(error);
  span.setAttribute(ATTR.errorType, typeof code === 'string' ? code : error.name);
  span.setStatus({ code: SpanStatusCode.ERROR, message: error.message });
}
