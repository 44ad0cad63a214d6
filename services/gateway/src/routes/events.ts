import { buildSnapshot } from '../sessions/snapshot.js';
import { NotFoundError } from '@convo/runtime';
import { SessionIdParams } from '@convo/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { GatewayDeps } from '../deps.js';
import { EVENT_STREAM_BODY } from '../docs/openapi.js';
import { requestedEventId } from '../sse/event-id.js';
import { replayAndFollow } from '../sse/replay.js';
import { openEventStream, SseClient } from '../sse/sse-client.js';
import { guardStream } from '../sse/stream-guard.js';

const EventsQuery = z.object({
  token: z
    .string()
    .optional()
    .describe('the session token, for clients that cannot send Authorization (EventSource); only this route takes it'),
  lastEventId: z.string().optional().describe('as the Last-Event-ID header: resume after this event id'),
});

/**
 * GET /v1/sessions/:id/events: replay after Last-Event-ID exactly once and in
 * order, then the live tail from the shared StreamHub. Replay and tail may
 * overlap; the client's cursor drops what it already sent.
 */
export function eventRoutes(deps: GatewayDeps): FastifyPluginAsyncZod {
  const { store, hub, config } = deps;
  return async (app) => {
    app.get(
      '/v1/sessions/:id/events',
      {
        schema: {
          tags: ['sessions'],
          summary: 'Server-Sent Events stream of the session (text/event-stream); the events: /docs/asyncapi.json',
          params: SessionIdParams,
          querystring: EventsQuery,
          headers: z
            .object({ 'last-event-id': z.string().optional().describe('resume after this event id (sent by EventSource on reconnect)') })
            .loose(),
          security: [{ bearer: [] }, { token: [] }],
        },
        config: { auth: 'sessionStream', docs: { responseContent: { 'text/event-stream': EVENT_STREAM_BODY } } },
      },
      async (req, reply) => {
        const sessionId = req.params.id;
        const fromId = requestedEventId(req) ?? 0;
        const loaded = await store.load(sessionId);
        if (!loaded) throw new NotFoundError(`session ${sessionId} not found`, 'session_not_found');

        guardStream(deps, req, reply, { sessionId, route: 'events' });
        const raw = openEventStream(reply, config.sse.retryMs);
        const client = new SseClient(sessionId, raw, fromId, config.sse.maxBufferBytes);

        // History older than what is retained (or an id from the future) cannot be replayed: resync.
        const first = loaded.firstRetainedEventId;
        const gap = (first !== null && fromId + 1 < first) || fromId > loaded.lastEventId;
        if (gap) client.writeRaw(loaded.lastEventId, 'resync', { snapshot: buildSnapshot(loaded) });

        await replayAndFollow(store, hub, client, req.log);
      },
    );
  };
}
