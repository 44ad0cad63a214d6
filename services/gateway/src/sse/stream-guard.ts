import { AppError } from '@convo/runtime';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { GatewayDeps } from '../deps.js';
import { clientOf } from '../load/client-limits.js';

/**
 * Before a reply becomes an event stream: takes one of the client's stream
 * places on this gateway (429 `too_many_streams` over CLIENT_MAX_STREAMS), and
 * logs the stream's opening and, when its connection closes, how long it was
 * open — streams are long requests that the access log sees only at their end.
 */
export function guardStream(
  deps: Pick<GatewayDeps, 'quotas'>,
  req: FastifyRequest,
  reply: FastifyReply,
  what: { sessionId: string; route: string },
): void {
  const release = deps.quotas.streams.tryOpen(clientOf(req));
  if (!release) throw new AppError('too_many_streams', 'this client has too many event streams open; close one first', { status: 429 });
  const opened = performance.now();
  // The stream's access line: hijacked replies get none from the access hook (the req serializer redacts its URL).
  req.log.info({ req, sessionId: what.sessionId, route: what.route }, 'stream opened');
  reply.raw.once('close', () => {
    release();
    req.log.info({ sessionId: what.sessionId, route: what.route, durationMs: Math.round(performance.now() - opened) }, 'stream closed');
  });
}
