import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { NotFoundError, type SessionStore, UnauthorizedError } from '@convo/runtime';
import type { FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { GatewayDeps } from './deps.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Who may call the route, checked before its handler: 'session' needs the
     * token of the session named by `:id`; 'faqWrite' needs FAQ_WRITE_KEY when
     * one is configured. Routes without it are open (or check access
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
  const writeKeyHash = deps.config.faq.writeKey ? hashToken(deps.config.faq.writeKey) : undefined;
  return async (req) => {
    const auth = req.routeOptions.config.auth;
    if (auth === 'session') await authorize(deps.store, req, (req.params as { id: string }).id);
    if (auth === 'faqWrite' && writeKeyHash && !sameSecret(tokenOf(req), writeKeyHash)) {
      throw new UnauthorizedError('missing or invalid FAQ write key');
    }
  };
}

/** 404 for an unknown session, 401 for a missing or wrong token (never another session's data). */
export async function authorize(store: SessionStore, req: FastifyRequest, sessionId: string): Promise<void> {
  const stored = await store.getTokenHash(sessionId);
  if (!stored) throw new NotFoundError(`session ${sessionId} not found`, 'session_not_found');
  if (!sameSecret(tokenOf(req), stored)) throw new UnauthorizedError();
}
