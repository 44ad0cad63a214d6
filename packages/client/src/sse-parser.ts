/** One dispatched Server-Sent Event; `id` is the `id:` field of this very event, or null when it had none. */
export interface SseMessage {
  id: string | null;
  type: string;
  data: string;
}

export interface SseParserHandlers {
  onEvent(message: SseMessage): void;
  /** A comment line (`: ping`), without the colon. */
  onComment?(text: string): void;
  /** A `retry:` field: the server's reconnection delay in milliseconds. */
  onRetry?(ms: number): void;
}

/** A line longer than this is not a sane event: the parser throws instead of buffering without bound. */
export const MAX_LINE_CHARS = 4 * 1024 * 1024;

/**
 * Incremental `text/event-stream` parser after the WHATWG rules: lines end in
 * CRLF, LF or CR (a chunk may end anywhere, even between CR and LF); a blank
 * line dispatches; `data` lines join with LF; a single space after the colon
 * is dropped; an event without data is not dispatched. Unlike EventSource, an
 * event's id is reported only when the event itself carried one, so a caller
 * that checks ids sees exactly what the server sent.
 */
export class SseParser {
  private buffer = '';
  private data: string[] = [];
  private type = '';
  private id: string | null = null;

  constructor(private readonly handlers: SseParserHandlers) {}

  /** The last chunk ended in CR: an LF that starts the next one is the rest of that CRLF. */
  private afterCr = false;

  /** Feeds a decoded chunk; dispatches every complete event in it. */
  push(chunk: string): void {
    if (chunk === '') return;
    this.buffer += this.afterCr && chunk.startsWith('\n') ? chunk.slice(1) : chunk;
    this.afterCr = false;
    let start = 0;
    // Where the next CR is, searched again only once passed: most streams have none, and a
    // fresh search per line would make a chunk of many lines quadratic.
    let cr = this.buffer.indexOf('\r');
    for (;;) {
      if (cr !== -1 && cr < start) cr = this.buffer.indexOf('\r', start);
      const lf = this.buffer.indexOf('\n', start);
      const end = cr === -1 ? lf : lf === -1 ? cr : Math.min(cr, lf);
      if (end === -1) break;
      // A CR at the very end may be the first half of CRLF: the line ends here all the same
      // (no event waits for the next chunk), and an LF that begins the next chunk is skipped.
      if (this.buffer[end] === '\r' && end === this.buffer.length - 1) this.afterCr = true;
      this.line(this.buffer.slice(start, end));
      start = end + (this.buffer[end] === '\r' && this.buffer[end + 1] === '\n' ? 2 : 1);
    }
    this.buffer = this.buffer.slice(start);
    if (this.buffer.length > MAX_LINE_CHARS) throw new Error(`an SSE line exceeds ${MAX_LINE_CHARS} characters`);
  }

  private line(line: string): void {
    if (line === '') return this.dispatch();
    if (line.startsWith(':')) return this.handlers.onComment?.(line.slice(1).trimStart());
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    switch (field) {
      case 'data':
        this.data.push(value);
        break;
      case 'event':
        this.type = value;
        break;
      case 'id':
        if (!value.includes('\0')) this.id = value;
        break;
      case 'retry':
        if (/^\d+$/.test(value)) this.handlers.onRetry?.(Number(value));
        break;
      default:
        break; // unknown fields are ignored, as EventSource does
    }
  }

  private dispatch(): void {
    const message: SseMessage = { id: this.id, type: this.type === '' ? 'message' : this.type, data: this.data.join('\n') };
    const hasData = this.data.length > 0;
    this.data = [];
    this.type = '';
    this.id = null;
    if (hasData) this.handlers.onEvent(message);
  }
}
