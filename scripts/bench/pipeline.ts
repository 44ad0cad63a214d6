import { performance } from 'node:perf_hooks';
import type { Agent } from 'node:http';
import { describeBreakdown, snapshot } from './breakdown.js';
import {
  benchForm,
  type CpuPerUnit,
  cpuWindow,
  dropBenchData,
  startBenchStack,
  type BenchTarget,
  log,
  type MeasureWindow,
  sleep,
} from './common.js';
import { createSession, eventsUrl, http, json, keepAliveAgent, turnsUrl, type Session } from './http-lite.js';
import { LiteSse, TurnWaiter } from './sse-lite.js';

/**
 * One interview answer turn through the whole pipeline: POST /turns →
 * gateway → interviewer → reviewer → interviewer → turn.completed on the
 * session's SSE stream, offline model, every service its own process.
 * Sequential latency over realistic sessions (20-field forms answered field
 * by field), then throughput with `inFlight` sessions in parallel.
 */
export type PipelineOptions = { turns: number; inFlight: number; perLane: number; fields: number };
export type PipelineResult = {
  seq: number[];
  loaded: number[];
  throughput: number;
  failed: number;
  breakdown: string[];
  /** CPU per turn over the parallel turns: every service process, Redis, and this bench (HTTP and SSE clients). */
  cpu: CpuPerUnit;
};

/** Workers publish their metrics this often, so the breakdown phase can read them soon after. */
const PUSH_MS = 1_000;

export const ANSWER = 'I would describe it in a few honest words';

/** A form session with its stream open and its greeting (and the location turn) done. */
export type OpenSession = Session & { sse: LiteSse; waiter: TurnWaiter };

export async function openFormSession(
  agent: Agent,
  base: string,
  fields: number,
  firstTurn: string | null,
  timeoutMs = 60_000,
): Promise<OpenSession> {
  const session = await createSession(agent, base, { kind: 'form', form: benchForm(fields), options: { language: 'en' } });
  const waiter = new TurnWaiter();
  const sse = await LiteSse.open(eventsUrl(base, session), { agent, onTurnEnd: waiter.onEnd });
  if (sse.status !== 200) throw new Error(`events: ${sse.status} ${sse.error ?? ''}`);
  await waiter.waitEnds(1, timeoutMs);
  const open = { ...session, sse, waiter };
  if (firstTurn !== null) await timedTurn(agent, base, open, firstTurn, timeoutMs);
  return open;
}

/** POST one turn and wait for its end on the stream; the time from POST to the end event. */
export async function timedTurn(
  agent: Agent,
  base: string,
  session: OpenSession,
  message: string,
  timeoutMs = 30_000,
): Promise<{ ms: number; failed: boolean }> {
  const t0 = performance.now();
  const response = await http(agent, turnsUrl(base, session), { method: 'POST', token: session.token, body: { message } });
  const turnId = json(response).turnId;
  if (response.status !== 202 || typeof turnId !== 'string')
    throw new Error(`turn: ${response.status} ${response.error ?? response.text.slice(0, 200)}`);
  const failed = await session.waiter.waitTurn(turnId, timeoutMs);
  return { ms: performance.now() - t0, failed };
}

/**
 * `inFlight` sessions answering `perLane` turns each, all at once: every turn's time and the
 * turns per second. `window` brackets the timed part (per-shard command counts, CPU).
 */
export async function parallelTurns(
  agent: Agent,
  base: string,
  options: { inFlight: number; perLane: number; fields: number; window?: MeasureWindow },
): Promise<{ loaded: number[]; throughput: number; failed: number }> {
  const sessions = await Promise.all(
    Array.from({ length: options.inFlight }, () =>
      openFormSession(agent, base, Math.max(options.fields, options.perLane) + 2, 'I live in Tokyo, Japan'),
    ),
  );
  const loaded: number[] = [];
  let failed = 0;
  await options.window?.start();
  const t0 = performance.now();
  await Promise.all(
    sessions.map(async (session) => {
      for (let i = 0; i < options.perLane; i++) {
        const result = await timedTurn(agent, base, session, ANSWER);
        if (result.failed) failed++;
        loaded.push(result.ms);
      }
    }),
  );
  const throughput = loaded.length / ((performance.now() - t0) / 1000);
  await options.window?.end();
  sessions.forEach((s) => s.sse.close());
  return { loaded, throughput, failed };
}

/**
 * After a warm-up (JIT and connections of every process: 10 turns of one
 * session), `turns` answer turns one at a time, over fresh `fields`-field
 * sessions answered field by field. `failed` counts warm-up turns too.
 */
export async function sequentialTurns(
  agent: Agent,
  base: string,
  options: { turns: number; fields: number },
): Promise<{ seq: number[]; failed: number }> {
  let failed = 0;
  const turn = async (session: OpenSession) => {
    const result = await timedTurn(agent, base, session, ANSWER);
    if (result.failed) failed++;
    return result.ms;
  };
  const open = () => openFormSession(agent, base, options.fields, 'I live in Tokyo, Japan');
  const warm = await open();
  for (let i = 0; i < 10; i++) await turn(warm);
  warm.sse.close();
  const seq: number[] = [];
  while (seq.length < options.turns) {
    const one = await open();
    for (let i = 0; i < options.fields - 1 && seq.length < options.turns; i++) seq.push(await turn(one));
    one.sse.close();
  }
  return { seq, failed };
}

export async function pipeline(target: BenchTarget, options: PipelineOptions): Promise<PipelineResult> {
  const { stack, keyPrefix, queuePrefix } = await startBenchStack(target, 'pipe', { METRICS_PUSH_MS: String(PUSH_MS) });
  const agent = keepAliveAgent();
  const base = stack.url;
  try {
    log(`pipeline: ${options.turns} sequential answer turns`);
    const sequential = await sequentialTurns(agent, base, options);
    const seq = sequential.seq;
    let failed = sequential.failed;
    const turn = async (session: OpenSession) => {
      const result = await timedTurn(agent, base, session, ANSWER);
      if (result.failed) failed++;
      return result.ms;
    };
    const open = (fields: number) => openFormSession(agent, base, fields, 'I live in Tokyo, Japan');
    // Breakdown: one more session's answer turns alone between two scrapes of the services' metrics.
    log("pipeline: breakdown of one session's answer turns from the services' metrics");
    const probe = await open(options.fields);
    await sleep(PUSH_MS * 2.5);
    const before = await snapshot(agent, base);
    const probeMs: number[] = [];
    for (let i = 0; i < options.fields - 1; i++) probeMs.push(await turn(probe));
    probe.sse.close();
    await sleep(PUSH_MS * 2.5);
    const breakdown = describeBreakdown(
      before,
      await snapshot(agent, base),
      probeMs.length,
      probeMs.reduce((a, b) => a + b, 0) / probeMs.length,
    );
    log(`pipeline: ${options.inFlight} sessions in parallel × ${options.perLane} turns`);
    const cpu = cpuWindow(typeof target === 'string' ? target : null, () =>
      Object.fromEntries(Object.entries(stack.procs).flatMap(([name, proc]) => (proc ? [[name, proc.pid]] : []))),
    );
    const parallel = await parallelTurns(agent, base, { ...options, window: cpu });
    failed += parallel.failed;
    return { seq, loaded: parallel.loaded, throughput: parallel.throughput, failed, breakdown, cpu: cpu.perUnit(parallel.loaded.length) };
  } finally {
    agent.destroy();
    await stack.stop();
    await dropBenchData(target, [keyPrefix, queuePrefix]);
  }
}
