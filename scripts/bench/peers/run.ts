/**
 * One peer runtime running the bench's three-step turn (section h of `npm run bench`, peers.ts):
 * every step durable before the next runs, trivial work in each (the pipeline's steps run its
 * real agents). Started by the bench as its own process (so its CPU is its own), with the
 * peer's server already running; prints one JSON line of results.
 *
 * - dbos: a DBOS workflow of three steps (DBOS.runStep), called in this process; DBOS records each
 *   step's result in Postgres before the next.
 * - langgraph: a LangGraph.js graph of three nodes, invoked in this process, with the Postgres
 *   checkpointer (a checkpoint after each node), one thread per session.
 * - restate-object: a Restate virtual object keyed by session (one turn of a session at a time, as
 *   here) whose handler runs three `ctx.run` steps; the server journals each before the next. The
 *   SDK's endpoint runs in this process; a turn is an HTTP call to the server's ingress.
 * - restate-services: the same turn with one Restate service per agent: the object calls three
 *   services, one durable call each (the shape of this project's agents as separate services).
 *
 * Run with tsx from this folder's node_modules (the bench installs them): not part of the
 * project's type check, which does not install the peers.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';

type Options = {
  peer: 'dbos' | 'langgraph' | 'restate-object' | 'restate-services';
  turns: number;
  inFlight: number;
  perLane: number;
  postgresUrl?: string;
  /** Restate: the server's ingress and admin URLs, and the port this process serves its handlers on. */
  restate?: { ingress: string; admin: string; endpointPort: number };
  /** Processes whose CPU counts with this one's (the peer's servers). */
  serverPids: number[];
};

type Turn = (session: string, input: number) => Promise<number>;

const options = JSON.parse(process.argv[2]!) as Options;

async function dbos(): Promise<{ turn: Turn; close(): Promise<void> }> {
  const { DBOS } = await import('@dbos-inc/dbos-sdk');
  DBOS.setConfig({ name: 'bench', systemDatabaseUrl: options.postgresUrl!, logLevel: 'error' });
  const plusOne = (n: number) => Promise.resolve(n + 1);
  const workflow = DBOS.registerWorkflow(
    async (input: number) => {
      const a = await DBOS.runStep(() => plusOne(input), { name: 'step1' });
      const b = await DBOS.runStep(() => plusOne(a), { name: 'step2' });
      return DBOS.runStep(() => plusOne(b), { name: 'step3' });
    },
    { name: 'turn' },
  );
  await DBOS.launch();
  return {
    turn: (_session, input) => workflow(input),
    close: () => DBOS.shutdown(),
  };
}

async function langgraph(): Promise<{ turn: Turn; close(): Promise<void> }> {
  const { Annotation, END, START, StateGraph } = await import('@langchain/langgraph');
  const { PostgresSaver } = await import('@langchain/langgraph-checkpoint-postgres');
  const State = Annotation.Root({ v: Annotation<number> });
  const checkpointer = PostgresSaver.fromConnString(options.postgresUrl!);
  await checkpointer.setup();
  const graph = new StateGraph(State)
    .addNode('step1', (s: { v: number }) => ({ v: s.v + 1 }))
    .addNode('step2', (s: { v: number }) => ({ v: s.v + 1 }))
    .addNode('step3', (s: { v: number }) => ({ v: s.v + 1 }))
    .addEdge(START, 'step1')
    .addEdge('step1', 'step2')
    .addEdge('step2', 'step3')
    .addEdge('step3', END)
    .compile({ checkpointer });
  return {
    turn: async (session, input) => ((await graph.invoke({ v: input }, { configurable: { thread_id: session } })) as { v: number }).v,
    close: () => checkpointer.end(),
  };
}

async function restate(perAgent: boolean): Promise<{ turn: Turn; close(): Promise<void> }> {
  // The SDK (1.17) calls Promise.withResolvers, which Node has from 22 on; the project runs on 20.
  (Promise as unknown as { withResolvers?: unknown }).withResolvers ??= function withResolvers<T>() {
    let resolve!: (value: T) => void;
    let reject!: (reason: unknown) => void;
    const promise = new Promise<T>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    return { promise, resolve, reject };
  };
  // Read when the SDK loads: its per-invocation INFO lines would cost CPU and fill this process's stdout.
  process.env.RESTATE_LOGGING ??= 'WARN';
  const sdk = await import('@restatedev/restate-sdk');
  const { ingress, admin, endpointPort } = options.restate!;
  const plusOne = (n: number) => Promise.resolve(n + 1);
  const agents = ['interviewer', 'reviewer', 'interviewer2'].map((name) =>
    sdk.service({
      name,
      handlers: {
        step: async (ctx: { run: (name: string, fn: () => Promise<number>) => Promise<number> }, n: number) =>
          ctx.run('work', () => plusOne(n)),
      },
    }),
  );
  type Ctx = {
    run: (name: string, fn: () => Promise<number>) => Promise<number>;
    serviceClient: (def: unknown) => { step: (n: number) => Promise<number> };
  };
  const session = sdk.object({
    name: 'session',
    handlers: {
      turn: async (ctx: Ctx, input: number) => {
        if (!perAgent) {
          const a = await ctx.run('step1', () => plusOne(input));
          const b = await ctx.run('step2', () => plusOne(a));
          return ctx.run('step3', () => plusOne(b));
        }
        let value = input;
        for (const agent of agents) value = await ctx.serviceClient(agent).step(value);
        return value;
      },
    },
  });
  await sdk.serve({ services: [session, ...agents], port: endpointPort });
  const registered = await fetch(`${admin}/deployments`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ uri: `http://127.0.0.1:${endpointPort}`, force: true }),
  });
  if (!registered.ok) throw new Error(`restate: registering the deployment answered ${registered.status}: ${await registered.text()}`);
  return {
    turn: async (key, input) => {
      const res = await fetch(`${ingress}/session/${key}/turn`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(input),
      });
      if (!res.ok) throw new Error(`restate: a turn answered ${res.status}: ${await res.text()}`);
      return (await res.json()) as number;
    },
    // The endpoint's HTTP/2 server ends with this process.
    close: async () => undefined,
  };
}

/** CPU seconds a process has used (Linux /proc), 0 where it is gone. */
function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/** The processes' CPU with their children's (a Postgres server's backends), this one included. */
function cpuNow(): number {
  const own = process.cpuUsage();
  const children = (pid: number): number[] => {
    try {
      return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
    } catch {
      return [];
    }
  };
  const servers = options.serverPids.flatMap((pid) => [pid, ...children(pid)]);
  return (own.user + own.system) / 1e6 + servers.reduce((sum, pid) => sum + cpuSeconds(pid), 0);
}

const starts = {
  dbos,
  langgraph,
  'restate-object': () => restate(false),
  'restate-services': () => restate(true),
};
const peer = await starts[options.peer]();
// Warm-up: JIT, connections, the first rows of every table.
try {
  const warm = randomUUID();
  for (let i = 0; i < 20; i++) await peer.turn(warm, i);
  const time = async (session: string, input: number) => {
    const t0 = performance.now();
    const out = await peer.turn(session, input);
    if (out !== input + 3) throw new Error(`${options.peer}: a turn returned ${out} for ${input}`);
    return performance.now() - t0;
  };
  const seq: number[] = [];
  const one = randomUUID();
  for (let i = 0; i < options.turns; i++) seq.push(await time(one, i));
  const loaded: number[] = [];
  const cpu0 = cpuNow();
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: options.inFlight }, async () => {
      const session = randomUUID();
      for (let i = 0; i < options.perLane; i++) loaded.push(await time(session, i));
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  const cpuMsPerTurn = ((cpuNow() - cpu0) * 1000) / loaded.length;
  process.stdout.write(`${JSON.stringify({ seq, loaded, throughput: loaded.length / seconds, cpuMsPerTurn })}\n`);
} finally {
  await peer.close();
}
process.exit(0);
