import type { SessionStore } from '@convo/runtime';
import type { FastifyBaseLogger } from 'fastify';
import type { SseClient } from './sse-client.js';
import type { StreamHub } from './stream-hub.js';

/**
 * Starts a client's stream: registered with the hub first (live events wait in
 * its buffer), then the stored history after its cursor, then the buffered
 * live tail. The client's cursor drops what both deliver, so nothing is sent
 * twice or skipped.
 */
export async function replayAndFollow(store: SessionStore, hub: StreamHub, client: SseClient, log: FastifyBaseLogger): Promise<void> {
  hub.subscribe(client, client.cursor);
  try {
    for await (const ev of store.eventsAfter(client.sessionId, client.cursor)) {
      client.write(ev);
      if (client.isClosed) break;
    }
    client.finishReplay();
  } catch (err) {
    log.warn({ sessionId: client.sessionId, err: err instanceof Error ? err.message : String(err) }, 'replay failed');
    client.close('replay failed');
  }
}
