import type { Agent } from 'node:http';
import { http } from './http-lite.js';
import { sleep } from './common.js';
import { HARNESS_ENV } from '../../test/support/processes.js';

/** The gateway's GET /metrics (Prometheus text), parsed into `name{labels}` → value. */
export async function scrape(agent: Agent, base: string): Promise<Map<string, number>> {
  // /metrics is behind the operator key; the bench's stacks run with the harness's.
  const response = await http(agent, `${base}/metrics`, { timeoutMs: 30_000, token: HARNESS_ENV.OPERATOR_KEY });
  if (response.status !== 200) throw new Error(`GET /metrics: ${response.status} ${response.error ?? response.text.slice(0, 200)}`);
  const out = new Map<string, number>();
  for (const line of response.text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const sp = line.lastIndexOf(' ');
    const value = Number(line.slice(sp + 1));
    if (Number.isFinite(value)) out.set(line.slice(0, sp), value);
  }
  return out;
}

/** Sum of every series of `name` (any labels), or NaN when absent. */
export function metric(scraped: Map<string, number>, name: string, labels?: Record<string, string>): number {
  let sum = 0;
  let found = false;
  for (const [key, value] of scraped) {
    const brace = key.indexOf('{');
    const seriesName = brace < 0 ? key : key.slice(0, brace);
    if (seriesName !== name) continue;
    if (labels && !Object.entries(labels).every(([k, val]) => key.includes(`${k}="${val}"`))) continue;
    sum += value;
    found = true;
  }
  return found ? sum : NaN;
}

export type Memory = { rss: number; heapUsed: number; sse: number };

/**
 * RSS and used heap of the gateway process, the minimum over a few scrapes
 * spaced `gapMs` apart: heap use only grows between collections, so the
 * minimum is the closest to what is really retained.
 */
export async function gatewayMemory(agent: Agent, base: string, samples = 5, gapMs = 500): Promise<Memory> {
  let best: Memory = { rss: Infinity, heapUsed: Infinity, sse: NaN };
  for (let i = 0; i < samples; i++) {
    if (i > 0) await sleep(gapMs);
    const scraped = await scrape(agent, base);
    best = {
      rss: Math.min(best.rss, metric(scraped, 'process_resident_memory_bytes')),
      heapUsed: Math.min(best.heapUsed, metric(scraped, 'nodejs_heap_size_used_bytes')),
      sse: metric(scraped, 'convo_sse_connections'),
    };
  }
  return best;
}
