// @ts-check
/**
 * A session's event stream on the browser's native EventSource, resumable.
 *
 * EventSource reconnects by itself after a network error and sends
 * `Last-Event-ID`, but it gives up for good when a reconnect is answered with
 * anything but 200 (a gateway that is up but not ready says 503). Then this
 * opens a new one with `?lastEventId=` set to the last event the page applied,
 * after a doubling backoff, so the stream goes on where it stopped either way.
 */

import { parseStreamEvent } from './session-view.js';

/** Every event type of API.md section 1: EventSource dispatches named events only to listeners of that name. */
export const STREAM_EVENT_TYPES = /** @type {const} */ ([
  'turn.started',
  'turn.queued',
  'resync',
  'message',
  'message.delta',
  'message.discarded',
  'agent.changed',
  'state.changed',
  'review',
  'check',
  'audit',
  'plan',
  'search',
  'answer',
  'clarify',
  'turn.completed',
  'turn.failed',
  'workbench.step',
  'workbench.result',
  'session.completed',
]);

/** @typedef {'connecting' | 'open' | 'reconnecting' | 'closed'} StreamState */

/**
 * @typedef {object} EventStreamOptions
 * @property {(lastEventId: number) => string} url the stream URL, resuming after `lastEventId` when above 0
 * @property {() => number} lastEventId the id of the last event applied
 * @property {(ev: import('./session-view.js').SessionEvent) => void} onEvent
 * @property {(state: StreamState, detail: { attempt: number, delayMs: number }) => void} onState
 * @property {() => Promise<boolean>} [canResume] asked before a manual reconnect; false ends the stream (session gone)
 * @property {typeof EventSource} [EventSourceImpl]
 */

const FIRST_BACKOFF_MS = 500;
const MAX_BACKOFF_MS = 15_000;

/**
 * @param {EventStreamOptions} opts
 * @returns {{ close(): void, reconnectNow(): void }}
 */
export function openEventStream(opts) {
  const Impl = opts.EventSourceImpl ?? globalThis.EventSource;
  /** @type {EventSource | null} */
  let source = null;
  /** @type {ReturnType<typeof setTimeout> | null} */
  let timer = null;
  let failures = 0;
  let closed = false;

  const connect = () => {
    if (closed) return;
    opts.onState(failures === 0 ? 'connecting' : 'reconnecting', { attempt: failures, delayMs: 0 });
    const es = new Impl(opts.url(opts.lastEventId()));
    source = es;
    es.onopen = () => {
      failures = 0;
      opts.onState('open', { attempt: 0, delayMs: 0 });
    };
    es.onerror = () => {
      if (closed || source !== es) return;
      if (es.readyState === Impl.CONNECTING) {
        // The browser retries on its own, with Last-Event-ID.
        opts.onState('reconnecting', { attempt: failures, delayMs: 0 });
        return;
      }
      es.close();
      source = null;
      failures++;
      const delayMs = Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** (failures - 1));
      opts.onState('reconnecting', { attempt: failures, delayMs });
      timer = setTimeout(resume, delayMs);
    };
    for (const type of STREAM_EVENT_TYPES) {
      es.addEventListener(type, (e) => {
        const m = /** @type {MessageEvent<string>} */ (e);
        const ev = parseStreamEvent(type, m.lastEventId, m.data);
        if (ev) opts.onEvent(ev);
      });
    }
  };

  const resume = async () => {
    timer = null;
    if (closed) return;
    if (opts.canResume && !(await opts.canResume().catch(() => true))) {
      closed = true;
      opts.onState('closed', { attempt: failures, delayMs: 0 });
      return;
    }
    connect();
  };

  connect();
  return {
    close() {
      closed = true;
      if (timer !== null) clearTimeout(timer);
      source?.close();
      source = null;
      opts.onState('closed', { attempt: 0, delayMs: 0 });
    },
    /** A person pressed "reconnect": skip the rest of the backoff. */
    reconnectNow() {
      if (closed || source !== null) return;
      if (timer !== null) clearTimeout(timer);
      void resume();
    },
  };
}
