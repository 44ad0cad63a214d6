import type { Logger } from '../logger.js';
import { event } from '@convo/contract';
import type { SessionStore } from '../store/session-store.js';

/**
 * What a step may show clients before it commits: the text of an assistant
 * message while the model writes it. Deltas go out on the session's
 * Pub/Sub channel (live only: never stored, never replayed, no event id of
 * their own); the message itself arrives later as a stored `message` event
 * with the same id. A step that fails withdraws what it streamed
 * (`message.discarded`, stored with its `turn.failed`).
 */
export interface LiveChannel {
  /** `text` is the message's whole text so far; only what changed goes out. */
  messageText(messageId: string, text: string): void;
  /** Ids of the messages this step streamed text for. */
  readonly streamed: readonly string[];
}

export function createLiveChannel(store: Pick<SessionStore, 'publishLive'>, sessionId: string, turnId: string, log: Logger): LiveChannel {
  const sent = new Map<string, string>();
  return {
    messageText(messageId, text) {
      const before = sent.get(messageId) ?? '';
      if (text === before) return;
      // A generation that restarted (a retried call) shares only a prefix with what was sent: resend from there.
      let offset = 0;
      while (offset < before.length && offset < text.length && before[offset] === text[offset]) offset++;
      sent.set(messageId, text);
      const delta = event('message.delta', { messageId, delta: text.slice(offset), offset, turnId });
      store
        .publishLive(sessionId, delta)
        .catch((err: unknown) => log.warn({ err: err instanceof Error ? err.message : String(err) }, 'live delta not published'));
    },
    get streamed() {
      return [...sent.keys()];
    },
  };
}
