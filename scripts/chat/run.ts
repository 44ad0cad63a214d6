import { clearLine, createInterface, cursorTo } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { createClient, newIdempotencyKey, type RetryNotice, type SessionSnapshot } from '@convo/client';
import { applyEvent, viewFromSnapshot } from '../../services/gateway/web/lib/session-view.js';
import type { ChatOptions } from './args.js';
import { COLOR, describeEvent, describeFields, livePrinter, oneLine, PLAIN } from './printer.js';

/** After the input ends, how long to wait at most for the last turn's answer. */
const IDLE_WAIT_MS = 60_000;

export interface ChatIo {
  input: Readable;
  output: Writable & { isTTY?: boolean };
}

/**
 * One interactive conversation in a terminal: creates (or resumes) a session,
 * follows its event stream with Last-Event-ID across dropped connections, and
 * sends each line typed as a turn. Resolves with the exit code.
 */
export async function runChat(opts: ChatOptions, io: ChatIo): Promise<number> {
  const st = opts.color ? COLOR : PLAIN;
  const tty = io.output.isTTY === true;

  const print = (lines: string[]) => {
    if (lines.length === 0) return;
    if (tty) {
      clearLine(io.output, 0);
      cursorTo(io.output, 0);
    }
    io.output.write(`${lines.join('\n')}\n`);
  };
  const onRetry = (notice: RetryNotice) =>
    print([
      st.warn(
        `  … ${notice.error.status === 0 ? 'gateway unreachable' : `busy (${notice.error.code})`}, retrying in ${Math.ceil(notice.delayMs / 1000)} s`,
      ),
    ]);
  // Shed calls (and, where they may be repeated, an unreachable gateway) are retried 5 times, turns until they go through.
  const client = createClient({ baseUrl: opts.url, retry: { maxAttempts: 5, onRetry } });

  let sessionId: string;
  let token: string;
  let snapshot: SessionSnapshot;
  try {
    if (opts.resume) ({ sessionId, token } = opts.resume);
    else {
      const body = { kind: opts.kind, ...(opts.form ? { form: opts.form } : {}), options: { language: opts.language } };
      ({ sessionId, token } = await client.sessions.create(body));
    }
    snapshot = await client.sessions.get(sessionId, { token });
  } catch (err) {
    print([st.warn(`chat: ${(err as Error).message}`)]);
    return 1;
  }

  const view = viewFromSnapshot(snapshot);
  const kind = view.kind;
  // The history printed before piped input may end: everything up to the snapshot.
  const historyEnd = snapshot.lastEventId;
  print([
    st.bold(`${kind} session ${sessionId}`),
    st.dim(
      // `=` because a base64url token can start with '-', which parseArgs would take for an option.
      `resume later with: npm run chat -- --resume=${sessionId} --token=${token}${opts.url.endsWith(':8080') ? '' : ` --url ${opts.url}`}`,
    ),
    st.dim('type /status, /submit or /quit at any time'),
    ...(kind === 'faq' ? ['Ask a question (shipping, returns, gift wrapping, receipts, payment, membership).'] : []),
  ]);

  // Texts this process sent and has not yet seen come back as `message` events.
  const unechoed: string[] = [];
  const sentByMe = (text: string) => {
    const index = unechoed.indexOf(text);
    if (index < 0) return false;
    unechoed.splice(index, 1);
    return true;
  };

  let finish!: (code: number) => void;
  const finished = new Promise<number>((resolve) => (finish = resolve));
  let outage = false;

  // Requests still running, and who waits for the conversation to go quiet (end of piped input).
  const inflight = new Set<Promise<unknown>>();
  const track = (request: Promise<unknown>) => {
    inflight.add(request);
    void request.finally(() => {
      inflight.delete(request);
      checkIdle();
    });
  };
  let onIdle: (() => void) | null = null;
  const checkIdle = () => {
    const quiet =
      view.lastEventId >= historyEnd &&
      inflight.size === 0 &&
      unechoed.length === 0 &&
      view.activeTurn === null &&
      Object.keys(view.queuedTurns).length === 0;
    if (quiet && onIdle) onIdle();
  };

  // On a terminal a question's text is written as it arrives; pipes get whole messages only.
  const showLive = tty
    ? livePrinter(
        (text) => io.output.write(text),
        st,
        () => {
          clearLine(io.output, 0);
          cursorTo(io.output, 0);
        },
      )
    : () => false;

  // The stream reconnects by itself with Last-Event-ID; the view applies each event once.
  const stream = client.sessions.events(sessionId, {
    token,
    onState: (state, detail) => {
      if (state === 'open' && outage) print([st.ok(`  … reconnected; resuming after event ${view.lastEventId}`)]);
      if (state === 'open') outage = false;
      if (state !== 'reconnecting') return;
      if (!outage)
        print([st.warn(`  … connection lost; reconnecting${detail.delayMs > 0 ? ` in ${(detail.delayMs / 1000).toFixed(1)} s` : ''}`)]);
      outage = true;
    },
  });
  const follow = async () => {
    try {
      for await (const ev of stream) {
        if (!applyEvent(view, ev)) continue;
        if (showLive(view, ev)) continue;
        print(describeEvent(view, ev, st, sentByMe));
        if (ev.type === 'turn.completed' || ev.type === 'turn.failed' || ev.type === 'clarify') rl.prompt(true);
        checkIdle();
      }
    } catch (err) {
      print([st.warn(`chat: the event stream ended: ${(err as Error).message}`)]);
      finish(1);
    }
  };
  // Reading starts only now: lines typed (or piped) earlier wait in stdin's buffer, none is lost.
  const rl = createInterface({ input: io.input, output: io.output, terminal: tty, prompt: '> ' });
  const following = follow();

  const send = async (text: string) => {
    const key = newIdempotencyKey();
    unechoed.push(text);
    try {
      await client.sessions.postTurn(sessionId, { message: text, idempotencyKey: key }, { token, retry: { maxAttempts: Infinity } });
    } catch (err) {
      sentByMe(text);
      print([st.warn(`  ! not sent: ${(err as Error).message}`)]);
      rl.prompt(true);
    }
  };

  const submit = async () => {
    try {
      const result = await client.sessions.submit(sessionId, { token });
      const labels = new Map(view.fields.map((f) => [f.fieldId, f.label]));
      print([
        st.ok('Submitted. Your answers:'),
        ...Object.entries(result.collectedFields).map(([id, v]) => `  ${labels.get(id) ?? id}: ${oneLine(v)}`),
      ]);
      finish(0);
    } catch (err) {
      print([st.warn(`  ! cannot submit yet: ${(err as Error).message}`)]);
      rl.prompt(true);
    }
  };

  rl.on('line', (raw) => {
    const line = raw.trim();
    if (line === '') return void rl.prompt(true);
    if (line === '/quit' || line === '/exit') return finish(0);
    if (line === '/status') {
      print(describeFields(view, st));
      return void rl.prompt(true);
    }
    if (line === '/submit') return track(submit());
    const choices = view.clarify?.choices ?? [];
    const picked = /^\d+$/.test(line) ? choices[Number(line) - 1] : undefined;
    track(send(picked ?? line));
  });
  // End of input (Ctrl-D, or a pipe that closed) leaves the chat once what was sent has been
  // answered, so `echo question | npm run chat -- --kind faq` prints the answer; the session stays.
  rl.on('close', () => {
    const timer = setTimeout(() => finish(0), IDLE_WAIT_MS);
    onIdle = () => {
      clearTimeout(timer);
      finish(0);
    };
    checkIdle();
  });

  const code = await finished;
  stream.close();
  await following;
  rl.close();
  return code;
}
