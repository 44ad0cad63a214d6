import { pino, type Logger } from 'pino';

export type { Logger };

/**
 * pino JSON logs. Bindings carry `service`; callers add `sessionId`, `turnId`,
 * `agent` and `tool` with `log.child(...)`. Message text is never logged at
 * info level: user content appears only at debug.
 */
/** Request log without secrets: the `?token=` of EventSource URLs never reaches a log. */
function serializeRequest(req: { method?: string; url?: string; headers?: Record<string, unknown> }) {
  return { method: req.method, url: req.url?.replace(/([?&]token=)[^&]*/g, '$1[redacted]') };
}

export function createLogger(service: string, level: string = 'info'): Logger {
  return pino({
    level,
    base: { service },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: ['token', '*.token', 'headers.authorization', 'req.headers.authorization'], remove: true },
    serializers: { req: serializeRequest },
  });
}
