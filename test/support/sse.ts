import { request } from 'node:http';

export type ReceivedEvent = { id: number; type: string; data: Record<string, unknown> };

/**
 * A minimal EventSource over node:http that records every event and comment,
 * so tests can assert exact sequences and reconnect with Last-Event-ID.
 */
export class SseRecorder {
  /** Stored events, in order (what a replay also delivers). */
  readonly events: ReceivedEvent[] = [];
  /** Live-only events (message.delta), with the position in `events` they arrived at. */
  readonly live: Array<ReceivedEvent & { after: number }> = [];
  readonly comments: string[] = [];
  status = 0;
  private closeFn: (() => void) | null = null;
  private waiters: Array<() => void> = [];
  private ended = false;

  static async open(url: string, opts: { lastEventId?: number; token?: string } = {}): Promise<SseRecorder> {
    const recorder = new SseRecorder();
    await recorder.connect(url, opts);
    return recorder;
  }

  private connect(url: string, opts: { lastEventId?: number; token?: string }): Promise<void> {
    return new Promise((resolve, reject) => {
      const headers: Record<string, string> = { accept: 'text/event-stream' };
      if (opts.lastEventId !== undefined) headers['last-event-id'] = String(opts.lastEventId);
      if (opts.token) headers.authorization = `Bearer ${opts.token}`;
      const req = request(url, { headers }, (res) => {
        this.status = res.statusCode ?? 0;
        res.setEncoding('utf8');
        let buf = '';
        res.on('data', (chunk: string) => {
          buf += chunk;
          let blockEnd: number;
          while ((blockEnd = buf.indexOf('\n\n')) >= 0) {
            this.parseBlock(buf.slice(0, blockEnd));
            buf = buf.slice(blockEnd + 2);
          }
        });
        res.on('end', () => {
          this.ended = true;
          this.notify();
        });
        resolve();
      });
      req.on('error', (err) => {
        this.ended = true;
        this.notify();
        reject(err);
      });
      req.end();
      this.closeFn = () => req.destroy();
    });
  }

  private parseBlock(block: string): void {
    let id: number | null = null;
    let type = 'message';
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) {
        this.comments.push(line.slice(1).trim());
        this.notify();
      } else if (line.startsWith('id:')) id = Number(line.slice(3).trim());
      else if (line.startsWith('event:')) type = line.slice(6).trim();
      else if (line.startsWith('data:')) data.push(line.slice(5).trim());
    }
    if (id !== null && data.length > 0 && type === 'message.delta') {
      this.live.push({ id, type, data: JSON.parse(data.join('\n')) as Record<string, unknown>, after: this.events.length });
      this.notify();
    } else if (id !== null && data.length > 0) {
      this.events.push({ id, type, data: JSON.parse(data.join('\n')) as Record<string, unknown> });
      this.notify();
    }
  }

  private notify(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const fn of waiters) fn();
  }

  get isEnded(): boolean {
    return this.ended;
  }

  get lastId(): number {
    return this.events.at(-1)?.id ?? 0;
  }

  /** Resolves when `pred` holds for the recorded events (checked on every new event). */
  async waitFor(pred: (events: ReceivedEvent[]) => boolean, timeoutMs = 20_000, what = 'condition'): Promise<ReceivedEvent[]> {
    const deadline = Date.now() + timeoutMs;
    while (!pred(this.events)) {
      if (this.ended) throw new Error(`stream ended before ${what}; got ${this.describe()}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting for ${what}; got ${this.describe()}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.events;
  }

  /** Resolves when the server has ended the stream. */
  async waitEnded(timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!this.ended) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error('timed out waiting for the stream to end');
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Waits until `count` turns have completed or failed. */
  waitTurns(count: number, timeoutMs?: number): Promise<ReceivedEvent[]> {
    return this.waitFor(
      (evs) => evs.filter((e) => e.type === 'turn.completed' || e.type === 'turn.failed').length >= count,
      timeoutMs,
      `${count} finished turns`,
    );
  }

  describe(): string {
    return this.events.map((e) => `${e.id}:${e.type}`).join(' ');
  }

  close(): void {
    this.closeFn?.();
  }
}
