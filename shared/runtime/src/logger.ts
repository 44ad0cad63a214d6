import { pino, type Logger } from 'pino';

export type { Logger };

/**
 * pino JSON logs. Bindings carry `service`; callers add `sessionId`, `turnId`,
 * `agent` and `tool` with `log.child(...)`. No message text, answer or
 * token is logged at any level (test/integration/log-hygiene.test.ts):
 * logs carry ids, names, counts and outcomes.
 */
/** Request log without secrets: the `?token=` of EventSource URLs never reaches a log. */
function serializeRequest(req: { method?: string; url?: string; headers?: Record<string, unknown> }) {
  return { method: req.method, url: req.url?.replace(/([?&]token=)[^&]*/g, '$1[redacted]') };
}

/**
 * Written asynchronously: stdout is a pipe to a container runtime or a
 * supervisor, and a synchronous write blocks the whole process whenever the
 * reader falls behind (under a flood, every request's answer waited on it).
 * pino flushes what is buffered when the process exits.
 */
export function createLogger(service: string, level: string = 'info'): Logger {
  return pino(
    {
      level,
      base: { service },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: ['token', '*.token', 'headers.authorization', 'req.headers.authorization'], remove: true },
      serializers: { req: serializeRequest },
    },
    pino.destination({ dest: 1, sync: false }),
  );
}
