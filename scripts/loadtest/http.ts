import { UnreachableError } from './errors.js';

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
  return { status: res.status, retryAfterS: parseRetryAfter(res.headers.get('retry-after')), body: parseObject(text) };
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

/** A short reason for a fetch failure: undici hides the interesting part (ECONNREFUSED…) in `cause`. */
export function describeError(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const cause = err.cause instanceof Error ? err.cause.message : '';
  return cause === '' ? err.message : `${err.message} (${cause})`;
}

function parseRetryAfter(raw: string | null): number | null {
  if (raw === null) return null;
  if (/^\d+$/.test(raw.trim())) return Number(raw.trim());
  const at = Date.parse(raw);
  return Number.isNaN(at) ? null : Math.max(0, (at - Date.now()) / 1000);
}

function parseObject(text: string): Record<string, unknown> {
  try {
    const json: unknown = JSON.parse(text);
    return typeof json === 'object' && json !== null && !Array.isArray(json) ? (json as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
