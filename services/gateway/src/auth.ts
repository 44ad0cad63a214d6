import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { NotFoundError, UnauthorizedError } from '@convo/shared/errors';
import type { SessionStore } from '@convo/shared/store/session-store';
import type { FastifyRequest } from 'fastify';

/** 256 random bits, base64url; only its SHA-256 is stored. */
export function newToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashToken(token) };
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Bearer header, or `?token=` for EventSource, which cannot set headers. */
export function tokenOf(req: FastifyRequest): string | null {
  const h = req.headers.authorization;
  if (h && /^Bearer\s+/i.test(h)) return h.replace(/^Bearer\s+/i, '').trim();
  const q = (req.query as Record<string, unknown> | undefined)?.token;
  return typeof q === 'string' && q.length > 0 ? q : null;
}

/** 404 for an unknown session, 401 for a missing or wrong token (never another session's data). */
export async function authorize(store: SessionStore, req: FastifyRequest, sessionId: string): Promise<void> {
  const stored = await store.getTokenHash(sessionId);
  if (!stored) throw new NotFoundError(`session ${sessionId} not found`, 'session_not_found');
  const token = tokenOf(req);
  if (!token) throw new UnauthorizedError();
  const a = Buffer.from(hashToken(token), 'hex');
  const b = Buffer.from(stored, 'hex');
  if (a.length !== b.length || !timingSafeEqual(a, b)) throw new UnauthorizedError();
}
