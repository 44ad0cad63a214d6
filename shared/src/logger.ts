import { pino, type Logger } from 'pino';

export type { Logger };

/**
 * pino JSON logs. Bindings carry `service`; callers add `sessionId`, `turnId`,
 * `agent` and `tool` with `log.child(...)`. Message text is never logged at
 * info level: user content appears only at debug.
 */
export function createLogger(service: string, level: string = 'info'): Logger {
  return pino({
    level,
    base: { service },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: ['token', '*.token', 'headers.authorization', 'req.headers.authorization'], remove: true },
  });
}
