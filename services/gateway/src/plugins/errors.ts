import { AppError, UnavailableError } from '@convo/runtime';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';

function send(reply: FastifyReply, status: number, code: string, message: string) {
  return reply.status(status).send({ error: { code, message } });
}

/** snake_case for Fastify's own error codes (FST_ERR_CTP_EMPTY_JSON_BODY → empty_json_body). */
export function fastifyCode(err: FastifyError): string {
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
 * Redis up but refusing writes: memory full under `noeviction` (OOM), still
 * loading its AOF after a restart (LOADING), or unable to persist (MISCONF).
 * Nothing was written; the client retries later.
 */
export function isRedisRefusing(err: unknown): boolean {
  return redisRefusal(err) !== null;
}

/** Why Redis refuses writes (`full`: maxmemory under noeviction), or null when it does not. */
export function redisRefusal(err: unknown): 'full' | 'loading' | 'misconf' | null {
  const message = err instanceof Error ? err.message : '';
  if (/OOM command not allowed/.test(message)) return 'full';
  if (/\bLOADING\b/.test(message)) return 'loading';
  if (/\bMISCONF\b/.test(message)) return 'misconf';
  return null;
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
    if (isRedisRefusing(err)) {
      req.log.warn({ err: err.message.slice(0, 120) }, 'redis refuses writes');
      reply.header('retry-after', '5');
      return send(reply, 503, 'redis_unavailable', 'the store is full or recovering and accepts no writes now; retry shortly');
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

/**
 * Errors the router raises before any route or error handler runs (a URL
 * that is not valid percent-encoding, a path parameter over the length
 * limit): the contract's shape too, with the router's status. No hook has
 * run, so the security headers are set here.
 */
export function frameworkErrors(securityHeaders: Readonly<Record<string, string>>) {
  return (err: FastifyError, _req: FastifyRequest, reply: FastifyReply): void => {
    const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 400;
    reply.headers(securityHeaders);
    void send(reply, status, fastifyCode(err), err.message.slice(0, 300));
  };
}

/**
 * Requests Node's HTTP parser rejects before Fastify sees them (headers over
 * the size limit, malformed request lines, a client too slow to send): the
 * contract's error shape on the raw socket, with the security headers, then
 * the connection is closed.
 */
export function clientErrorHandler(securityHeaders: Readonly<Record<string, string>>) {
  const headerLines = Object.entries(securityHeaders)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  return (err: NodeJS.ErrnoException, socket: Duplex): void => {
    if (err.code === 'ECONNRESET' || socket.destroyed) return;
    const [status, code, message] =
      err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'request_timeout', 'the request was not received in time']
        : err.code === 'HPE_HEADER_OVERFLOW'
          ? [431, 'headers_too_large', 'the request headers exceed the size limit']
          : [400, 'bad_request', 'the request is not valid HTTP'];
    const body = JSON.stringify({ error: { code, message } });
    if (socket.writable) {
      socket.write(
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json\r\n${headerLines}Connection: close\r\n\r\n${body}`,
      );
    }
    socket.destroy(err);
  };
}
