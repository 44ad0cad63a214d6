import { pino, type DestinationStream, type Logger } from 'pino';
import { activeTraceIds } from './tracing/ids.js';

export type { Logger };

/**
 * pino JSON logs. Bindings carry `service`; callers add `sessionId`, `turnId`,
 * `agent` and `tool` with `log.child(...)`. No message text, answer or
 * token is logged at any level (test/integration/log-hygiene.test.ts):
 * logs carry ids, names, counts and outcomes.
 */
/** Request log without secrets: the `?token=` of EventSource URLs never reaches a log. */
function serializeRequest(req: { method?: string; url?: string; headers?: Record<string, unknown> }) {
  return { method: req.method, url: req.url === undefined ? undefined : redactUrl(req.url) };
}

/** Query parameters whose value is a credential, by their decoded, lower-cased name. */
const SECRET_PARAMS = new Set(['token', 'access_token', 'key', 'api_key', 'apikey', 'secret', 'password']);

/**
 * The URL with the values of credential parameters replaced, matched on the
 * parsed query (so `?%74oken=` or `?TOKEN=` is caught as `?token=` is).
 */
export function redactUrl(url: string): string {
  const at = url.indexOf('?');
  if (at < 0) return url;
  const params = new URLSearchParams(url.slice(at + 1));
  let redacted = false;
  for (const name of new Set(params.keys())) {
    if (!SECRET_PARAMS.has(name.toLowerCase())) continue;
    params.set(name, 'redacted');
    redacted = true;
  }
  return redacted ? `${url.slice(0, at)}?${params.toString()}` : url;
}

/**
 * Written asynchronously: stdout is a pipe to a container runtime or a
 * supervisor, and a synchronous write blocks the whole process whenever the
 * reader falls behind (under a flood, every request's answer waited on it).
 * pino flushes what is buffered when the process exits.
 */
export function createLogger(service: string, level: string = 'info', opts: LoggerOptions = {}): Logger {
  return pino(
    {
      level,
      base: { service },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: ['token', '*.token', 'headers.authorization', 'req.headers.authorization'], remove: true },
      serializers: { req: serializeRequest },
      // Installed only with tracing on: without it, a log call does not even look for a span.
      ...(opts.traceIds ? { mixin: traceIdsMixin } : {}),
    },
    opts.destination ?? pino.destination({ dest: 1, sync: false }),
  );
}

export type LoggerOptions = {
  /** Lines written inside a span carry its `trace_id` and `span_id` (config.tracing.enabled). */
  traceIds?: boolean;
  /** Where lines go; stdout by default. */
  destination?: DestinationStream;
};

function traceIdsMixin(): Record<string, string> {
  return activeTraceIds() ?? {};
}
