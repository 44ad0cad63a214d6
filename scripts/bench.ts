import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { Api } from '../test/support/api.js';
import { startStack } from '../test/support/processes.js';
import { SseRecorder } from '../test/support/sse.js';
import { REPO_ROOT } from '../test/support/processes.js';
import { ensureRedis } from './ensure-redis.js';

/**
 * `npm run bench`: the time of one interview turn through the whole pipeline
 * (HTTP POST → gateway → interviewer → reviewer → interviewer → SSE
 * turn.completed, offline model) next to a bare BullMQ chain with the same
 * three hops, on the same Redis and machine. Prints numbers; asserts nothing.
 */
const TURNS = Number(process.env.BENCH_TURNS ?? 200);
const PARALLEL_SESSIONS = Number(process.env.BENCH_SESSIONS ?? 20);
const HOPS = 3;
const FIELDS = 20;

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
}
const fmt = (n: number) => n.toFixed(2).padStart(8);

async function bareChain(url: string): Promise<{ lat: number[]; single: number[]; throughput: number }> {
  const prefix = `{bench-${randomUUID().slice(0, 6)}}`;
  const connection = new Redis(url, { maxRetriesPerRequest: null });
  const names = Array.from({ length: HOPS }, (_, i) => `hop-${i}`);
  const queues = names.map((n) => new Queue(n, { connection, prefix }));
  const done = new Map<string, () => void>();
  const workers = names.map(
    (n, i) =>
      new Worker(
        n,
        async (job) => {
          const next = queues[i + 1];
          if (next) await next.add('hop', job.data, { jobId: `${job.data.id}-${i + 1}`, removeOnComplete: true });
          else done.get(job.data.id as string)?.();
        },
        { connection: new Redis(url, { maxRetriesPerRequest: null }), prefix, concurrency: 50 },
      ),
  );
  await Promise.all(workers.map((w) => w.waitUntilReady()));
  const run = async (hops: number) => {
    const id = randomUUID();
    const t0 = performance.now();
    await new Promise<void>((resolve) => {
      done.set(id, resolve);
      void queues[HOPS - hops]!.add('hop', { id }, { jobId: `${id}-0`, removeOnComplete: true });
    });
    done.delete(id);
    return performance.now() - t0;
  };
  for (let i = 0; i < 20; i++) await run(HOPS); // warm-up
  const lat: number[] = [];
  for (let i = 0; i < TURNS; i++) lat.push(await run(HOPS));
  const single: number[] = [];
  for (let i = 0; i < TURNS; i++) single.push(await run(1));
  const n = PARALLEL_SESSIONS * 20;
  const t0 = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: PARALLEL_SESSIONS }, async () => {
      while (next++ < n) await run(HOPS);
    }),
  );
  const throughput = n / ((performance.now() - t0) / 1000);
  await Promise.all(workers.map((w) => w.close()));
  await Promise.all(queues.map((q) => q.obliterate({ force: true }).then(() => q.close())));
  connection.disconnect();
  return { lat, single, throughput };
}

function benchForm(fields: number) {
  return {
    title: 'bench',
    fields: Array.from({ length: fields }, (_, i) => ({
      id: `f${i}`,
      fieldId: `field_${i}`,
      label: `Question ${i}`,
      intent: 'Collect a short description',
      required: true,
      sortOrder: i,
    })),
    facts: [],
  };
}

async function pipeline(url: string): Promise<{ lat: number[]; throughput: number }> {
  const id = randomUUID().slice(0, 6);
  const stack = await startStack({ env: { REDIS_URL: url, KEY_PREFIX: `bench-${id}`, QUEUE_PREFIX: `{bench-${id}}`, LOG_LEVEL: 'info' } });
  try {
    const api = new Api(stack.url);
    const open = async (fields: number) => {
      const s = await api.createSession(benchForm(fields), 'form', { language: 'en' });
      const sse = await SseRecorder.open(api.eventsUrl(s.sessionId, s.token));
      await sse.waitTurns(1);
      const turn = async (text: string) => {
        const t0 = performance.now();
        const r = await api.turn(s.sessionId, s.token, text);
        const turnId = String(r.json.turnId);
        await sse.waitFor((evs) => evs.some((e) => e.type === 'turn.completed' && e.data.turnId === turnId), 30_000);
        return performance.now() - t0;
      };
      await turn('I live in Tokyo, Japan');
      return { turn, close: () => sse.close() };
    };
    const answer = 'I would describe it in a few honest words';
    // Sessions of a realistic size: a 20-field form answered field by field, then the next session.
    const warm = await open(FIELDS);
    for (let i = 0; i < 10; i++) await warm.turn(answer);
    warm.close();
    const lat: number[] = [];
    while (lat.length < TURNS) {
      const one = await open(FIELDS);
      for (let i = 0; i < FIELDS - 1 && lat.length < TURNS; i++) lat.push(await one.turn(answer));
      one.close();
    }
    const sessions = await Promise.all(Array.from({ length: PARALLEL_SESSIONS }, () => open(FIELDS + 2)));
    const t0 = performance.now();
    await Promise.all(sessions.map(async (s) => {
      for (let i = 0; i < 20; i++) await s.turn(answer);
    }));
    const throughput = (PARALLEL_SESSIONS * 20) / ((performance.now() - t0) / 1000);
    sessions.forEach((s) => s.close());
    return { lat, throughput };
  } finally {
    await stack.stop();
  }
}

async function main() {
  const redis = await ensureRedis({ repoRoot: REPO_ROOT, log: (m) => console.log(m) });
  const url = redis.url;
  const ping = new Redis(url);
  const pings: number[] = [];
  for (let i = 0; i < 200; i++) {
    const t0 = performance.now();
    await ping.ping();
    pings.push(performance.now() - t0);
  }
  ping.disconnect();
  const bare = await bareChain(url);
  const pipe = await pipeline(url);
  const rows: Array<[string, number, number, string]> = [
    ['Redis PING', pct(pings, 50), pct(pings, 99), ''],
    ['bare BullMQ job, 1 hop', pct(bare.single, 50), pct(bare.single, 99), ''],
    [`bare BullMQ chain, ${HOPS} hops`, pct(bare.lat, 50), pct(bare.lat, 99), `${bare.throughput.toFixed(0)} chains/s`],
    ['interview turn (HTTP→SSE, offline)', pct(pipe.lat, 50), pct(pipe.lat, 99), `${pipe.throughput.toFixed(0)} turns/s`],
  ];
  console.log(`\nturn = POST /turns → interviewer → reviewer → interviewer → turn.completed on SSE (${HOPS} queue hops)`);
  console.log(`sequential: ${TURNS} answer turns over ${FIELDS}-field forms; throughput: ${PARALLEL_SESSIONS} sessions in parallel\n`);
  console.log(`${'what'.padEnd(38)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)}  throughput`);
  for (const [what, p50, p99, tp] of rows) console.log(`${what.padEnd(38)} ${fmt(p50)} ${fmt(p99)}  ${tp}`);
  console.log(`\npipeline/bare chain p50 ratio: ${(pct(pipe.lat, 50) / pct(bare.lat, 50)).toFixed(2)}x`);
  await redis.stop();
  process.exit(0);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
