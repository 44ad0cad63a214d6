import { describeError } from '@convo/client';
import { UnreachableError } from './errors.js';

export { describeError };

/** Fails fast, before any session starts, when nothing answers HTTP at `baseUrl` (wrong port, system not started). */
export async function assertReachable(baseUrl: string): Promise<void> {
  try {
    const res = await fetch(`${baseUrl}/healthz`, { signal: AbortSignal.timeout(5_000) });
    await res.arrayBuffer();
  } catch (err) {
    throw new UnreachableError(`cannot reach the gateway at ${baseUrl}: ${describeError(err)}`);
  }
}
