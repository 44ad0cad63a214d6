import { request, type Agent, type ClientRequest } from 'node:http';

/**
 * A minimal SSE client for many connections at once: it counts bytes and
 * comment blocks (heartbeats) and parses only the events it is asked about
 * (turn.completed / turn.failed); it keeps no event list, so 10,000 idle
 * clients cost little in the bench process.
 */
export type LiteSseOptions = {
  agent: Agent;
  /** Called for turn.completed (failed=false) and turn.failed (failed=true). */
  onTurnEnd?: (turnId: string, failed: boolean) => void;
  /** Opening timeout: no response headers within it → status 0, code 'TIMEOUT'. */
  timeoutMs?: number;
};

export class LiteSse {
  status = 0;
  contentType = '';
  bytes = 0;
  comments = 0;
  ended = false;
  error: string | undefined;
  code: string | undefined;
  private req: ClientRequest | null = null;
  private buf = '';

  private constructor(private readonly opts: LiteSseOptions) {}

  /** Resolves once the response headers arrived or the request failed (never rejects). */
  static open(url: string, opts: LiteSseOptions): Promise<LiteSse> {
    const stream = new LiteSse(opts);
    return new Promise((resolve) => {
      let settled = false;
      const settle = () => {
        if (!settled) {
          settled = true;
          clearTimeout(timer);
          resolve(stream);
        }
      };
      const timer = setTimeout(() => {
        stream.code = 'TIMEOUT';
        stream.error = 'no response headers in time';
        stream.req?.destroy();
        settle();
      }, opts.timeoutMs ?? 30_000);
      const req = request(url, { agent: opts.agent, headers: { accept: 'text/event-stream' } }, (res) => {
        stream.status = res.statusCode ?? 0;
        stream.contentType = String(res.headers['content-type'] ?? '');
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => stream.onData(chunk));
        res.on('end', () => (stream.ended = true));
        res.on('error', () => (stream.ended = true));
        settle();
      });
      req.on('error', (err: NodeJS.ErrnoException) => {
        stream.ended = true;
        if (!settled) {
          stream.error = err.message;
          stream.code = err.code ?? 'ERR';
        }
        settle();
      });
      req.end();
      stream.req = req;
    });
  }

  get live(): boolean {
    return this.status === 200 && !this.ended;
  }

  close(): void {
    this.req?.destroy();
    this.req = null;
    this.ended = true;
  }

  private onData(chunk: string): void {
    this.bytes += Buffer.byteLength(chunk);
    this.buf += chunk;
    let blockEnd: number;
    while ((blockEnd = this.buf.indexOf('\n\n')) >= 0) {
      const block = this.buf.slice(0, blockEnd);
      this.buf = this.buf.slice(blockEnd + 2);
      this.onBlock(block);
    }
  }

  private onBlock(block: string): void {
    if (block.startsWith(':')) {
      this.comments++;
      return;
    }
    if (!this.opts.onTurnEnd) return;
    const match = /^event: ?(turn\.completed|turn\.failed)$/m.exec(block);
    if (!match) return;
    const data = /^data: ?(.*)$/m.exec(block)?.[1];
    if (data === undefined) return;
    try {
      const turnId = (JSON.parse(data) as { turnId?: unknown }).turnId;
      if (typeof turnId === 'string') this.opts.onTurnEnd(turnId, match[1] === 'turn.failed');
    } catch {
      // not JSON: not ours to judge here
    }
  }
}

/** Turn ends of one session's stream, with waits by turn id or by count. */
export class TurnWaiter {
  endCount = 0;
  private readonly ended = new Map<string, boolean>();
  private readonly byTurn = new Map<string, (failed: boolean) => void>();
  private countWaiters: Array<{ n: number; resolve: () => void }> = [];

  readonly onEnd = (turnId: string, failed: boolean): void => {
    this.endCount++;
    this.ended.set(turnId, failed);
    this.byTurn.get(turnId)?.(failed);
    this.byTurn.delete(turnId);
    const ready = this.countWaiters.filter((w) => this.endCount >= w.n);
    this.countWaiters = this.countWaiters.filter((w) => this.endCount < w.n);
    for (const w of ready) w.resolve();
  };

  /** Resolves with `failed` when the turn ends; rejects after `timeoutMs`. */
  waitTurn(turnId: string, timeoutMs = 30_000): Promise<boolean> {
    const seen = this.ended.get(turnId);
    if (seen !== undefined) {
      this.ended.delete(turnId);
      return Promise.resolve(seen);
    }
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.byTurn.delete(turnId);
        reject(new Error(`turn ${turnId} did not end within ${timeoutMs} ms`));
      }, timeoutMs);
      this.byTurn.set(turnId, (failed) => {
        clearTimeout(timer);
        this.ended.delete(turnId);
        resolve(failed);
      });
    });
  }

  /** Resolves once `count` turns have ended on the stream. */
  waitEnds(count: number, timeoutMs = 30_000): Promise<void> {
    if (this.endCount >= count) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${count} turn ends not seen within ${timeoutMs} ms`)), timeoutMs);
      this.countWaiters.push({ n: count, resolve: () => (clearTimeout(timer), resolve()) });
    });
  }
}
