import { spawn } from 'node:child_process';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClient } from '@convo/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UsageError } from '../../scripts/loadtest/errors.js';
import type { LoadtestReport } from '../../scripts/loadtest/report.js';
import { runLoadtest } from '../../scripts/loadtest/run.js';
import { StreamCheck } from '../../scripts/loadtest/stream-check.js';
import { REPO_ROOT } from '../support/processes.js';
import { sharedStack, type SharedStackInfo } from '../support/shared-stack.js';

/**
 * `npm run loadtest` in CI: short, bounded runs against the gateway and the
 * agents as separate processes (offline model), asserting counts and stream
 * integrity, never timings; the CLI's refusals; and the stream bookkeeping
 * (id checks across a Last-Event-ID reconnect of the client's event stream)
 * against a scripted SSE server.
 */

/** Runs the CLI as a user would (`node --import tsx scripts/loadtest.ts …`) from the repo root. */
function cli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/loadtest.ts', ...args], {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** What every healthy run must show, whatever the machine's speed. */
function expectIntactRun(report: LoadtestReport, sessions: number, turns: number): void {
  const detail = JSON.stringify(report);
  expect(report.ok, detail).toBe(true);
  expect(report.sessionsCreated, detail).toBe(sessions);
  expect(report.errors, detail).toBe(0);
  expect(report.accepted, detail).toBe(sessions * turns);
  expect(report.completed, detail).toBe(report.accepted);
  expect(report.failedTurns).toBe(0);
  expect(report.unfinished).toBe(0);
  expect(report.shed).toEqual({ 429: 0, 503: 0 });
  expect(report.streams).toMatchObject({ lost: 0, duplicated: 0, outOfOrder: 0 });
  // Every turn brings at least turn.started, the user message and turn.completed.
  expect(report.streams.events).toBeGreaterThanOrEqual(sessions * turns * 3);
}

describe('loadtest against the platform (gateway and agents as processes, offline model)', () => {
  let stack: SharedStackInfo;

  beforeAll(async () => {
    stack = await sharedStack({ services: ['greeter', 'architect', 'interviewer', 'reviewer', 'planner', 'search'] });
  });

  it('form: 4 sessions × 3 turns, 4 at once: every turn accepted and completed, every stream intact', async () => {
    const report = await runLoadtest({ kind: 'form', url: stack.url, sessions: 4, concurrency: 4, turns: 3, durationMs: 30_000 });
    expectIntactRun(report, 4, 3);
    expect(report).toMatchObject({ kind: 'form', sessions: 4, concurrency: 4, turnsPerSession: 3 });
  });

  it('faq: 4 sessions × 3 turns, 2 at once: every turn accepted and completed, every stream intact', async () => {
    const report = await runLoadtest({ kind: 'faq', url: stack.url, sessions: 4, concurrency: 2, turns: 3, durationMs: 30_000 });
    expectIntactRun(report, 4, 3);
  });

  it('the CLI with --json prints one JSON report and exits 0 when the run is ok', async () => {
    const result = await cli(['--kind', 'faq', '--sessions', '2', '--concurrency', '2', '--turns', '2', '--url', stack.url, '--json']);
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as LoadtestReport;
    expectIntactRun(report, 2, 2);
    expect(Object.keys(report)).toEqual(expect.arrayContaining(['latencyMs', 'turnsPerSecond', 'streams', 'shed', 'durationMs']));
  });
});

describe('loadtest refuses what it must not run', () => {
  it('the CLI refuses a non-loopback --url with exit code 2 and says why', async () => {
    const result = await cli(['--kind', 'form', '--sessions', '1', '--turns', '1', '--url', 'http://example.com']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/refusing --url http:\/\/example\.com/);
    expect(result.stderr).toMatch(/127\.0\.0\.1, ::1 or localhost/);
    expect(result.stdout).toBe('');
  });

  it('the CLI refuses an unknown --kind with exit code 2 and the usage', async () => {
    const result = await cli(['--kind', 'survey', '--sessions', '1']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--kind must be one of form, application, faq; got "survey"/);
    expect(result.stderr).toMatch(/Usage: npm run loadtest/);
  });

  it('runLoadtest refuses a non-loopback url and bad counts before sending anything', async () => {
    await expect(runLoadtest({ kind: 'faq', url: 'http://10.0.0.1:8080' })).rejects.toThrow(UsageError);
    await expect(runLoadtest({ kind: 'faq', url: 'http://127.0.0.1:1', sessions: 0 })).rejects.toThrow(/--sessions/);
  });
});

describe('stream check', () => {
  const feed = (ids: Array<number | [number, string]>) => {
    const check = new StreamCheck();
    for (const entry of ids) {
      if (Array.isArray(entry)) check.observe(entry[0], entry[1]);
      else check.observe(entry, 'message');
    }
    return check;
  };

  it('a contiguous sequence from 1 has nothing lost, duplicated or out of order', () => {
    expect(feed([1, 2, 3, 4])).toMatchObject({ events: 4, lost: 0, duplicated: 0, outOfOrder: 0, lastId: 4 });
  });

  it('live message deltas, which repeat the last stored id, are neither counted nor duplicates', () => {
    expect(feed([1, 2, [2, 'message.delta'], [2, 'message.delta'], 3])).toMatchObject({
      events: 3,
      lost: 0,
      duplicated: 0,
      outOfOrder: 0,
      lastId: 3,
    });
  });

  it('skipped ids are lost; a repeated id is duplicated', () => {
    expect(feed([1, 2, 5, 5, 2])).toMatchObject({ events: 5, lost: 2, duplicated: 2, outOfOrder: 0, lastId: 5 });
  });

  it('a skipped id that arrives late is out of order, not lost', () => {
    expect(feed([1, 3, 2, 4])).toMatchObject({ lost: 0, duplicated: 0, outOfOrder: 1, lastId: 4 });
  });

  it('a resync moves the baseline without counting the trimmed ids as lost', () => {
    expect(feed([1, 2, [40, 'resync'], 41, 42])).toMatchObject({ events: 5, lost: 0, resyncs: 1, lastId: 42 });
  });
});

describe('stream check over the client’s event stream', () => {
  let server: Server;
  const requests: IncomingHttpHeaders[] = [];

  beforeAll(async () => {
    // First connection: two events, then the server hangs up (as on a restart or a slow-client close).
    // Second: one more event, a heartbeat, a resync over trimmed history, and the live tail.
    server = createServer((req, res) => {
      requests.push(req.headers);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      if (requests.length === 1) {
        res.end('retry: 50\n\nid: 1\nevent: turn.started\ndata: {"turnId":"t1"}\n\nid: 2\r\nevent: message\r\ndata: {}\r\n\r\n');
      } else {
        res.write('id: 3\nevent: turn.completed\ndata: {"turnId":"t1"}\n\n: ping\n\n');
        res.write('id: 9\nevent: resync\ndata: {"snapshot":{}}\n\nid: 10\nevent: turn.started\ndata: {"turnId":"t2"}\n\n');
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('keeps checking ids across a reconnect with Last-Event-ID', async () => {
    const check = new StreamCheck();
    const types: string[] = [];
    const { port } = server.address() as AddressInfo;
    const stream = createClient({ baseUrl: `http://127.0.0.1:${port}`, token: 'secret' }).sessions.events('s1');
    for await (const ev of stream) {
      check.observe(ev.id, ev.type);
      types.push(ev.type);
      if (ev.id === 10) break;
    }
    expect(types).toEqual(['turn.started', 'message', 'turn.completed', 'resync', 'turn.started']);
    expect(requests.map((h) => h['last-event-id'])).toEqual([undefined, '2']);
    expect(requests[0]?.authorization).toBe('Bearer secret');
    expect(stream.reconnects).toBe(1);
    expect(stream.ignored).toBe(0);
    expect(check).toMatchObject({ events: 5, lost: 0, duplicated: 0, outOfOrder: 0, resyncs: 1, lastId: 10 });
  });
});
