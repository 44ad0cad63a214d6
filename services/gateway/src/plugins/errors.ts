import { AppError, UnavailableError } from '@convo/runtime';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';

function send(reply: import('fastify').FastifyReply, status: number, code: string, message: string) {
  return reply.status(status).send({ error: { code, message } });
}

/** snake_case for Fastify's own error codes (FST_ERR_CTP_EMPTY_JSON_BODY → empty_json_body). */
function fastifyCode(err: FastifyError): string {
  if (!err.code) return 'invalid_request';
  return err.code.replace(/^FST_ERR_(CTP_)?/, '').toLowerCase();
}

/**
 * Redis unreachable: the producer connection fails fast (no offline queue), and
 * the client gets 503 with Retry-After instead of a hanging request or a 500.
 */
export function isRedisUnavailable(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: string }).code;
  return (
    err.name === 'MaxRetriesPerRequestError' ||
    /enableOfflineQueue|Connection is closed|connect ECONNREFUSED/.test(err.message) ||
    code === 'ECONNREFUSED' ||
    code === 'ECONNRESET' ||
    code === 'ETIMEDOUT'
  );
}

/**
 * One error handler: the contract's `{error: {code, message}}` for every
 * failure, validation and other 4xx passed through, 5xx logged and masked.
 */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, req, reply) => {
    if (hasZodFastifySchemaValidationErrors(err)) {
      const detail = err.validation
        .map((v) => `${v.instancePath.replace(/^\//, '').replace(/\//g, '.') || err.validationContext || 'body'}: ${v.message}`)
        .join('; ');
      return send(reply, 400, 'invalid_request', detail);
    }
    if (err instanceof AppError) {
      if (err instanceof UnavailableError) reply.header('retry-after', String(err.retryAfterSeconds));
      // 503 and 504 are the system protecting itself or waiting too long, not faults: no stack in the log.
      if (err.status >= 500 && err.status !== 503 && err.status !== 504) req.log.error({ err }, 'request failed');
      else if (err.status >= 500) req.log.warn({ code: err.code, status: err.status }, err.message);
      return send(reply, err.status, err.code, err.message);
    }
    if (isRedisUnavailable(err)) {
      req.log.warn({ err: err.message }, 'redis unavailable');
      reply.header('retry-after', '2');
      return send(reply, 503, 'unavailable', 'the service is temporarily unavailable; retry shortly');
    }
    const status = err.statusCode ?? 500;
    if (status >= 400 && status < 500) return send(reply, status, fastifyCode(err), err.message);
    req.log.error({ err }, 'unhandled error');
    return send(reply, 500, 'internal_error', 'internal server error');
  });
  app.setNotFoundHandler((req, reply) => send(reply, 404, 'not_found', `no route ${req.method} ${req.url.split('?')[0]}`));
}
