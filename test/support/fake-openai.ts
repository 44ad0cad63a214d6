import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

type Usage = { prompt_tokens: number; completion_tokens: number };

/** A 200 reply: tool calls (with optional content) or plain content; usage defaults to 11 prompt / 7 completion tokens. */
export type FakeCompletion =
  | { toolCalls: Array<{ name: string; arguments: string }>; content?: string | null; usage?: Usage }
  | { content: string; usage?: Usage };

/**
 * One scripted answer of the fake, used in order:
 * - `toolCalls` / `content`: a 200 Chat Completions reply (arguments are sent verbatim, malformed or not);
 * - `status`: that status with `body` as JSON (default: an OpenAI-style error) and extra `headers`;
 * - `disconnect`: the socket is destroyed before any response (a connection error for the client);
 * - `delayMs` + `reply`: `reply` after a pause, to run a client into its timeout.
 */
export type FakeResponse =
  | FakeCompletion
  | { status: number; body?: unknown; headers?: Record<string, string> }
  | { disconnect: true }
  | { delayMs: number; reply: FakeResponse };

// Scripted replies read any part of the request the test cares about.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type FakeRequest = { body: any; headers: Record<string, string> };

export type FakeOpenAi = {
  /** Base URL including `/v1`, as the SDK's `baseURL` expects it. */
  url: string;
  enqueue(...responses: FakeResponse[]): void;
  /** Every chat completion request received, in order, including those answered with errors. */
  requests: FakeRequest[];
  /** Scripted responses not used yet: a test can assert its script was consumed. */
  pending(): number;
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
export async function startFakeOpenAi(): Promise<FakeOpenAi> {
  const script: FakeResponse[] = [];
  const requests: FakeRequest[] = [];
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  const timers = new Set<NodeJS.Timeout>();
  let completions = 0;

  const record = (req: FakeRequest): void => {
    requests.push(req);
    for (const waiter of waiters.filter((x) => requests.length >= x.count)) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
  };

  const answer = (res: ServerResponse, reply: FakeResponse | undefined, model: string): void => {
    if (res.destroyed) return;
    if (!reply) return sendJson(res, 500, { error: { message: 'fake OpenAI script exhausted: no response enqueued for this request', type: 'fake' } });
    if ('delayMs' in reply) {
      const timer = setTimeout(() => {
        timers.delete(timer);
        answer(res, reply.reply, model);
      }, reply.delayMs);
      timers.add(timer);
      return;
    }
    if ('disconnect' in reply) return void res.socket?.destroy();
    if ('status' in reply) {
      const body = reply.body ?? { error: { message: `fake status ${reply.status}`, type: 'fake', code: null, param: null } };
      return sendJson(res, reply.status, body, reply.headers);
    }
    completions += 1;
    sendJson(res, 200, completion(reply, model, completions));
  };

  const server = createServer((req, res) => {
    readBody(req).then((raw) => {
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
      record({ body, headers: flatHeaders(req) });
      answer(res, script.shift(), String(body?.model ?? 'fake-model'));
    }, () => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    enqueue: (...responses) => void script.push(...responses),
    requests,
    pending: () => script.length,
    waitForRequests: (count) =>
      requests.length >= count ? Promise.resolve() : new Promise((resolve) => waiters.push({ count, resolve })),
    close: () =>
      new Promise((resolve) => {
        for (const t of timers) clearTimeout(t);
        // Keep-alive sockets from the SDK's fetch would otherwise hold close() open.
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A Chat Completions body as the API returns it: one choice, tool calls in the function shape. */
function completion(reply: FakeCompletion, model: string, requestNumber: number): object {
  const toolCalls = 'toolCalls' in reply ? reply.toolCalls : [];
  const usage = reply.usage ?? DEFAULT_USAGE;
  return {
    id: `chatcmpl-fake-${requestNumber}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [
      {
        index: 0,
        finish_reason: toolCalls.length > 0 ? 'tool_calls' : 'stop',
        logprobs: null,
        message: {
          role: 'assistant',
          content: reply.content ?? null,
          refusal: null,
          ...(toolCalls.length > 0
            ? { tool_calls: toolCalls.map((c, i) => ({ id: `call_${requestNumber}_${i}`, type: 'function', function: { name: c.name, arguments: c.arguments } })) }
            : {}),
        },
      },
    ],
    usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
  };
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
