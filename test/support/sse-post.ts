import type { ReceivedEvent } from './sse.js';

/**
 * POSTs with `Accept: text/event-stream` and reads the stream until the server
 * ends it (as /agent.dialog does after its turn's answer or clarify), parsing
 * every event and comment.
 */
export async function postEventStream(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; events: ReceivedEvent[]; comments: string[] }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...headers },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  const events: ReceivedEvent[] = [];
  const comments: string[] = [];
  for (const block of text.split('\n\n')) {
    let id: number | null = null;
    let type = 'message';
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) comments.push(line.slice(1).trim());
      else if (line.startsWith('id:')) id = Number(line.slice(3).trim());
      else if (line.startsWith('event:')) type = line.slice(6).trim();
      else if (line.startsWith('data:')) data.push(line.slice(5).trim());
    }
    if (id !== null && data.length > 0) events.push({ id, type, data: JSON.parse(data.join('\n')) as Record<string, unknown> });
  }
  return { status: res.status, headers: res.headers, events, comments };
}
