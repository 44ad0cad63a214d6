import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readBody } from './fake-openai.js';

/**
 * How the fake answers from now on:
 * - `ok`: vectors of `dimensions` numbers;
 * - `status`: that HTTP status with an OpenAI-style error body;
 * - `hang`: never answers (the client runs into its timeout);
 * - `dimensions`: vectors of another size than configured (a misconfigured model).
 */
export type FakeEmbeddingsMode =
  { kind: 'ok' } | { kind: 'status'; status: number } | { kind: 'hang' } | { kind: 'dimensions'; dimensions: number };

export type FakeEmbeddingsRequest = { model: string; input: string[]; dimensions?: number; encodingFormat?: string };

export type FakeEmbeddings = {
  /** Base URL including `/v1`, as the SDK's `baseURL` expects it. */
  url: string;
  /** Every embeddings request received, answered or not, in order. */
  requests: FakeEmbeddingsRequest[];
  /** Every input text received, in order. */
  inputs(): string[];
  setMode(mode: FakeEmbeddingsMode): void;
  /** Answers 400 (as for an input too long for the model) to any request with an input `refuse` matches; null stops. */
  refuseInputs(refuse: ((text: string) => boolean) | null): void;
  /** The vector the fake gives `text` (before the client normalises it). */
  vectorOf(text: string, dimensions?: number): number[];
  /** Resolves once `count` requests have arrived in total (an event to wait on, not a sleep). */
  waitForRequests(count: number): Promise<void>;
  reset(): void;
  close(): Promise<void>;
};

export type FakeEmbeddingsOptions = {
  /** Default 64. */
  dimensions?: number;
  /** word → the word it means, so a query in one word lands on documents written with the other. */
  synonyms?: Record<string, string>;
};

const STOP = new Set(
  'a an the and or of to in on at by for with is are do does can i you my your it how what when this that be'.split(' '),
);

/**
 * An OpenAI-compatible embeddings server over real HTTP on 127.0.0.1: `POST
 * /v1/embeddings` answers a deterministic hashed bag of words (words for
 * Latin script, character bigrams for Japanese; `synonyms` folded first), so
 * texts sharing words are close and unrelated ones near orthogonal. Records
 * every input; can be switched to fail, hang or send wrong dimensions.
 */
export async function startFakeEmbeddings(opts: FakeEmbeddingsOptions = {}): Promise<FakeEmbeddings> {
  const dimensions = opts.dimensions ?? 64;
  const synonyms = new Map(Object.entries(opts.synonyms ?? {}));
  const requests: FakeEmbeddingsRequest[] = [];
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  const hanging = new Set<ServerResponse>();
  let mode: FakeEmbeddingsMode = { kind: 'ok' };
  let refuse: ((text: string) => boolean) | null = null;

  const vectorOf = (text: string, dim = dimensions): number[] => {
    const vector = new Array<number>(dim).fill(0);
    for (const token of tokens(text)) {
      const word = synonyms.get(token) ?? token;
      const hash = fnv1a(word);
      vector[hash % dim]! += hash & 0x10000 ? 1 : -1;
    }
    return vector;
  };

  const record = (req: FakeEmbeddingsRequest): void => {
    requests.push(req);
    for (const waiter of waiters.filter((x) => requests.length >= x.count)) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
  };

  const answer = (res: ServerResponse, req: FakeEmbeddingsRequest): void => {
    if (mode.kind === 'hang') return void hanging.add(res);
    if (mode.kind === 'status')
      return sendJson(res, mode.status, {
        error: { message: `fake embeddings status ${mode.status}`, type: 'fake', code: null, param: null },
      });
    if (refuse && req.input.some(refuse)) {
      return sendJson(res, 400, {
        error: { message: "This model's maximum context length was exceeded", type: 'invalid_request_error', code: null, param: 'input' },
      });
    }
    const dim = mode.kind === 'dimensions' ? mode.dimensions : (req.dimensions ?? dimensions);
    const data = req.input.map((text, index) => {
      const vector = vectorOf(text, dim);
      return { object: 'embedding', index, embedding: req.encodingFormat === 'base64' ? toBase64(vector) : vector };
    });
    const tokenCount = req.input.reduce((n, t) => n + tokens(t).length, 0);
    sendJson(res, 200, { object: 'list', data, model: req.model, usage: { prompt_tokens: tokenCount, total_tokens: tokenCount } });
  };

  const server = createServer((req, res) => {
    readBody(req).then(
      (raw) => {
        if (req.method !== 'POST' || !/^(\/v1)?\/embeddings(\?.*)?$/.test(req.url ?? '')) {
          return sendJson(res, 404, { error: { message: `fake embeddings has no route ${req.method} ${req.url}` } });
        }
        let body: { model?: unknown; input?: unknown; dimensions?: unknown; encoding_format?: unknown };
        try {
          body = JSON.parse(raw);
        } catch {
          return sendJson(res, 400, { error: { message: 'request body is not JSON' } });
        }
        const input = typeof body.input === 'string' ? [body.input] : Array.isArray(body.input) ? body.input.map(String) : [];
        const request: FakeEmbeddingsRequest = {
          model: String(body.model ?? ''),
          input,
          ...(typeof body.dimensions === 'number' ? { dimensions: body.dimensions } : {}),
          ...(typeof body.encoding_format === 'string' ? { encodingFormat: body.encoding_format } : {}),
        };
        record(request);
        answer(res, request);
      },
      () => res.destroy(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const dropHanging = () => {
    for (const res of hanging) res.destroy();
    hanging.clear();
  };
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    inputs: () => requests.flatMap((r) => r.input),
    setMode: (next) => {
      if (mode.kind === 'hang' && next.kind !== 'hang') dropHanging();
      mode = next;
    },
    refuseInputs: (next) => void (refuse = next),
    vectorOf,
    waitForRequests: (count) => (requests.length >= count ? Promise.resolve() : new Promise((resolve) => waiters.push({ count, resolve }))),
    reset: () => {
      requests.length = 0;
      mode = { kind: 'ok' };
      refuse = null;
      dropHanging();
    },
    close: () =>
      new Promise((resolve) => {
        dropHanging();
        // Keep-alive sockets from the SDK's fetch would otherwise hold close() open.
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Lower-case words of Latin script and numbers, and bigrams of each run of Japanese characters. */
export function tokens(text: string): string[] {
  const out: string[] = [];
  for (const run of text
    .normalize('NFKC')
    .toLowerCase()
    .match(/[\p{Script=Latin}\p{N}]+|[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}ー]+/gu) ?? []) {
    if (/^[\p{Script=Latin}\p{N}]/u.test(run)) {
      if (!STOP.has(run)) out.push(run);
    } else if (run.length === 1) {
      out.push(run);
    } else {
      for (let i = 0; i + 1 < run.length; i++) out.push(run.slice(i, i + 2));
    }
  }
  return out;
}

function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

function toBase64(vector: number[]): string {
  const bytes = Buffer.alloc(vector.length * 4);
  vector.forEach((x, i) => bytes.writeFloatLE(x, i * 4));
  return bytes.toString('base64');
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  if (res.destroyed) return;
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}
