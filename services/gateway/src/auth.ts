import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { RedisClient } from '@convo/runtime';
import { ForbiddenError, NotFoundError, type SessionStore, UnauthorizedError } from '@convo/runtime';
import type { FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { GatewayDeps } from './deps.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Who may call the route, checked before its handler: 'session' needs the
     * token of the session named by `:id`; 'faqWrite' needs FAQ_WRITE_KEY or
     * OPERATOR_KEY (refused when neither is configured, unless
     * FAQ_OPEN_WRITES is on). Routes without it are open (or check access
     * themselves, as /agent.dialog does for the session it resolves).
     */
    auth?: 'session' | 'faqWrite';
  }
}

/** 256 random bits, base64url; only its SHA-256 is stored. */
export function newToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashToken(token) };
}

/**
 * The deployment's secret: 256 random bits written once to Redis (SET NX)
 * and read by every gateway, so a token derived from it is the same on each.
 */
export async function loadDeploymentSecret(redis: RedisClient, prefix: string): Promise<Buffer> {
  const key = `${prefix}:secret`;
  await redis.set(key, randomBytes(32).toString('base64url'), 'NX');
  const value = await redis.get(key);
  if (!value) throw new Error(`the deployment secret ${key} could not be read`);
  return Buffer.from(value, 'base64url');
}

/**
 * The token of an /agent.dialog session: derived from its id with the
 * deployment's secret, so a repeat of the request that created it (same
 * Idempotency-Key, same derived id) gets the same token back.
 */
export function dialogToken(secret: Buffer, sessionId: string): { token: string; hash: string } {
  const token = createHmac('sha256', secret).update(`dialog:${sessionId}`).digest('base64url');
  return { token, hash: hashToken(token) };
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

/** Bearer header, or `?token=` for EventSource, which cannot set headers. */
export function tokenOf(req: FastifyRequest): string | null {
  const header = req.headers.authorization;
  if (header && /^Bearer\s+/i.test(header)) return header.replace(/^Bearer\s+/i, '').trim();
  const queryToken = (req.query as Record<string, unknown> | undefined)?.token;
  return typeof queryToken === 'string' && queryToken.length > 0 ? queryToken : null;
}

/** The preHandler that enforces each route's `config.auth`; registered once, before the routes. */
export function authenticate(deps: Pick<GatewayDeps, 'store' | 'config'>): preHandlerAsyncHookHandler {
  // Either key may write the corpus: the FAQ write key for an editor, the operator key for an operator.
  const writeKeys = [deps.config.faq.writeKey, deps.config.operatorKey].filter((key): key is string => Boolean(key)).map(hashToken);
  const openWrites = deps.config.faq.openWrites;
  return async (req) => {
    const auth = req.routeOptions.config.auth;
    if (auth === 'session') await authorize(deps.store, req, (req.params as { id: string }).id);
    if (auth === 'faqWrite') {
      if (writeKeys.length === 0) {
        if (openWrites) return;
        throw new ForbiddenError('faq_writes_disabled', 'corpus writes are disabled: set FAQ_WRITE_KEY (or OPERATOR_KEY) and send it as a bearer token; FAQ_OPEN_WRITES=true opens them for development only');
      }
      const presented = tokenOf(req);
      if (!writeKeys.some((hash) => sameSecret(presented, hash))) throw new UnauthorizedError('missing or invalid FAQ write key');
    }
  };
}

/** 404 for an unknown session, 401 for a missing or wrong token (never another session's data). */
export async function authorize(store: SessionStore, req: FastifyRequest, sessionId: string): Promise<void> {
  const stored = await store.getTokenHash(sessionId);
  if (!stored) throw new NotFoundError(`session ${sessionId} not found`, 'session_not_found');
  if (!sameSecret(tokenOf(req), stored)) throw new UnauthorizedError();
}
