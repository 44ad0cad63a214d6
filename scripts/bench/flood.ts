import { performance } from 'node:perf_hooks';
import type { Stack } from '../../test/support/processes.js';
import {
  benchForm,
  dropBenchData,
  startBenchStack,
  type BenchTarget,
  type MeasureWindow,
  log,
  mapLimit,
  ms,
  p50p99,
  pct,
  row,
  secs,
  sleep,
  type SectionResult,
} from './common.js';
import { createSession, eventsUrl, http, httpStats, json, keepAliveAgent, turnsUrl, type Session } from './http-lite.js';
import { metric, scrape } from './metrics.js';
import { ANSWER } from './pipeline.js';
import { LiteSse, TurnWaiter } from './sse-lite.js';

/**
 * (c) A flood at `factor` × the sustainable rate on a fresh stack (gateway +
 * greeter, architect, interviewer, reviewer; RATE_LIMIT_MAX=0 so only the
 * system's own shedding applies; SHED_QUEUE_BACKLOG small enough to trip in
 * the bench's time). Open loop: POST /turns at fixed intervals whatever the
 * answers, round robin over pre-opened form sessions. Then waits (bounded)
 * until every accepted turn has its turn.completed / turn.failed on its
 * session's stream; an accepted turn without one is lost.
 */
export type FloodOptions = {
  seconds: number;
  factor: number;
  baseRate: number;
  baseRateSource: string;
  sessions: number;
  backlog: number;
  fields: number;
  drainSeconds: number;
  /** Keep-alive connections opened before the flood. */
  warmConnections: number;
  /** More settings for the stack (queue partitions on a cluster). */
  env?: Record<string, string>;
  /** Called as the first POST goes out and once every accepted turn has ended (per-shard command counts). */
  window?: MeasureWindow;
  /** Prefixes the table's rows (which run they belong to). */
  label?: string;
  /** Told the stack once it runs (its processes, for CPU figures). */
  onStack?: (stack: Stack) => void;
};

type Tracked = { sentAt: number };

export async function flood(target: BenchTarget, options: FloodOptions): Promise<SectionResult> {
  const details: string[] = [];
  const rate = options.factor * options.baseRate;
  const total = Math.max(1, Math.round(rate * options.seconds));
  const { stack, keyPrefix, queuePrefix } = await startBenchStack(target, 'flood', {
    SHED_QUEUE_BACKLOG: String(options.backlog),
    ...options.env,
  });
  options.onStack?.(stack);
  const base = stack.url;
  // POSTs and scrapes on one pool, the long-lived streams on another, so streams never take POST sockets.
  const agent = keepAliveAgent(1024);
  const streamAgent = keepAliveAgent();
  const streams: LiteSse[] = [];
  // Turn ends from every stream, matched to accepted turns (an end may beat its POST's answer).
  const accepted = new Map<string, Tracked>();
  const endedEarly = new Map<string, { failed: boolean; at: number }>();
  const ends = { completed: 0, failed: 0, last: 0, latency: [] as number[] };
  const finish = (turnId: string, failed: boolean, at: number) => {
    const tracked = accepted.get(turnId);
    if (!tracked) return false;
    accepted.delete(turnId);
    if (failed) ends.failed++;
    else ends.completed++;
    ends.last = Math.max(ends.last, at);
    ends.latency.push(at - tracked.sentAt);
    return true;
  };
  const onEnd = (turnId: string, failed: boolean) => {
    const at = performance.now();
    if (!finish(turnId, failed, at)) endedEarly.set(turnId, { failed, at });
  };
  try {
    log(`flood: opening ${options.sessions} form sessions (stream open, greeting done)`);
    const t0 = performance.now();
    const sessions = await mapLimit(Array.from({ length: options.sessions }), 20, async (): Promise<Session> => {
      const session = await createSession(agent, base, { kind: 'form', form: benchForm(options.fields), options: { language: 'en' } });
      const waiter = new TurnWaiter();
      const sse = await LiteSse.open(eventsUrl(base, session), {
        agent: streamAgent,
        onTurnEnd: (id, failed) => {
          waiter.onEnd(id, failed);
          onEnd(id, failed);
        },
      });
      if (sse.status !== 200) throw new Error(`events: ${sse.status} ${sse.error ?? ''}`);
      streams.push(sse);
      await waiter.waitEnds(1, 120_000);
      return session;
    });
    endedEarly.clear();
    details.push(`${sessions.length} sessions ready in ${secs(performance.now() - t0)} (${options.fields}-field forms)`);
    details.push(
      `rate: ${rate.toFixed(0)} POST/s = ${options.factor} × ${options.baseRate.toFixed(1)} turns/s (${options.baseRateSource}), for ${options.seconds} s, open loop; SHED_QUEUE_BACKLOG=${options.backlog}, RATE_LIMIT_MAX=0`,
    );

    // Open the client's connection pool first, as long-lived clients would have it, so the flood
    // measures answers rather than a burst of TCP handshakes; new connections are still counted.
    await Promise.all(Array.from({ length: options.warmConnections }, () => http(agent, `${base}/healthz`)));
    log(`flood: ${total} POST /turns at ${rate.toFixed(0)}/s`);
    const byStatus = new Map<string, number>();
    const shedMs: number[] = [];
    const shedWireMs: number[] = [];
    const shedNewConnMs: number[] = [];
    const acceptMs: number[] = [];
    const acceptWireMs: number[] = [];
    const lag: number[] = [];
    let newConnections = 0;
    const closedBefore = httpStats.closedByServer;
    const errors = new Map<string, number>();
    const inFlight = new Set<Promise<void>>();
    // Per second of the flood: accepted, shed, and the shed answer times.
    const perSecond: Array<{ sent: number; ok: number; shed: number[] }> = [];
    const bucketOf = (sentAt: number) => (perSecond[Math.floor((sentAt - start) / 1000)] ??= { sent: 0, ok: 0, shed: [] });
    // prom-client's event-loop lag figures restart at every scrape: this one opens the flood's window.
    await scrape(agent, base).catch(() => null);
    await options.window?.start();
    const start = performance.now();
    const fire = (session: Session, sentAt: number) => {
      lag.push(performance.now() - sentAt);
      const bucket = bucketOf(sentAt);
      bucket.sent++;
      const pending = http(agent, turnsUrl(base, session), {
        method: 'POST',
        token: session.token,
        body: { message: ANSWER },
        startedAt: sentAt,
        timeoutMs: 30_000,
      }).then((response) => {
        if (response.newConnection) newConnections++;
        const body = json(response);
        const err = body.error as { code?: unknown } | undefined;
        const code = response.status === 0 ? (response.code ?? 'ERR') : typeof err?.code === 'string' ? err.code : '';
        const key = response.status === 202 ? '202' : `${response.status} ${code}`;
        byStatus.set(key, (byStatus.get(key) ?? 0) + 1);
        if (response.status === 202) {
          acceptMs.push(response.ms);
          acceptWireMs.push(response.wireMs);
          bucket.ok++;
          const turnId = body.turnId;
          if (typeof turnId !== 'string') return void errors.set('202 without turnId', (errors.get('202 without turnId') ?? 0) + 1);
          accepted.set(turnId, { sentAt });
          const early = endedEarly.get(turnId);
          if (early) {
            endedEarly.delete(turnId);
            finish(turnId, early.failed, early.at);
          }
        } else if (response.status === 429 || response.status === 503) {
          shedMs.push(response.ms);
          shedWireMs.push(response.wireMs);
          if (response.newConnection) shedNewConnMs.push(response.ms);
          bucket.shed.push(response.ms);
        } else errors.set(key, (errors.get(key) ?? 0) + 1);
      });
      inFlight.add(pending);
      void pending.finally(() => inFlight.delete(pending));
    };
    let sent = 0;
    while (sent < total) {
      const due = Math.min(total, Math.floor(((performance.now() - start) * rate) / 1000) + 1);
      for (; sent < due; sent++) fire(sessions[sent % sessions.length]!, start + (sent * 1000) / rate);
      await sleep(1);
    }
    const floodEnd = performance.now();
    const sendMs = floodEnd - start;
    await Promise.all([...inFlight]);
    const loopLag = await scrape(agent, base)
      .then((m) =>
        ['p50', 'p99', 'max'].map((q) => `${q} ${(metric(m, `nodejs_eventloop_lag_${q}_seconds`) * 1000).toFixed(1)} ms`).join(', '),
      )
      .catch(() => 'unknown');
    const answeredMs = performance.now() - floodEnd;
    const acceptedN = byStatus.get('202') ?? 0;
    const shedN = shedMs.length;
    const errN = [...errors.values()].reduce((a, b) => a + b, 0);
    details.push(
      `sent ${sent} in ${secs(sendMs)} (${(sent / (sendMs / 1000)).toFixed(0)}/s achieved); send lag behind schedule ${p50p99(lag)}`,
    );
    details.push(
      `answers: ${[...byStatus]
        .sort()
        .map(([k, v]) => `${k} ×${v}`)
        .join(', ')}`,
    );
    details.push(
      `the last answer arrived ${secs(answeredMs)} after the last POST was sent; gateway event-loop lag during the flood (its /metrics): ${loopLag}`,
    );
    details.push(
      `shed (429/503) answer time from the scheduled send: ${p50p99(shedMs)}; from the request on the wire: ${p50p99(shedWireMs)}`,
    );
    details.push(
      `${options.warmConnections} keep-alive connections opened before the flood; ${newConnections} requests needed a new connection; ` +
        `${httpStats.closedByServer - closedBefore} answers closed their connection (connection: close) ` +
        `(shed answers on those: ${p50p99(shedNewConnMs)})`,
    );
    details.push(
      `accept (202) answer time from the scheduled send: ${p50p99(acceptMs)}; from the request on the wire: ${p50p99(acceptWireMs)}`,
    );

    log(`flood: waiting up to ${options.drainSeconds} s for ${accepted.size} accepted turns still running`);
    const deadline = Date.now() + options.drainSeconds * 1000;
    while (accepted.size > 0 && Date.now() < deadline) await sleep(100);
    const lost = accepted.size;
    await options.window?.end();
    const drained = lost === 0;
    // From the last POST sent (the end of the flood) to the last accepted turn's end event.
    const drainMs = drained ? Math.max(0, ends.last - floodEnd) : performance.now() - floodEnd;
    details.push(
      `accepted turns: ${acceptedN}, completed ${ends.completed}, failed ${ends.failed}, lost ${lost}${drained ? '' : ` (no end event after ${options.drainSeconds} s)`}`,
    );
    details.push(`accepted turn latency (POST → end event) ${p50p99(ends.latency)}`);
    const endedN = ends.completed + ends.failed;
    if (endedN > 0)
      details.push(
        `turns ended per second from the flood's start to the last end: ${(endedN / ((ends.last - start) / 1000)).toFixed(0)}/s`,
      );
    details.push(
      `per second of the flood (sent / 202 / shed, shed p99): ${perSecond
        .map((b, i) => `${i + 1}s ${b.sent}/${b.ok}/${b.shed.length}${b.shed.length > 0 ? ` ${pct(b.shed, 99).toFixed(0)} ms` : ''}`)
        .join('; ')}`,
    );
    try {
      const scraped = await scrape(agent, base);
      const shed503 = metric(scraped, 'convo_shed_requests_total', { status: '503' });
      const shed429 = metric(scraped, 'convo_shed_requests_total', { status: '429' });
      details.push(`gateway convo_shed_requests_total: 503 ${shed503}, 429 ${Number.isNaN(shed429) ? 0 : shed429}`);
    } catch (err) {
      details.push(`could not read /metrics: ${(err as Error).message}`);
    }
    if (errN > 0) details.push(`errors: ${[...errors].map(([k, v]) => `${k} ×${v}`).join(', ')}`);

    const share = sent > 0 ? shedN / sent : NaN;
    const worst = perSecond.reduce<{ second: number; p99: number }>(
      (w, b, i) => (b && b.shed.length > 0 && pct(b.shed, 99) > w.p99 ? { second: i + 1, p99: pct(b.shed, 99) } : w),
      { second: 0, p99: -Infinity },
    );
    const label = options.label ? `${options.label} ` : '';
    const rows = [
      row(
        'flood: POST /turns sent',
        `${sent} at ${rate.toFixed(0)}/s for ${options.seconds} s (${options.factor}× ${options.baseRate.toFixed(0)}/s)`,
      ),
      row('flood: accepted / shed / errors', `${acceptedN} / ${shedN} (${(share * 100).toFixed(1)}%) / ${errN}`),
      row(
        'flood: shed answer time (from scheduled send)',
        `p50 ${ms(pct(shedMs, 50))}, p99 ${ms(pct(shedMs, 99))}`,
        'p99 < 50 ms',
        shedN === 0 ? null : pct(shedMs, 99) < 50,
      ),
      row('flood: shed answer time (on the wire)', `p50 ${ms(pct(shedWireMs, 50))}, p99 ${ms(pct(shedWireMs, 99))}`),
      row(
        'flood: shed p99 in the worst second',
        worst.second > 0 ? `${ms(worst.p99)} (second ${worst.second})` : 'nothing shed',
        '< 50 ms every second',
        worst.second > 0 ? worst.p99 < 50 : null,
      ),
      row('flood: accepted turns lost', `${lost} (completed ${ends.completed}, failed ${ends.failed})`, '0', lost === 0),
      row('flood: drain (last POST → last accepted turn ends)', drained ? secs(drainMs) : `not drained after ${secs(drainMs)}`),
    ];
    return { rows: rows.map((r) => ({ ...r, what: label + r.what })), details };
  } finally {
    for (const s of streams) s.close();
    agent.destroy();
    streamAgent.destroy();
    await stack.stop();
    await dropBenchData(target, [keyPrefix, queuePrefix]);
  }
}
