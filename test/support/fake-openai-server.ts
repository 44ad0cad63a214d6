import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export type FakeReply =
  | { toolCalls: Array<{ name: string; arguments: string }>; content?: string | null }
  | { content: string }
  | { status: number; body?: unknown; headers?: Record<string, string> };

/**
 * A small OpenAI-compatible server over real HTTP: `POST /v1/chat/completions`
 * answers from a script and records every request; when the script runs out it
 * answers 500, so a test cannot pass on replies it did not plan.
 */
export async function startFakeOpenAi(): Promise<{
  url: string;
  enqueue(...replies: FakeReply[]): void;
  requests: Array<{ body: any; headers: IncomingMessage['headers'] }>;
  close(): Promise<void>;
}> {
  const script: FakeReply[] = [];
  const requests: Array<{ body: any; headers: IncomingMessage['headers'] }> = [];
  let n = 0;
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString('utf8')));
    req.on('end', () => {
      if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
        res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'not found' } }));
        return;
      }
      const body = JSON.parse(raw) as { model: string };
      requests.push({ body, headers: req.headers });
      const reply = script.shift();
      if (!reply) {
        res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'fake script exhausted' } }));
        return;
      }
      if ('status' in reply) {
        res.writeHead(reply.status, { 'content-type': 'application/json', ...(reply.headers ?? {}) });
        res.end(JSON.stringify(reply.body ?? { error: { message: `status ${reply.status}`, type: 'fake' } }));
        return;
      }
      n += 1;
      const toolCalls = 'toolCalls' in reply ? reply.toolCalls : [];
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: `chatcmpl-${n}`,
          object: 'chat.completion',
          created: Math.floor(Date.now() / 1000),
          model: body.model,
          choices: [
            {
              index: 0,
              finish_reason: toolCalls.length ? 'tool_calls' : 'stop',
              message: {
                role: 'assistant',
                content: reply.content ?? null,
                ...(toolCalls.length
                  ? { tool_calls: toolCalls.map((c, i) => ({ id: `call_${n}_${i}`, type: 'function', function: { name: c.name, arguments: c.arguments } })) }
                  : {}),
              },
            },
          ],
          usage: { prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 },
        }),
      );
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    enqueue: (...r) => script.push(...r),
    requests,
    close: () => new Promise((r) => server.close(() => r())),
  };
}
