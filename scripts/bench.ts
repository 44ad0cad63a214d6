import { REPO_ROOT } from '../test/support/processes.js';
import { ensureRedis } from './ensure-redis.js';
import { envNum, log, printTable, row, secs, skippedSections, type Row, type SectionResult } from './bench/common.js';
import { clusterScaling } from './bench/cluster.js';
import { flood } from './bench/flood.js';
import { growth } from './bench/growth.js';
import { modelUsage } from './bench/model-usage.js';
import { overhead } from './bench/overhead.js';
import { peers } from './bench/peers.js';
import { sseClients } from './bench/sse-clients.js';
import { tracingCost } from './bench/tracing.js';

/**
 * `npm run bench`: on one machine and one Redis, prints
 *  (a) pipeline overhead: an interview answer turn through the whole pipeline
 *      (POST → interviewer → reviewer → interviewer → turn.completed on SSE,
 *      offline model, services as processes) next to a bare BullMQ chain of
 *      the same hops, sequential and with 20 in flight, and their ratios;
 *  (b) N idle SSE clients on one gateway: memory per connection, Redis
 *      connections, every stream live;
 *  (c) a flood at 10× the sustainable rate: accepted, shed and how fast,
 *      and that no accepted turn is lost;
 *  (d) a remote model's cost per answered question (model calls, prompt and
 *      cached tokens, streamed questions) against the fake OpenAI server;
 *  (e) a turn's time at turn 5 and at turn 195 of one session;
 *  (f) the pipeline on local Redis Clusters (1 and 3 shards, 1 and 3 queue
 *      partitions): throughput, a flood with each shard's share of the
 *      commands, and a scaling model from the measured per-turn costs;
 *  (g) what tracing costs a turn: the same turns with OpenTelemetry off and
 *      on (OTLP export to a receiver in the bench), latency and throughput;
 *  (h) peers: the same three-step turn on Restate (one object per session; one service per agent),
 *      DBOS and LangGraph.js (Postgres, fsync on and off), each started privately, beside (a)'s turn and bare chain (scripts/bench/peers.ts).
 * Then one table of every figure with its goal. Asserts nothing.
 *
 * Knobs (env): BENCH_SKIP=ping,bare,pipeline,sse,flood,usage,growth,cluster,tracing,peers (or a,b,c,d,e,f,g,h); BENCH_GROWTH_TURNS (195);
 * BENCH_CLUSTER_TURNS_PER_SESSION (10), BENCH_CLUSTER_FLOOD_SECONDS (5);
 * BENCH_TRACING_TURNS (100), BENCH_TURNS (200), BENCH_SESSIONS (20), BENCH_TURNS_PER_SESSION (20),
 * BENCH_FIELDS (20), BENCH_BARE_CONCURRENCY (4, the agents' default);
 * BENCH_SSE_CLIENTS (10000), BENCH_SSE_HEARTBEAT_MS (5000);
 * BENCH_FLOOD_SECONDS (10), BENCH_FLOOD_FACTOR (10), BENCH_FLOOD_SESSIONS (400),
 * BENCH_FLOOD_BACKLOG (200), BENCH_FLOOD_FIELDS (40), BENCH_FLOOD_DRAIN_SECONDS (120),
 * BENCH_FLOOD_CONNECTIONS (256 keep-alive connections opened before the flood),
 * BENCH_FLOOD_BASE_RATE (rate used when (a) is skipped; 100 turns/s).
 * Quick run: BENCH_TURNS=50 BENCH_SSE_CLIENTS=500 BENCH_FLOOD_SECONDS=3 npm run -s bench
 */
async function main() {
  const started = Date.now();
  const skip = skippedSections();
  const redis = await ensureRedis({ repoRoot: REPO_ROOT, log });
  const rows: Row[] = [];
  const details: Array<[string, string[]]> = [];
  /** A section that throws becomes a row saying so; the others still run. */
  const section = async <T extends SectionResult>(title: string, run: () => Promise<T>): Promise<T | null> => {
    try {
      const result = await run();
      rows.push(...result.rows);
      details.push([title, result.details]);
      return result;
    } catch (err) {
      console.error(err);
      rows.push(row(`${title}: FAILED`, (err as Error).message.split('\n')[0]!.slice(0, 120)));
      return null;
    }
  };
  try {
    const inFlight = envNum('BENCH_SESSIONS', 20);
    const overheadResult = await section('(a) pipeline overhead', () =>
      overhead(redis.url, {
        turns: envNum('BENCH_TURNS', 200),
        inFlight,
        perLane: envNum('BENCH_TURNS_PER_SESSION', 20),
        fields: envNum('BENCH_FIELDS', 20),
        concurrency: envNum('BENCH_BARE_CONCURRENCY', envNum('INTERVIEWER_CONCURRENCY', 4)),
        skipPing: skip.has('ping'),
        skipBare: skip.has('bare'),
        skipPipeline: skip.has('pipeline'),
      }),
    );
    if (!skip.has('sse')) {
      await section('(b) idle SSE clients', () =>
        sseClients(redis.url, {
          clients: envNum('BENCH_SSE_CLIENTS', 10_000),
          heartbeatMs: envNum('BENCH_SSE_HEARTBEAT_MS', 5_000),
          createConcurrency: 32,
          openConcurrency: 200,
        }),
      );
    }
    if (!skip.has('flood')) {
      const measured = overheadResult?.pipelineThroughput ?? null;
      const factor = envNum('BENCH_FLOOD_FACTOR', 10);
      await section(`(c) flood at ${factor}× the sustainable rate`, () =>
        flood(redis.url, {
          seconds: envNum('BENCH_FLOOD_SECONDS', 10),
          factor,
          baseRate: measured ?? envNum('BENCH_FLOOD_BASE_RATE', 100),
          baseRateSource: measured ? 'pipeline throughput measured in (a)' : 'no pipeline figure from (a): BENCH_FLOOD_BASE_RATE',
          sessions: envNum('BENCH_FLOOD_SESSIONS', 400),
          backlog: envNum('BENCH_FLOOD_BACKLOG', 200),
          fields: envNum('BENCH_FLOOD_FIELDS', 40),
          drainSeconds: envNum('BENCH_FLOOD_DRAIN_SECONDS', 120),
          warmConnections: envNum('BENCH_FLOOD_CONNECTIONS', 256),
        }),
      );
    }
    if (!skip.has('usage')) await section('(d) model usage per answered question', () => modelUsage(redis.url));
    if (!skip.has('growth'))
      await section('(e) turn cost as the conversation grows', () => growth(redis.url, { turns: envNum('BENCH_GROWTH_TURNS', 195) }));
    if (!skip.has('cluster')) {
      await section('(f) Redis Cluster: shards, partitions, spread', () =>
        clusterScaling({
          inFlight,
          perLane: envNum('BENCH_CLUSTER_TURNS_PER_SESSION', 10),
          fields: envNum('BENCH_FIELDS', 20),
          flood: {
            seconds: envNum('BENCH_CLUSTER_FLOOD_SECONDS', 5),
            factor: envNum('BENCH_FLOOD_FACTOR', 10),
            sessions: envNum('BENCH_FLOOD_SESSIONS', 400),
            backlog: envNum('BENCH_FLOOD_BACKLOG', 200),
          },
        }),
      );
    }
    if (!skip.has('tracing')) {
      await section('(g) tracing cost', () =>
        tracingCost(redis.url, {
          turns: envNum('BENCH_TRACING_TURNS', 100),
          inFlight,
          perLane: envNum('BENCH_TURNS_PER_SESSION', 20),
          fields: envNum('BENCH_FIELDS', 20),
        }),
      );
    }
    if (!skip.has('peers')) {
      await section('(h) peers', () =>
        peers(
          { turns: envNum('BENCH_TURNS', 200), inFlight, perLane: envNum('BENCH_TURNS_PER_SESSION', 20) },
          overheadResult?.bare ?? null,
          overheadResult?.pipe ?? null,
        ),
      );
    }
  } finally {
    await redis.stop();
  }
  console.log('');
  for (const [title, lines] of details) {
    if (lines.length === 0) continue;
    console.log(`${title}:`);
    for (const l of lines) console.log(`  - ${l}`);
  }
  console.log(
    `\nbench finished in ${secs(Date.now() - started)} (${skip.size > 0 ? `skipped: ${[...skip].join(', ')}` : 'all sections'})\n`,
  );
  printTable(rows);
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
