import { Redis } from 'ioredis';
import type { Stack } from '../../test/support/processes.js';
import { startLocalCluster, type LocalCluster } from '../redis/local-cluster.js';
import { dropBenchData, log, row, startBenchStack, type Row, type SectionResult, cpuSeconds } from './common.js';
import { flood } from './flood.js';
import { keepAliveAgent } from './http-lite.js';
import { parallelTurns } from './pipeline.js';

/**
 * (f) The interview pipeline on local Redis Clusters (redis-server in cluster
 * mode on loopback ports): answer-turn throughput with 1 and 3 shards, and
 * with the interviewer's and reviewer's queues in 1 and 3 partitions; then a
 * flood on 3 shards × 3 partitions, counting each shard's commands
 * (INFO commandstats) to see whether the load spreads.
 *
 * From the same runs, a model for many machines: the Redis commands one turn
 * costs, what one shard serves per second of its own CPU, and the service
 * processes' CPU per turn. Every figure in it is measured here; only the
 * arithmetic extends it.
 */
export type ClusterOptions = {
  inFlight: number;
  perLane: number;
  fields: number;
  flood: { seconds: number; factor: number; sessions: number; backlog: number };
};

/** Per shard: commands run (those inside Lua scripts included) by name, and CPU; the services' CPU. */
type Counters = { byCommand: Array<Map<string, number>>; redisCpu: number[]; serviceCpu: number };

const totalOf = (counts: ReadonlyMap<string, number>) => [...counts.values()].reduce((a, b) => a + b, 0);
const commandsOf = (counters: Counters) => counters.byCommand.map(totalOf);

/** Commands a node has run so far, by name (INFO commandstats). */
async function commandsProcessed(address: string): Promise<Map<string, number>> {
  const client = new Redis(`redis://${address}`, { maxRetriesPerRequest: 1 });
  try {
    const byCommand = new Map<string, number>();
    for (const match of (await client.info('commandstats')).matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm))
      byCommand.set(match[1]!, Number(match[2]));
    return byCommand;
  } finally {
    client.disconnect();
  }
}

async function sample(cluster: LocalCluster, stack: Stack): Promise<Counters> {
  const addresses = cluster.nodes.split(',');
  return {
    byCommand: await Promise.all(addresses.map(commandsProcessed)),
    redisCpu: cluster.servers.map((server) => cpuSeconds(server.child.pid!)),
    serviceCpu: Object.values(stack.procs).reduce((sum, proc) => sum + (proc ? cpuSeconds(proc.pid) : 0), 0),
  };
}

function delta(before: Counters, after: Counters): Counters {
  return {
    byCommand: after.byCommand.map(
      (counts, i) => new Map([...counts].map(([name, calls]) => [name, calls - (before.byCommand[i]!.get(name) ?? 0)])),
    ),
    redisCpu: after.redisCpu.map((c, i) => c - before.redisCpu[i]!),
    serviceCpu: after.serviceCpu - before.serviceCpu,
  };
}

/** A measurement window over a stack on a cluster: counters at start and end. */
function windowOver(cluster: LocalCluster, stack: () => Stack) {
  let before: Counters | null = null;
  let result: Counters | null = null;
  return {
    start: async () => {
      before = await sample(cluster, stack());
    },
    end: async () => {
      result = delta(before!, await sample(cluster, stack()));
    },
    get counters(): Counters {
      if (!result) throw new Error('window not closed');
      return result;
    },
  };
}

const partitionEnv = (partitions: number) => ({ INTERVIEWER_PARTITIONS: String(partitions), REVIEWER_PARTITIONS: String(partitions) });

async function throughputOn(cluster: LocalCluster, partitions: number, options: ClusterOptions) {
  const target = { clusterNodes: cluster.nodes };
  const { stack, keyPrefix, queuePrefix } = await startBenchStack(target, 'cluster', partitionEnv(partitions));
  const agent = keepAliveAgent();
  try {
    const window = windowOver(cluster, () => stack);
    const run = await parallelTurns(agent, stack.url, { ...options, window });
    return { ...run, counters: window.counters };
  } finally {
    agent.destroy();
    await stack.stop();
    await dropBenchData(target, [keyPrefix, queuePrefix]);
  }
}

const share = (commands: readonly number[]) => {
  const total = commands.reduce((a, b) => a + b, 0);
  return commands.map((c) => c / total);
};
const pctList = (xs: readonly number[]) => xs.map((x) => `${(x * 100).toFixed(0)}%`).join(' / ');

export async function clusterScaling(options: ClusterOptions): Promise<SectionResult> {
  const rows: Row[] = [];
  const details: string[] = [];
  const runs: Array<{ shards: number; partitions: number; throughput: number; counters: Counters; turns: number }> = [];
  for (const shards of [1, 3]) {
    const cluster = await startLocalCluster({ masters: shards });
    try {
      for (const partitions of shards === 1 ? [1] : [1, 3]) {
        log(`cluster: ${shards} shard(s), ${partitions} partition(s) per queue, ${options.inFlight} sessions in parallel`);
        const run = await throughputOn(cluster, partitions, options);
        runs.push({ shards, partitions, throughput: run.throughput, counters: run.counters, turns: run.loaded.length });
        rows.push(row(`cluster ${shards} shard(s) × ${partitions} partition(s): answer turns/s`, `${run.throughput.toFixed(0)} turns/s`));
        details.push(
          `${shards} shard(s) × ${partitions} partition(s): ${run.throughput.toFixed(0)} turns/s over ${run.loaded.length} turns; commands per shard ${pctList(share(commandsOf(run.counters)))}; ` +
            `shard CPU ${run.counters.redisCpu.map((c) => `${c.toFixed(1)} s`).join(' / ')}; service processes CPU ${run.counters.serviceCpu.toFixed(1)} s`,
        );
      }
      if (shards === 3) {
        const base = runs.at(-1)!.throughput;
        log(`cluster: flood on 3 shards × 3 partitions at ${(base * options.flood.factor).toFixed(0)} POST/s`);
        let stack: Stack | null = null;
        const window = windowOver(cluster, () => stack!);
        const flooded = await flood(
          { clusterNodes: cluster.nodes },
          {
            seconds: options.flood.seconds,
            factor: options.flood.factor,
            baseRate: base,
            baseRateSource: 'the 3 shards × 3 partitions throughput just measured',
            sessions: options.flood.sessions,
            backlog: options.flood.backlog,
            fields: 40,
            drainSeconds: 120,
            warmConnections: 256,
            env: partitionEnv(3),
            label: 'cluster',
            onStack: (started) => {
              stack = started;
            },
            window,
          },
        );
        rows.push(...flooded.rows.filter((r) => /lost|worst second|accepted \/ shed/.test(r.what)));
        const shares = share(commandsOf(window.counters));
        const busiest = Math.max(...shares);
        details.push(
          `flood window, each shard's top commands: ${window.counters.byCommand
            .map(
              (counts, i) =>
                `shard ${i + 1}: ${[...counts]
                  .sort((a, b) => b[1] - a[1])
                  .slice(0, 5)
                  .map(([name, calls]) => `${name} ${calls}`)
                  .join(', ')}`,
            )
            .join('; ')}`,
        );
        rows.push(
          row(
            'cluster flood: commands on the busiest shard',
            `${(busiest * 100).toFixed(0)}% (${pctList(shares)})`,
            '≤ 50%',
            busiest <= 0.5,
          ),
        );
      }
    } finally {
      await cluster.stop();
    }
  }
  const model = modelFrom(runs.find((r) => r.shards === 3 && r.partitions === 3));
  if (model) {
    rows.push(row('cluster model: Redis commands per answer turn', model.commandsPerTurn.toFixed(0)));
    rows.push(row('cluster model: commands/s per shard per CPU second', model.opsPerShardCore.toFixed(0)));
    rows.push(row('cluster model: service CPU per answer turn', `${(model.serviceCpuPerTurn * 1000).toFixed(1)} ms`));
    details.push(...model.lines);
  }
  return { rows, details };
}

/**
 * Turns/s a deployment could serve, from the 3-shard run: a shard saturates at
 * `opsPerShardCore` commands/s (one core), the busiest shard takes `imbalance`
 * times its fair share, and each turn needs `serviceCpuPerTurn` of gateway and
 * worker CPU, which scales out with processes.
 */
function modelFrom(run: { shards: number; counters: Counters; turns: number } | undefined) {
  if (!run) return null;
  const commands = commandsOf(run.counters).reduce((a, b) => a + b, 0);
  const redisCpu = run.counters.redisCpu.reduce((a, b) => a + b, 0);
  if (commands === 0 || redisCpu === 0 || run.turns === 0) return null;
  const commandsPerTurn = commands / run.turns;
  const opsPerShardCore = commands / redisCpu;
  const imbalance = Math.max(...share(commandsOf(run.counters))) * run.shards;
  const serviceCpuPerTurn = run.counters.serviceCpu / run.turns;
  const turnsPerShard = opsPerShardCore / commandsPerTurn / imbalance;
  const lines = [
    `model (3 shards × 3 partitions run): ${commandsPerTurn.toFixed(0)} Redis commands per answer turn; a shard serves ${opsPerShardCore.toFixed(0)} commands per CPU second; ` +
      `busiest shard ${imbalance.toFixed(2)}× its fair share; ${(serviceCpuPerTurn * 1000).toFixed(1)} ms of gateway + worker CPU per turn`,
    `→ each shard (one core) carries about ${turnsPerShard.toFixed(0)} answer turns/s, and each service core about ${(1 / serviceCpuPerTurn).toFixed(0)}: ` +
      [3, 12, 48]
        .map(
          (shards) =>
            `${shards} shards ≈ ${(turnsPerShard * shards).toFixed(0)} turns/s with ≈ ${Math.ceil(turnsPerShard * shards * serviceCpuPerTurn)} service cores`,
        )
        .join('; '),
  ];
  return { commandsPerTurn, opsPerShardCore, serviceCpuPerTurn, lines };
}
