import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

type Usage = { prompt_tokens: number; completion_tokens: number; prompt_tokens_details?: { cached_tokens: number } };

/** How a reply goes out to a request with `stream: true` (ignored otherwise). */
export type StreamShape = {
  /** Characters of tool-call arguments (and content) per chunk; default 6. */
  chunkChars?: number;
  /** Pause between chunks, so a test sees deltas arrive before the reply ends. */
  chunkDelayMs?: number;
  /** Leave `index` out of tool-call deltas (some compatible servers do). */
  omitIndex?: boolean;
  /** Cut the connection after this many chunks (a reply that breaks off halfway). */
  cutAfter?: number;
};

/**
 * A 200 reply: tool calls (with optional content) or plain content; usage defaults to 11 prompt / 7 completion tokens.
 * `ids` replaces the generated tool-call ids (null: none sent, '' an empty one); `finishReason` the computed one.
 */
export type FakeCompletion = ({ toolCalls: Array<{ name: string; arguments: string }>; content?: string | null } | { content: string }) & {
  usage?: Usage;
  ids?: Array<string | null>;
  finishReason?: string;
  stream?: StreamShape;
};

/**
 * One scripted answer of the fake, used in order:
 * - `toolCalls` / `content`: a 200 Chat Completions reply (arguments are sent verbatim, malformed or not);
 * - `status`: that status with `body` as JSON (default: an OpenAI-style error) and extra `headers`;
 * - `disconnect`: the socket is destroyed before any response (a connection error for the client);
 * - `delayMs` + `reply`: `reply` after a pause, to run a client into its timeout.
 */
export type FakeResponse =
  | FakeCompletion
  | { status: number; body?: unknown; headers?: Record<string, string>; stream?: StreamShape }
  | { disconnect: true }
  | { delayMs: number; reply: FakeResponse };

// Scripted replies read any part of the request the test cares about.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type FakeRequest = { body: any; headers: Record<string, string> };

export type FakeOpenAi = {
  /** Base URL including `/v1`, as the SDK's `baseURL` expects it. */
  url: string;
  enqueue(...responses: FakeResponse[]): void;
  /** Answers every request the script has no reply left for (a model that reads the prompt). */
  respondWith(responder: ((req: FakeRequest) => FakeResponse) | null): void;
  /** Every chat completion request received, in order, including those answered with errors. */
  requests: FakeRequest[];
  /** Scripted responses not used yet: a test can assert its script was consumed. */
  pending(): number;
  /** Streamed replies whose last chunk has not been written yet. */
  streaming(): number;
  /** Resolves once `count` requests have arrived in total (an event to wait on, not a sleep). */
  waitForRequests(count: number): Promise<void>;
  close(): Promise<void>;
};

const DEFAULT_USAGE: Usage = { prompt_tokens: 11, completion_tokens: 7 };

/**
 * A small OpenAI-compatible server over real HTTP on 127.0.0.1: `POST
 * /v1/chat/completions` (or `/chat/completions`) answers from a script and
 * records each request. When the script runs out it answers 500 saying so, so a
 * test cannot pass on replies it did not plan.
 */
export async function startFakeOpenAi(opts: { estimateUsage?: boolean } = {}): Promise<FakeOpenAi> {
  const script: FakeResponse[] = [];
  let responder: ((req: FakeRequest) => FakeResponse) | null = null;
  const lastPrompt = new Map<string, string>();
  const requests: FakeRequest[] = [];
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  const timers = new Set<NodeJS.Timeout>();
  let completions = 0;
  let streaming = 0;

  /** A completion body sent as Chat Completions chunks (SSE), the way a streaming server sends it. */
  const stream = (res: ServerResponse, body: ChatCompletionBody, shape: StreamShape = {}): void => {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const chunks = chunksOf(body, shape);
    streaming += 1;
    const next = (i: number): void => {
      if (res.destroyed || (shape.cutAfter !== undefined && i >= shape.cutAfter)) {
        streaming -= 1;
        return void res.socket?.destroy();
      }
      if (i >= chunks.length) {
        streaming -= 1;
        res.end('data: [DONE]\n\n');
        return;
      }
      res.write(`data: ${JSON.stringify(chunks[i])}\n\n`);
      if (!shape.chunkDelayMs) return next(i + 1);
      const timer = setTimeout(() => {
        timers.delete(timer);
        next(i + 1);
      }, shape.chunkDelayMs);
      timers.add(timer);
    };
    next(0);
  };

  const record = (req: FakeRequest): void => {
    requests.push(req);
    for (const waiter of waiters.filter((x) => requests.length >= x.count)) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
  };

  const answer = (res: ServerResponse, reply: FakeResponse | undefined, model: string, streamed = false): void => {
    if (res.destroyed) return;
    if (!reply)
      return sendJson(res, 500, {
        error: { message: 'fake OpenAI script exhausted: no response enqueued for this request', type: 'fake' },
      });
    if ('delayMs' in reply) {
      const timer = setTimeout(() => {
        timers.delete(timer);
        answer(res, reply.reply, model, streamed);
      }, reply.delayMs);
      timers.add(timer);
      return;
    }
    if ('disconnect' in reply) return void res.socket?.destroy();
    if ('status' in reply) {
      // A scripted 200 body is a whole completion: streamed like any other when the request asked for a stream.
      if (reply.status === 200 && streamed) return stream(res, reply.body as ChatCompletionBody, reply.stream);
      const body = reply.body ?? { error: { message: `fake status ${reply.status}`, type: 'fake', code: null, param: null } };
      return sendJson(res, reply.status, body, reply.headers);
    }
    completions += 1;
    const body = completion(reply, model, completions);
    if (streamed) return stream(res, body, reply.stream);
    sendJson(res, 200, body);
  };

  const server = createServer((req, res) => {
    readBody(req).then(
      (raw) => {
        if (req.method !== 'POST' || !/^(\/v1)?\/chat\/completions(\?.*)?$/.test(req.url ?? '')) {
          return sendJson(res, 404, { error: { message: `fake OpenAI has no route ${req.method} ${req.url}` } });
        }
        // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the parsed JSON body, as FakeRequest carries it
        let body: any;
        try {
          body = JSON.parse(raw);
        } catch {
          return sendJson(res, 400, { error: { message: 'request body is not JSON' } });
        }
        const request = { body, headers: flatHeaders(req) };
        record(request);
        let reply = script.shift() ?? responder?.(request);
        // Usage as a server with prefix caching would report it, for replies that state none.
        if (opts.estimateUsage && reply && ('toolCalls' in reply || 'content' in reply) && !reply.usage)
          reply = { ...reply, usage: usageOf(body, lastPrompt) };
        answer(res, reply, String(body?.model ?? 'fake-model'), body?.stream === true);
      },
      () => res.destroy(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    enqueue: (...responses) => void script.push(...responses),
    respondWith: (next) => void (responder = next),
    requests,
    pending: () => script.length,
    streaming: () => streaming,
    waitForRequests: (count) => (requests.length >= count ? Promise.resolve() : new Promise((resolve) => waiters.push({ count, resolve }))),
    close: () =>
      new Promise((resolve) => {
        for (const t of timers) clearTimeout(t);
        // Keep-alive sockets from the SDK's fetch would otherwise hold close() open.
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a completion body as JSON, scripted or built here
type ChatCompletionBody = any;

/** A Chat Completions body as the API returns it: one choice, tool calls in the function shape. */
function completion(reply: FakeCompletion, model: string, requestNumber: number): ChatCompletionBody {
  const toolCalls = 'toolCalls' in reply ? reply.toolCalls : [];
  const usage = reply.usage ?? DEFAULT_USAGE;
  const idOf = (i: number) => (reply.ids && i < reply.ids.length ? reply.ids[i] : `call_${requestNumber}_${i}`);
  return {
    id: `chatcmpl-fake-${requestNumber}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [
      {
        index: 0,
        finish_reason: reply.finishReason ?? (toolCalls.length > 0 ? 'tool_calls' : 'stop'),
        logprobs: null,
        message: {
          role: 'assistant',
          content: reply.content ?? null,
          refusal: null,
          ...(toolCalls.length > 0
            ? {
                tool_calls: toolCalls.map((c, i) => ({
                  ...(idOf(i) === null ? {} : { id: idOf(i) }),
                  type: 'function',
                  function: { name: c.name, arguments: c.arguments },
                })),
              }
            : {}),
        },
      },
    ],
    usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
  };
}

/** A token per 4 characters of the prompt as sent (tools first, then the messages, as providers cache them). */
const tokensOf = (text: string) => Math.ceil(text.length / 4);

/**
 * Prompt and cached tokens as OpenAI counts them: the part of this prompt
 * that repeats the start of the model's previous one is cached, in blocks of
 * 128 tokens, once a prompt has 1,024 tokens.
 */
function usageOf(body: ChatCompletionBody, lastPrompt: Map<string, string>): Usage & { prompt_tokens_details: { cached_tokens: number } } {
  const prompt = JSON.stringify(body.tools ?? []) + (body.messages ?? []).map((m: unknown) => JSON.stringify(m)).join('');
  const model = String(body.model);
  const previous = lastPrompt.get(model) ?? '';
  lastPrompt.set(model, prompt);
  let common = 0;
  while (common < prompt.length && common < previous.length && prompt[common] === previous[common]) common++;
  const promptTokens = tokensOf(prompt);
  const cached = promptTokens >= 1024 ? Math.floor(tokensOf(prompt.slice(0, common)) / 128) * 128 : 0;
  return { prompt_tokens: promptTokens, completion_tokens: 20, prompt_tokens_details: { cached_tokens: Math.min(cached, promptTokens) } };
}

/**
 * The chunks a streaming server sends for `body`: the role first, content and
 * each tool call's arguments in pieces (id and name with a call's first
 * piece), the finish reason, then usage alone in the last chunk
 * (stream_options.include_usage).
 */
function chunksOf(body: ChatCompletionBody, shape: StreamShape): object[] {
  const size = shape.chunkChars ?? 6;
  const base = { id: body.id, object: 'chat.completion.chunk', created: body.created ?? 0, model: body.model };
  const choice = body.choices?.[0];
  const chunk = (delta: object, finish: string | null = null) => ({
    ...base,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
  });
  const pieces = (text: string) =>
    text === '' ? [''] : Array.from({ length: Math.ceil(text.length / size) }, (_, i) => text.slice(i * size, (i + 1) * size));
  const out: object[] = [];
  if (choice) {
    const message = choice.message ?? {};
    out.push(chunk({ role: 'assistant', content: '' }));
    if (typeof message.content === 'string' && message.content !== '')
      for (const piece of pieces(message.content)) out.push(chunk({ content: piece }));
    if (message.refusal) out.push(chunk({ refusal: message.refusal }));
    (message.tool_calls ?? []).forEach((call: ChatCompletionBody, index: number) => {
      pieces(call.function.arguments).forEach((piece, i) => {
        const head =
          i === 0
            ? {
                ...(call.id === undefined ? {} : { id: call.id }),
                type: 'function',
                function: { name: call.function.name, arguments: piece },
              }
            : { function: { arguments: piece } };
        out.push(chunk({ tool_calls: [{ ...(shape.omitIndex ? {} : { index }), ...head }] }));
      });
    });
    out.push(chunk({}, choice.finish_reason ?? 'stop'));
  }
  if (body.usage) out.push({ ...base, choices: [], usage: body.usage });
  return out;
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** The whole request body as UTF-8 (shared with the fake embeddings server). */
export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function flatHeaders(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}
