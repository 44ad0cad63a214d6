import { performance } from 'node:perf_hooks';
import { Redis } from 'ioredis';
import { startBenchStack, kb, log, mapLimit, mb, openFilesLimit, row, secs, sleep, type SectionResult } from './common.js';
import { createSession, eventsUrl, keepAliveAgent, type Session } from './http-lite.js';
import { gatewayMemory, metric, scrape } from './metrics.js';
import { byName, clientsOfProcess, dropPrefixes } from './redis-info.js';
import { LiteSse } from './sse-lite.js';

/**
 * (b) N idle SSE clients on ONE gateway: distinct FAQ sessions (idle, no
 * agent work), each a real HTTP connection from this process (the gateway
 * is its own process). Measures the gateway's RSS and used heap per
 * connection (its own /metrics, before and after), the Redis connections
 * the gateway process holds (CLIENT LIST matched to its sockets), that
 * every client got 200 text/event-stream, and that every one hears a
 * heartbeat (SSE_HEARTBEAT_MS shortened for the bench).
 */
export type SseOptions = { clients: number; heartbeatMs: number; createConcurrency: number; openConcurrency: number };

export async function sseClients(redisUrl: string, options: SseOptions): Promise<SectionResult> {
  const details: string[] = [];
  const benchLimit = openFilesLimit();
  if (benchLimit !== null && benchLimit < options.clients + 200) {
    details.push(
      `warning: this process may open only ${benchLimit} files (ulimit -n); ${options.clients} clients need about ${options.clients + 200}`,
    );
  }
  // No agent runs here, so every session's greeting job stays queued: without a high shedding limit the gateway would refuse sessions past it.
  const { stack, keyPrefix, queuePrefix } = await startBenchStack(
    redisUrl,
    'sse',
    { SSE_HEARTBEAT_MS: String(options.heartbeatMs), SHED_QUEUE_BACKLOG: '100000000' },
    [],
  );
  const base = stack.url;
  const gatewayPid = stack.procs.gateway!.pid;
  const gwLimit = openFilesLimit(gatewayPid);
  details.push(`open-files limit: bench process ${benchLimit ?? 'unknown'}, gateway process ${gwLimit ?? 'unknown'}`);
  if (gwLimit !== null && gwLimit < options.clients + 200) details.push(`warning: the gateway may open only ${gwLimit} files`);
  const agent = keepAliveAgent();
  const redis = new Redis(redisUrl, { connectionName: 'bench-observer' });
  const clients: LiteSse[] = [];
  try {
    log(`sse: creating ${options.clients} faq sessions`);
    let t0 = performance.now();
    const sessions = await mapLimit(Array.from({ length: options.clients }), options.createConcurrency, () =>
      createSession(agent, base, { kind: 'faq' }),
    );
    const createMs = performance.now() - t0;
    details.push(
      `created ${sessions.length} faq sessions in ${secs(createMs)} (${(sessions.length / (createMs / 1000)).toFixed(0)}/s, ${options.createConcurrency} at once)`,
    );

    const before = await gatewayMemory(agent, base);
    log(`sse: opening ${options.clients} SSE clients`);
    const failures = new Map<string, number>();
    let stoppedOn: string | null = null;
    t0 = performance.now();
    await mapLimit(sessions, options.openConcurrency, async (session: Session) => {
      if (stoppedOn !== null) return;
      const stream = await LiteSse.open(eventsUrl(base, session), { agent, timeoutMs: 60_000 });
      if (stream.status === 200 && stream.contentType.startsWith('text/event-stream')) clients.push(stream);
      else {
        const why = stream.code ?? `HTTP ${stream.status} ${stream.contentType}`;
        failures.set(why, (failures.get(why) ?? 0) + 1);
        if (stream.code === 'EMFILE' || stream.code === 'ENFILE') stoppedOn = stream.code;
        stream.close();
      }
    });
    const openMs = performance.now() - t0;
    const opened = clients.length;
    details.push(`opened ${opened}/${options.clients} streams (200, text/event-stream) in ${secs(openMs)}`);
    if (failures.size > 0) details.push(`failed opens: ${[...failures].map(([k, v]) => `${k} ×${v}`).join(', ')}`);
    if (stoppedOn) details.push(`stopped opening on ${stoppedOn}: the open-files limit was reached after ${opened} clients`);

    const openedAt = performance.now();
    await sleep(2_000);
    const after = await gatewayMemory(agent, base);
    const clientCount = Math.max(1, opened);
    const rssPer = (after.rss - before.rss) / clientCount;
    const heapPer = (after.heapUsed - before.heapUsed) / clientCount;
    details.push(
      `gateway RSS ${mb(before.rss)} → ${mb(after.rss)}, heap used ${mb(before.heapUsed)} → ${mb(after.heapUsed)} (minimum of 5 scrapes each)`,
    );
    details.push(`gateway convo_sse_connections: ${after.sse}`);

    const redisPort = Number(new URL(redisUrl).port || 6379);
    const { mine, all } = await clientsOfProcess(redis, gatewayPid, redisPort);
    const named = all.filter((c) => (c.name ?? '').startsWith('gateway'));
    details.push(
      `Redis connections named gateway* on the whole server: ${named.length} (${byName(named) || 'none'}; other gateways on this Redis count here too)`,
    );
    if (mine) details.push(`Redis connections of the gateway process (pid ${gatewayPid}, via /proc): ${mine.length} (${byName(mine)})`);
    const redisConns = mine ? mine.length : named.length;

    log(`sse: waiting for a heartbeat on every stream (SSE_HEARTBEAT_MS=${options.heartbeatMs})`);
    const deadline = Date.now() + options.heartbeatMs * 2 + 5_000;
    const heard = () => clients.filter((c) => c.live && c.comments > 0).length;
    while (heard() < opened && Date.now() < deadline) await sleep(200);
    const heardN = heard();
    const liveN = clients.filter((c) => c.live).length;
    details.push(
      `${heardN}/${opened} streams had received a ': ping' ${secs(performance.now() - openedAt)} after the last one opened (heartbeat every ${options.heartbeatMs} ms); ${liveN} still open`,
    );
    const bytes = clients.reduce((a, c) => a + c.bytes, 0);
    details.push(`bytes received by the clients: ${bytes} (${(bytes / clientCount).toFixed(0)} per stream)`);

    for (const c of clients) c.close();
    const closeDeadline = Date.now() + 15_000;
    let left = NaN;
    while (Date.now() < closeDeadline) {
      left = metric(await scrape(agent, base), 'convo_sse_connections');
      if (left === 0) break;
      await sleep(250);
    }
    details.push(`after the clients closed, the gateway reports ${left} SSE connections`);

    return {
      rows: [
        row(
          `SSE clients open on one gateway`,
          `${opened}/${options.clients} in ${secs(openMs)}`,
          '10,000',
          opened >= 10_000 ? true : options.clients < 10_000 ? null : false,
        ),
        row('SSE clients hearing a heartbeat', `${heardN}/${opened}`, 'all', heardN === opened && opened > 0),
        row('gateway RSS per SSE client', kb(rssPer), '< 50 KB', rssPer < 50 * 1024),
        row('gateway heap used per SSE client', kb(heapPer), '< 50 KB', heapPer < 50 * 1024),
        row(`Redis connections of that gateway`, `${redisConns} (${byName(mine ?? named)})`, '≤ 3', redisConns <= 3),
      ],
      details,
    };
  } finally {
    for (const c of clients) c.close();
    agent.destroy();
    await stack.stop();
    await dropPrefixes(redis, [keyPrefix, queuePrefix]).catch(() => 0);
    redis.disconnect();
  }
}
