import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dropBenchData, log, p50p99, pct, row, type Row, type SectionResult, startBenchStack } from './common.js';
import { keepAliveAgent } from './http-lite.js';
import { parallelTurns, sequentialTurns } from './pipeline.js';

/**
 * (g) What tracing costs a turn: the same answer turns with tracing off and
 * on (every process exporting OTLP/HTTP protobuf, the default, to a receiver
 * in this process that counts and drops), each on a fresh stack; sequential
 * latency, then `inFlight` sessions in parallel.
 */
export type TracingCostOptions = { turns: number; inFlight: number; perLane: number; fields: number };

type Run = { seq: number[]; loaded: number[]; throughput: number; failed: number };

/** An OTLP receiver that answers 200 to every export and counts requests and bytes. */
async function sink(): Promise<{ url: string; requests: () => number; bytes: () => number; close: () => Promise<void> }> {
  let requests = 0;
  let bytes = 0;
  const server: Server = createServer((req, res) => {
    req.on('data', (chunk: Buffer) => (bytes += chunk.length));
    req.on('end', () => {
      requests++;
      res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests: () => requests,
    bytes: () => bytes,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

async function run(redisUrl: string, env: Record<string, string>, options: TracingCostOptions): Promise<Run> {
  const { stack, keyPrefix, queuePrefix } = await startBenchStack(redisUrl, 'trace', env);
  const agent = keepAliveAgent();
  try {
    const { seq, failed } = await sequentialTurns(agent, stack.url, options);
    const parallel = await parallelTurns(agent, stack.url, options);
    return { seq, loaded: parallel.loaded, throughput: parallel.throughput, failed: failed + parallel.failed };
  } finally {
    agent.destroy();
    await stack.stop();
    await dropBenchData(redisUrl, [keyPrefix, queuePrefix]);
  }
}

export async function tracingCost(redisUrl: string, options: TracingCostOptions): Promise<SectionResult> {
  const receiver = await sink();
  try {
    log(`tracing: ${options.turns} sequential turns and ${options.inFlight} × ${options.perLane} in parallel, tracing off`);
    const off = await run(redisUrl, {}, options);
    log('tracing: the same with every process exporting spans (OTLP/HTTP protobuf)');
    const on = await run(redisUrl, { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_BSP_SCHEDULE_DELAY: '1000' }, options);
    const turns = on.seq.length + on.loaded.length;
    const rows: Row[] = [
      row('tracing off: turn, 1 in flight', p50p99(off.seq)),
      row('tracing on: turn, 1 in flight', p50p99(on.seq)),
      row('tracing on / off p50, 1 in flight', `${(pct(on.seq, 50) / pct(off.seq, 50)).toFixed(2)}×`),
      row(`tracing off: ${options.inFlight} in flight`, `${p50p99(off.loaded)}; ${off.throughput.toFixed(0)} turns/s`),
      row(`tracing on: ${options.inFlight} in flight`, `${p50p99(on.loaded)}; ${on.throughput.toFixed(0)} turns/s`),
      row('tracing on / off throughput', `${((on.throughput / off.throughput) * 100).toFixed(1)}%`),
    ];
    return {
      rows,
      details: [
        `stacks of gateway, greeter, architect, interviewer and reviewer; ${options.fields}-field forms; tracing on: OTEL_EXPORTER_OTLP_ENDPOINT to a receiver in the bench process, OTEL_BSP_SCHEDULE_DELAY=1000, sampler parentbased_always_on (every turn traced)`,
        `exported while on: ${receiver.requests()} OTLP requests, ${(receiver.bytes() / 1024).toFixed(0)} KB, about ${(receiver.bytes() / Math.max(1, turns)).toFixed(0)} bytes per measured turn (warm-up and session set-up included)`,
        ...(off.failed + on.failed > 0 ? [`turns that ended in turn.failed: off ${off.failed}, on ${on.failed}`] : []),
      ],
    };
  } finally {
    await receiver.close();
  }
}
