import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { RedisClient } from '@convo/runtime';
import { ForbiddenError, NotFoundError, type SessionStore, UnauthorizedError } from '@convo/runtime';
import type { FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { DeploymentSecrets, GatewayDeps, SecretSource } from './deps.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Who may call the route, checked before its handler:
     * - 'session' needs the token of the session named by `:id` (Authorization: Bearer);
     * - 'sessionStream' the same, also as `?token=` (EventSource cannot set headers; only the event stream takes it);
     * - 'faqWrite' needs FAQ_WRITE_KEY or OPERATOR_KEY (refused when neither is configured, unless FAQ_OPEN_WRITES is on);
     * - 'operator' needs OPERATOR_KEY (Bearer, or Basic with the key as password; refused when it is not configured).
     * Routes without it are open (or check access themselves, as /agent.dialog and the worksheet routes do).
     */
    auth?: 'session' | 'sessionStream' | 'faqWrite' | 'operator';
  }
}

/** 256 random bits, base64url; only its SHA-256 is stored. */
export function newToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashToken(token) };
}

const SECRET_CACHE_MS = 5_000;

const secretKeys = (prefix: string) => ({ current: `${prefix}:secret`, previous: `${prefix}:secret:previous` });

/**
 * The deployment's secrets: 256 random bits written once to Redis (SET NX)
 * and read by every gateway, so a token derived from one is the same on each.
 * A rotation (rotateDeploymentSecret) makes a new current secret and keeps the
 * old one as `previous` for a grace period: tokens derived from either are
 * recognised meanwhile. Gateways re-read them at most SECRET_CACHE_MS after a
 * rotation.
 */
export async function loadDeploymentSecrets(redis: RedisClient, prefix: string): Promise<DeploymentSecrets> {
  const keys = secretKeys(prefix);
  await redis.set(keys.current, randomBytes(32).toString('base64url'), 'NX');
  const [current, previous] = await Promise.all([redis.get(keys.current), redis.get(keys.previous)]);
  if (!current) throw new Error(`the deployment secret ${keys.current} could not be read`);
  return { current: Buffer.from(current, 'base64url'), previous: previous ? Buffer.from(previous, 'base64url') : null };
}

/** The secrets, read from Redis at most every SECRET_CACHE_MS (a rotation reaches every gateway within that). */
export function cachedSecrets(redis: RedisClient, prefix: string, first: DeploymentSecrets): SecretSource {
  let value = first;
  let readAt = performance.now();
  let reading: Promise<DeploymentSecrets> | null = null;
  return async () => {
    if (performance.now() - readAt <= SECRET_CACHE_MS) return value;
    // One read for all the requests that find the cache stale together, not one each.
    reading ??= loadDeploymentSecrets(redis, prefix)
      .then((next) => {
        value = next;
        readAt = performance.now();
        return next;
      })
      .finally(() => {
        reading = null;
      });
    return reading;
  };
}

/**
 * Rotates the deployment secret (operators: POST /v1/operator/secret/rotate):
 * a new current secret, the old one kept as `previous` for `graceSeconds`
 * (tokens derived from it keep working until then; a grace of 0 keeps none).
 */
export async function rotateDeploymentSecret(redis: RedisClient, prefix: string, graceSeconds: number): Promise<void> {
  const keys = secretKeys(prefix);
  const old = await redis.get(keys.current);
  // Two writes, not a transaction: the keys lie in different cluster slots, where MULTI fails. The old secret is
  // kept before it is replaced, so at every moment a token derived from it is recognised. (SET … EX 0 is an error.)
  if (old && graceSeconds > 0) await redis.set(keys.previous, old, 'EX', graceSeconds);
  else await redis.del(keys.previous);
  await redis.set(keys.current, randomBytes(32).toString('base64url'));
}

/**
 * The token of an /agent.dialog session: derived from its id with the
 * deployment's secret, so a repeat of the request that created it (same
 * Idempotency-Key and body, same derived id) gets the same token back.
 */
export function dialogToken(secret: Buffer, sessionId: string): { token: string; hash: string } {
  const token = createHmac('sha256', secret).update(`dialog:${sessionId}`).digest('base64url');
  return { token, hash: hashToken(token) };
}

/** The dialog token a stored session was made with, by whichever of the secrets derived it; null when neither did. */
export function recoverDialogToken(secrets: DeploymentSecrets, sessionId: string, storedHash: string): string | null {
  for (const secret of [secrets.current, secrets.previous]) {
    if (!secret) continue;
    const derived = dialogToken(secret, sessionId);
    if (derived.hash === storedHash) return derived.token;
  }
  return null;
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * Whether a presented credential equals the expected one, in constant time:
 * both are hashed first, so neither their contents nor their lengths show in
 * the time taken. Every credential the gateway checks (session tokens, the
 * operator key, the FAQ write key) goes through here.
 */
export function sameSecret(presented: string | null, expectedHash: string): boolean {
  if (presented === null) return false;
  const presentedHash = Buffer.from(hashToken(presented), 'hex');
  const storedHash = Buffer.from(expectedHash, 'hex');
  return presentedHash.length === storedHash.length && timingSafeEqual(presentedHash, storedHash);
}

/** `Authorization: Bearer <token>`, the only way a token reaches any route but the event stream. */
export function tokenOf(req: FastifyRequest): string | null {
  const header = req.headers.authorization;
  if (header && /^Bearer\s+/i.test(header)) return header.replace(/^Bearer\s+/i, '').trim() || null;
  return null;
}

/** The Bearer token, or `?token=` for EventSource, which cannot set headers (the event stream route only). */
export function streamTokenOf(req: FastifyRequest): string | null {
  const queryToken = (req.query as Record<string, unknown> | undefined)?.token;
  return tokenOf(req) ?? (typeof queryToken === 'string' && queryToken.length > 0 ? queryToken : null);
}

/** The operator key from `Authorization: Bearer <key>` or Basic auth (any user name, the key as password), so a browser can log in. */
function presentedOperatorKey(req: FastifyRequest): string | null {
  const header = req.headers.authorization ?? '';
  if (!/^Basic\s+/i.test(header)) return tokenOf(req);
  const decoded = Buffer.from(header.replace(/^Basic\s+/i, ''), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon >= 0 ? decoded.slice(colon + 1) : null;
}

/**
 * The operator check of /metrics, the queue dashboard and the operator routes.
 * Without a configured OPERATOR_KEY they are off (403): an operator tool never
 * opens by default. It replies itself (no throw), since the dashboard's routes
 * have an error handler of their own.
 */
export function operatorGuard(
  config: GatewayDeps['config'],
): (req: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply | undefined> {
  const hashes = config.operatorKeys.map(hashToken);
  return async (req, reply) => {
    if (hashes.length === 0) {
      return reply
        .code(403)
        .send({ error: { code: 'operator_key_not_configured', message: 'operator routes are disabled: set OPERATOR_KEY' } });
    }
    const presented = presentedOperatorKey(req);
    if (!hashes.some((hash) => sameSecret(presented, hash))) {
      return reply
        .code(401)
        .header('www-authenticate', 'Basic realm="operators", charset="UTF-8"')
        .send({ error: { code: 'unauthorized', message: 'missing or invalid operator key' } });
    }
    return undefined;
  };
}

/** The preHandler that enforces each route's `config.auth`; registered once, before the routes. */
export function authenticate(deps: Pick<GatewayDeps, 'store' | 'config'>): preHandlerAsyncHookHandler {
  // Either key may write the corpus: the FAQ write key for an editor, the operator key for an operator.
  const writeKeys = [...deps.config.faq.writeKeys, ...deps.config.operatorKeys].map(hashToken);
  const openWrites = deps.config.faq.openWrites;
  const operator = operatorGuard(deps.config);
  return async (req, reply) => {
    const auth = req.routeOptions.config.auth;
    if (auth === 'session') await authorize(deps.store, (req.params as { id: string }).id, tokenOf(req));
    if (auth === 'sessionStream') await authorize(deps.store, (req.params as { id: string }).id, streamTokenOf(req));
    // The guard replies itself (401/403); returning the reply is what ends the request here.
    if (auth === 'operator') return operator(req, reply);
    if (auth === 'faqWrite') {
      if (writeKeys.length === 0) {
        if (openWrites) return;
        throw new ForbiddenError(
          'faq_writes_disabled',
          'corpus writes are disabled: set FAQ_WRITE_KEY (or OPERATOR_KEY) and send it as a bearer token; FAQ_OPEN_WRITES=true opens them for development only',
        );
      }
      const presented = tokenOf(req);
      if (!writeKeys.some((hash) => sameSecret(presented, hash))) throw new UnauthorizedError('missing or invalid FAQ write key');
    }
  };
}

/**
 * A request for a session must carry a token (401 without one). With one, an
 * unknown session and a token that is not the session's answer alike, 404:
 * nobody learns whether a session id exists without holding its token.
 */
export async function authorize(store: Pick<SessionStore, 'getTokenHash'>, sessionId: string, presented: string | null): Promise<void> {
  if (presented === null) throw new UnauthorizedError();
  const stored = await store.getTokenHash(sessionId);
  if (!stored || !sameSecret(presented, stored)) throw sessionNotFound(sessionId);
}

export function sessionNotFound(sessionId: string): NotFoundError {
  return new NotFoundError(`session ${sessionId} not found (or the token is not this session's)`, 'session_not_found');
}
