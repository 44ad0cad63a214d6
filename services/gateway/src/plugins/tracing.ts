import {
  ATTR,
  extractTrace,
  type Span,
  SpanKind,
  SpanStatusCode,
  startSpan,
  type TraceContext,
  tracingEnabled,
  withTraceContext,
} from '@convo/runtime';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import fp from 'fastify-plugin';

declare module 'fastify' {
  interface FastifyRequest {
    /** The request's server span and the context its handler runs in; set only with tracing on. */
    traceSpan?: { span: Span; context: TraceContext; ended: boolean };
  }
}

/**
 * One SERVER span per request (`POST /v1/sessions/:id/turns`), the child of
 * the caller's `traceparent` when it sends one, else the root of a new
 * trace. The route handler runs with the span's context active, so the jobs
 * it enqueues and the turn it stores carry it (queues/catalog.ts,
 * store/session-store.ts) and the agents' spans join the trace. The trace id
 * is echoed in `x-trace-id`, so a client can look its request up.
 *
 * The context is entered around the handler (onRoute) rather than in a hook:
 * AsyncLocalStorage keeps a context only for what runs inside the call that
 * entered it, and Fastify reaches the handler from the body parser's stream
 * events, outside any hook's call. Registered after load shedding, so a shed
 * request costs no span; with tracing off it adds no hook at all.
 */
export const tracingPlugin = fp(async (app: FastifyInstance) => {
  if (!tracingEnabled()) return;
  app.addHook('onRoute', (route) => {
    const handler = route.handler;
    route.handler = function (this: FastifyInstance, req: FastifyRequest, reply: FastifyReply) {
      const traced = req.traceSpan;
      return traced ? withTraceContext(traced.context, () => handler.call(this, req, reply)) : handler.call(this, req, reply);
    } as RouteHandlerMethod;
  });
  app.addHook('onRequest', async (req, reply) => {
    const route = req.routeOptions.url;
    const sessionId = (req.params as { id?: unknown } | undefined)?.id;
    const { span, context } = startSpan(route ? `${req.method} ${route}` : req.method, {
      kind: SpanKind.SERVER,
      parent: extractTrace(req.headers),
      attributes: {
        'http.request.method': req.method,
        // The path only: an EventSource URL carries the session token in its query.
        'url.path': req.url.split('?')[0] ?? '/',
        ...(route ? { 'http.route': route } : {}),
        ...(typeof sessionId === 'string' ? { [ATTR.sessionId]: sessionId } : {}),
      },
    });
    req.traceSpan = { span, context, ended: false };
    reply.header('x-trace-id', span.spanContext().traceId);
    // An event stream is hijacked from Fastify and never reaches onResponse: its span ends when the connection does.
    reply.raw.once('close', () => endSpan(req, reply));
  });
  app.addHook('onResponse', async (req, reply) => endSpan(req, reply));
});

function endSpan(req: FastifyRequest, reply: FastifyReply): void {
  const traced = req.traceSpan;
  if (!traced || traced.ended) return;
  traced.ended = true;
  const status = reply.raw.statusCode;
  traced.span.setAttribute('http.response.status_code', status);
  // Server spans are failed by 5xx only: a 4xx is the client's doing (semantic conventions, HTTP spans).
  if (status >= 500) traced.span.setStatus({ code: SpanStatusCode.ERROR, message: `HTTP ${status}` });
  traced.span.end();
}
