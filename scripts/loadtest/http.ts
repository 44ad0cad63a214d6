import { describeError, retryAfterMs } from '../../services/gateway/web/lib/api.js';
import { UnreachableError } from './errors.js';

export { describeError };

/** Retry-After (delta-seconds or an HTTP date) in seconds, parsed as the chat clients parse it. */
function retryAfterSeconds(raw: string | null): number | null {
  const ms = retryAfterMs(raw);
  return ms === null ? null : ms / 1000;
}

/** One JSON answer of the gateway; `body` is `{}` when it was not a JSON object. */
export interface JsonResponse {
  status: number;
  /** Seconds from the Retry-After header (delta-seconds or HTTP date), or null without one. */
  retryAfterS: number | null;
  body: Record<string, unknown>;
}

/** POSTs `body` as JSON with node's fetch; throws on network errors and aborts, never on an HTTP status. */
export async function postJson(url: string, body: unknown, opts: { token?: string; signal: AbortSignal }): Promise<JsonResponse> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (opts.token !== undefined) headers.authorization = `Bearer ${opts.token}`;
  const res = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body), signal: opts.signal });
  const text = await res.text();
  return { status: res.status, retryAfterS: retryAfterSeconds(res.headers.get('retry-after')), body: parseObject(text) };
}

/** The `error.code` of a contract error body, for messages; '' when the body has none. */
export function errorCode(body: Record<string, unknown>): string {
  const error = body.error;
  if (typeof error !== 'object' || error === null) return '';
  const code = (error as Record<string, unknown>).code;
  return typeof code === 'string' ? code : '';
}

/** Fails fast, before any session starts, when nothing answers HTTP at `baseUrl` (wrong port, system not started). */
export async function assertReachable(baseUrl: string): Promise<void> {
  try {
    const res = await fetch(`${baseUrl}/healthz`, { signal: AbortSignal.timeout(5_000) });
    await res.arrayBuffer();
  } catch (err) {
    throw new UnreachableError(`cannot reach the gateway at ${baseUrl}: ${describeError(err)}`);
  }
}

function parseObject(text: string): Record<string, unknown> {
  try {
    const json: unknown = JSON.parse(text);
    return typeof json === 'object' && json !== null && !Array.isArray(json) ? (json as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
