import { performance } from 'node:perf_hooks';
import { Redis } from 'ioredis';
import { bareChain, HOP_AGENTS, HOPS, type BareResult } from './bare-chain.js';
import { durableChain } from './durable-chain.js';
import { log, ms, pct, row, type Row, type SectionResult } from './common.js';
import { pipeline, type PipelineResult } from './pipeline.js';

/**
 * (a) Pipeline overhead: Redis PING, a bare BullMQ job, a bare chain of the
 * same hops as an answer turn, and the turn through the pipeline, each
 * sequential (one in flight) and with `inFlight` in parallel; then the
 * ratios against the goals (p50 ≤ 3× the bare chain, ≥ 20% of its throughput, ≤ 10 ms of CPU per
 * turn in the services and Redis together: issue 36's).
 */
export type OverheadOptions = {
  turns: number;
  inFlight: number;
  perLane: number;
  fields: number;
  concurrency: number;
  skipPing: boolean;
  skipBare: boolean;
  skipPipeline: boolean;
};

export type OverheadResult = SectionResult & {
  pipelineThroughput: number | null;
  bare: BareResult | null;
  /** The same hops as runtime steps with agents that do nothing, in one process (durable-chain.ts). */
  floor: BareResult | null;
  pipe: PipelineResult | null;
};

const both = (xs: readonly number[]) => `p50 ${ms(pct(xs, 50))}, p99 ${ms(pct(xs, 99))}`;

export async function overhead(redisUrl: string, options: OverheadOptions): Promise<OverheadResult> {
  const rows: Row[] = [];
  const details: string[] = [];
  if (!options.skipPing) {
    const ping = new Redis(redisUrl);
    const pings: number[] = [];
    for (let i = 0; i < 200; i++) {
      const t0 = performance.now();
      await ping.ping();
      pings.push(performance.now() - t0);
    }
    ping.disconnect();
    rows.push(row('Redis PING', both(pings)));
  }
  let bare: BareResult | null = null;
  if (!options.skipBare) {
    log(`bare chain: ${HOP_AGENTS.join(' → ')}, worker concurrency ${options.concurrency}, ${options.inFlight} in flight`);
    bare = await bareChain(redisUrl, {
      turns: options.turns,
      inFlight: options.inFlight,
      perLane: options.perLane,
      concurrency: options.concurrency,
    });
    rows.push(row('bare BullMQ job, 1 hop', both(bare.single)));
    rows.push(row(`bare BullMQ chain, ${HOPS} hops, 1 in flight`, both(bare.seq)));
    rows.push(
      row(`bare BullMQ chain, ${HOPS} hops, ${options.inFlight} in flight`, `${both(bare.loaded)}; ${bare.throughput.toFixed(0)} chains/s`),
    );
    rows.push(
      row(
        `bare chain CPU per chain, ${options.inFlight} in flight`,
        `${ms(bare.cpu.services + bare.cpu.redis)} (producer and workers ${ms(bare.cpu.services)}, Redis ${ms(bare.cpu.redis)})`,
      ),
    );
    details.push(
      `bare chain: queues ${HOP_AGENTS.map((a) => `agent-${a}`).join(' → ')} (${HOPS} hops, 2 queues as in the pipeline), step-job options as the pipeline's, ` +
        `one Worker per queue with concurrency ${options.concurrency}, producer and workers in this process; ${options.turns} sequential samples; ` +
        `throughput over ${bare.chains} chains with ${options.inFlight} in flight`,
    );
  }
  let floor: BareResult | null = null;
  if (!options.skipBare && !options.skipPipeline) {
    for (const processes of [false, true]) {
      log(
        `runtime floor${processes ? ' across processes' : ''}: the same hops as runtime steps with agents that do nothing, ${options.inFlight} in flight`,
      );
      const result = await durableChain(redisUrl, { ...options, processes });
      floor ??= result;
      const ratio = pct(result.seq, 50) / pct(bare!.seq, 50);
      const share = result.throughput / bare!.throughput;
      rows.push(
        row(
          `runtime floor (steps, no agents${processes ? ', a process per agent' : ', one process'})`,
          `p50 ${ms(pct(result.seq, 50))} (${ratio.toFixed(2)}× bare); ${result.throughput.toFixed(0)} turns/s (${(share * 100).toFixed(1)}%); ` +
            `CPU ${ms(result.cpu.services + result.cpu.redis)} per turn (processes ${ms(result.cpu.services)}, Redis ${ms(result.cpu.redis)})`,
        ),
      );
    }
    details.push(
      `runtime floor: the bare chain's hops as runtime steps on ${options.fields}-field form sessions (accept script, runStep: load, the turn's start, ` +
        'compare-and-set commit, sweeper mark, next job), agents that only hand off and ask, no HTTP, SSE or model: ' +
        'what durable, exactly-once steps cost before any agent or client; in one process, then with each agent in a process of its own ' +
        '(the producer accepting turns in the bench, as the gateway does; turn ends reported over IPC)',
    );
  }
  let pipe: PipelineResult | null = null;
  if (!options.skipPipeline) {
    pipe = await pipeline(redisUrl, { turns: options.turns, inFlight: options.inFlight, perLane: options.perLane, fields: options.fields });
    rows.push(row('interview turn (HTTP→SSE, offline), 1 in flight', both(pipe.seq)));
    rows.push(
      row(`interview turn, ${options.inFlight} sessions in parallel`, `${both(pipe.loaded)}; ${pipe.throughput.toFixed(0)} turns/s`),
    );
    details.push(
      `pipeline: POST /turns → agent-interviewer → agent-reviewer → agent-interviewer → turn.completed on SSE (${HOPS} queue hops); ` +
        `gateway and agents as separate processes (<AGENT>_CONCURRENCY default 4); ${options.turns} sequential answer turns over ${options.fields}-field forms; ` +
        `throughput over ${pipe.loaded.length} turns with ${options.inFlight} sessions in parallel${pipe.failed > 0 ? `; ${pipe.failed} turns ended in turn.failed` : ''}`,
    );
    details.push(...pipe.breakdown);
    const perTurn = pipe.cpu.services + pipe.cpu.redis;
    details.push(
      `CPU per turn with ${options.inFlight} in flight, by process: ` +
        Object.entries(pipe.cpu.byService)
          .sort((a, b) => b[1] - a[1])
          .map(([name, used]) => `${name} ${ms(used)}`)
          .join(', ') +
        `, Redis ${ms(pipe.cpu.redis)}, bench client ${ms(pipe.cpu.client)}`,
    );
    rows.push(
      row(
        `CPU per turn, ${options.inFlight} in flight (services + Redis)`,
        `${ms(perTurn)} (services ${ms(pipe.cpu.services)}, Redis ${ms(pipe.cpu.redis)}; bench client ${ms(pipe.cpu.client)} more)`,
        '≤ 10 ms',
        perTurn <= 10,
      ),
    );
  }
  if (bare && pipe) {
    const ratio = pct(pipe.seq, 50) / pct(bare.seq, 50);
    const loadedRatio = pct(pipe.loaded, 50) / pct(bare.loaded, 50);
    const tp = pipe.throughput / bare.throughput;
    rows.push(row('pipeline / bare chain p50, 1 in flight', `${ratio.toFixed(2)}×`, '≤ 3×', ratio <= 3));
    rows.push(row(`pipeline / bare chain p50, ${options.inFlight} in flight`, `${loadedRatio.toFixed(2)}×`));
    rows.push(row('pipeline / bare chain throughput', `${(tp * 100).toFixed(1)}%`, '≥ 20%', tp >= 0.2));
    details.push(
      `pipeline overhead per hop at p50 (1 in flight): ${((pct(pipe.seq, 50) - pct(bare.seq, 50)) / HOPS).toFixed(2)} ms above the bare hop`,
    );
  }
  return { rows, details, pipelineThroughput: pipe ? pipe.throughput : null, bare, floor, pipe };
}
