import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '../../test/support/processes.js';
import type { BareResult } from './bare-chain.js';
import { log, ms, pct, row, type Row, type SectionResult, sleep } from './common.js';
import type { PipelineResult } from './pipeline.js';

/**
 * (h) Peers: the bench's three-step turn on other durable-execution runtimes, beside this
 * project's turn and the bare BullMQ chain of section (a) (the same run, the same machine), as
 * ratios to the bare chain. Each peer runs in a process of its own (scripts/bench/peers/run.ts)
 * against a server the bench starts privately: DBOS and LangGraph.js (its Postgres checkpointer)
 * on a Postgres cluster made for the run, fsync on, and LangGraph again with fsync off; Restate
 * (its server binary from npm) with one virtual object per session, and with one service per
 * agent. Their
 * packages are installed into scripts/bench/peers/ on first use (its own lockfile), not by the
 * project's `npm install`.
 *
 * What is compared: a peer's steps are trivial (each adds one) and called in its process, with no
 * HTTP; this project's turn is an HTTP request answered on an SSE stream after its real agents ran
 * (the interviewer, the reviewer, the interviewer again). CPU per turn counts every process of a
 * side: the peer's process (its client included) and its database; here the services, Redis and
 * the bench's HTTP and SSE clients.
 */

const PEERS_DIR = join(REPO_ROOT, 'scripts', 'bench', 'peers');

export type PeerOptions = { turns: number; inFlight: number; perLane: number };
type PeerResult = { seq: number[]; loaded: number[]; throughput: number; cpuMsPerTurn: number };

export async function peers(options: PeerOptions, bare: BareResult | null, pipe: PipelineResult | null): Promise<SectionResult> {
  const rows: Row[] = [];
  const details: string[] = [];
  installPeers();
  const results: Array<[string, PeerResult]> = [];
  for (const [label, peer] of [
    ['Restate, one object per session', 'restate-object'],
    ['Restate, one service per agent', 'restate-services'],
  ] as const) {
    log(`peers: ${label}`);
    const server = await startRestate();
    try {
      results.push([label, await runPeer({ peer, ...options, restate: server.urls, serverPids: [server.pid] })]);
    } finally {
      await server.stop();
    }
  }
  const postgres = which('initdb') && which('postgres');
  if (!postgres) details.push('DBOS and LangGraph.js skipped: no PostgreSQL server binaries (initdb, postgres) on PATH');
  for (const fsync of postgres ? [true, false] : []) {
    const pg = await startPostgres(fsync);
    try {
      const runs: Array<[string, string]> = fsync
        ? [
            ['DBOS (Postgres, fsync on)', 'dbos'],
            ['LangGraph.js + PostgresSaver (fsync on)', 'langgraph'],
          ]
        : [['LangGraph.js + PostgresSaver (fsync off)', 'langgraph']];
      for (const [label, peer] of runs) {
        log(`peers: ${label}`);
        const database = `bench_${peer}`;
        pg.createDatabase(database);
        results.push([label, await runPeer({ peer, ...options, postgresUrl: pg.url(database), serverPids: [pg.pid] })]);
      }
    } finally {
      await pg.stop();
    }
  }
  const ratio = (value: number, of: number | null) => (of ? ` (${(value / of).toFixed(1)}×)` : '');
  const share = (value: number, of: number | null) => (of ? ` (${((100 * value) / of).toFixed(0)}%)` : '');
  const bareP50 = bare ? pct(bare.seq, 50) : null;
  const bareTp = bare ? bare.throughput : null;
  const line = (label: string, seq: readonly number[], throughput: number, cpu: number) =>
    row(
      `peers: ${label}`,
      `p50 ${ms(pct(seq, 50))}${ratio(pct(seq, 50), bareP50)}; ${throughput.toFixed(0)} turns/s${share(throughput, bareTp)}; CPU ${ms(cpu)} per turn`,
    );
  if (bare) rows.push(line('bare BullMQ chain', bare.seq, bare.throughput, bare.cpu.services + bare.cpu.redis));
  if (pipe)
    rows.push(line('this project (HTTP → agents → SSE)', pipe.seq, pipe.throughput, pipe.cpu.services + pipe.cpu.redis + pipe.cpu.client));
  for (const [label, result] of results) rows.push(line(label, result.seq, result.throughput, result.cpuMsPerTurn));
  details.push(
    `each peer: ${options.turns} sequential turns after 20 warm-up turns, then ${options.inFlight} sessions × ${options.perLane} turns at once; ` +
      `p50 at 1 in flight (× the bare chain's), turns/s at ${options.inFlight} in flight (% of the bare chain's), CPU per turn of every process of that side`,
    'Restate: restate-server 1.7.12 with its defaults (one node, its own log and RocksDB), @restatedev/restate-sdk 1.17.2 serving in the peer process over HTTP/2; a turn is an HTTP call to its ingress',
  );
  return { rows, details };
}

function which(command: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

/** The peers' packages, from their lockfile, once per checkout (again when a peer was added since). */
function installPeers(): void {
  const packages = ['@dbos-inc/dbos-sdk', '@langchain/langgraph', '@restatedev/restate-sdk', '@restatedev/restate-server'];
  if (packages.every((name) => existsSync(join(PEERS_DIR, 'node_modules', name)))) return;
  log('peers: installing their packages into scripts/bench/peers (npm ci, once)');
  execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: PEERS_DIR, stdio: 'inherit' });
}

type Postgres = { pid: number; url(database: string): string; createDatabase(name: string): void; stop(): Promise<void> };

/** A Postgres cluster of the run's own, in a temporary directory, on a free port (as the postgres user when run as root). */
async function startPostgres(fsync: boolean): Promise<Postgres> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-pg-'));
  const asRoot = userInfo().uid === 0;
  // initdb and postgres refuse to run as root.
  const run = (command: string, args: string[]) =>
    (asRoot ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args]) as [string, string[]];
  if (asRoot)
    chownSync(
      dir,
      Number(execFileSync('id', ['-u', 'postgres']).toString().trim()),
      Number(execFileSync('id', ['-g', 'postgres']).toString().trim()),
    );
  const data = join(dir, 'data');
  execFileSync(...run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']), { stdio: 'ignore' });
  const port = await freePort();
  const child: ChildProcess = spawn(
    ...run('postgres', [
      '-D',
      data,
      '-p',
      String(port),
      '-k',
      dir,
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      `fsync=${fsync ? 'on' : 'off'}`,
    ]),
    { stdio: 'ignore' },
  );
  const psql = (sql: string) =>
    spawnSync('psql', ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-d', 'postgres', '-c', sql], { stdio: 'ignore' })
      .status === 0;
  for (let i = 0; !psql('select 1'); i++) {
    if (i > 150) throw new Error(`postgres did not start on port ${port}`);
    await sleep(100);
  }
  // runuser stays the parent of the server: the server is its child, and its backends the server's.
  const pid = asRoot
    ? Number(
        execFileSync('pgrep', ['-P', String(child.pid)])
          .toString()
          .trim()
          .split('\n')[0],
      )
    : child.pid!;
  return {
    pid,
    url: (database) => `postgres://postgres@127.0.0.1:${port}/${database}`,
    createDatabase: (name) => {
      if (!psql(`create database ${name}`)) throw new Error(`postgres: could not create ${name}`);
    },
    stop: async () => {
      child.kill('SIGINT');
      process.kill(pid, 'SIGINT');
      await sleep(500);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

type Restate = { pid: number; urls: { ingress: string; admin: string; endpointPort: number }; stop(): Promise<void> };

/** A Restate server of the run's own: its binary from the peers' packages, a temporary base directory, free ports. */
async function startRestate(): Promise<Restate> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-restate-'));
  const [fabric, admin, ingress, endpointPort] = [await freePort(), await freePort(), await freePort(), await freePort()];
  const binary = join(
    PEERS_DIR,
    'node_modules',
    '@restatedev',
    `restate-server-${process.platform}-${process.arch}`,
    'bin',
    'restate-server',
  );
  const child = spawn(binary, [], {
    env: {
      ...process.env,
      RESTATE_BASE_DIR: dir,
      RESTATE_BIND_ADDRESS: `127.0.0.1:${fabric}`,
      RESTATE_ADMIN__BIND_ADDRESS: `127.0.0.1:${admin}`,
      RESTATE_INGRESS__BIND_ADDRESS: `127.0.0.1:${ingress}`,
      RESTATE_LOG_FILTER: 'error',
    },
    stdio: 'ignore',
  });
  const urls = { ingress: `http://127.0.0.1:${ingress}`, admin: `http://127.0.0.1:${admin}`, endpointPort };
  for (let i = 0; ; i++) {
    const up = await fetch(`${urls.admin}/health`).then(
      (res) => res.ok,
      () => false,
    );
    if (up) break;
    if (i > 300 || child.exitCode !== null) throw new Error(`restate-server did not start (admin port ${admin})`);
    await sleep(100);
  }
  return {
    pid: child.pid!,
    urls,
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((done) => (child.exitCode !== null ? done(null) : child.once('exit', done)));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Runs one peer in its own process (tsx, from the peers' folder) and reads its result line. */
function runPeer(config: Record<string, unknown>): Promise<PeerResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(REPO_ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'), 'run.ts', JSON.stringify(config)], {
      cwd: PEERS_DIR,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 300_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      const last = out.trim().split('\n').at(-1) ?? '';
      if (code !== 0 || !last.startsWith('{')) return reject(new Error(`peer ${String(config.peer)} exited ${code}: ${err.slice(-400)}`));
      resolve(JSON.parse(last) as PeerResult);
    });
  });
}
