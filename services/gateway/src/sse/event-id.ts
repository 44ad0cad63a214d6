import { ValidationError } from '@convo/runtime';
import type { FastifyRequest } from 'fastify';

/** A Last-Event-ID value: a non-negative integer, or 0 when absent. */
export function parseEventId(raw: string | undefined): number {
  if (raw === undefined || raw === '') return 0;
  if (!/^\d{1,15}$/.test(raw))
    throw new ValidationError(`Last-Event-ID must be a non-negative integer, got "${raw}"`, 'invalid_last_event_id');
  return Number(raw);
}

/** The `Last-Event-ID` header, else `?lastEventId=`; null when the client sent neither. */
export function requestedEventId(req: FastifyRequest): number | null {
  const header = req.headers['last-event-id'];
  const query = (req.query as Record<string, unknown> | undefined)?.lastEventId;
  const raw = typeof header === 'string' && header !== '' ? header : typeof query === 'string' && query !== '' ? query : undefined;
  return raw === undefined ? null : parseEventId(raw);
}
