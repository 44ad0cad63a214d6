import { randomBytes, randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { Api, loadForm } from '../support/api.js';
import { startStack, type Stack } from '../support/processes.js';
import { SseRecorder } from '../support/sse.js';

/**
 * The trace of one interview turn, end to end: the gateway and the agents
 * run as processes with OTEL_* pointing at an OTLP/HTTP JSON receiver in this
 * test, and the turn is sent with a traceparent of the test's making. The
 * spans of that trace must form one tree: the gateway's request span under
 * the test's parent, a step span from each agent process that worked on the
 * turn, model calls and commits under the steps.
 */

type ReceivedSpan = {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId: string | undefined;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
};

/** OTLP span kinds as numbered on the wire. */
const KIND = { server: 2, client: 3, consumer: 5 } as const;

type OtlpValue = { stringValue?: string; intValue?: number | string; boolValue?: boolean; doubleValue?: number };
type OtlpAttribute = { key: string; value: OtlpValue };
type OtlpBody = {
  resourceSpans?: Array<{
    resource?: { attributes?: OtlpAttribute[] };
    scopeSpans?: Array<{
      spans?: Array<{ traceId: string; spanId: string; parentSpanId?: string; name: string; kind: number; attributes?: OtlpAttribute[] }>;
    }>;
  }>;
};

function attributesOf(list: OtlpAttribute[] = []): Record<string, unknown> {
  const value = (v: OtlpValue) => v.stringValue ?? (v.intValue !== undefined ? Number(v.intValue) : (v.boolValue ?? v.doubleValue));
  return Object.fromEntries(list.map((a) => [a.key, value(a.value)]));
}

/** A minimal OTLP/HTTP receiver (JSON encoding): collects the spans POSTed to /v1/traces. */
class Collector {
  readonly spans: ReceivedSpan[] = [];
  private readonly events = new EventEmitter();
  private server: Server | null = null;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        if (req.method === 'POST' && req.url === '/v1/traces') {
          const raw = Buffer.concat(chunks);
          const body = JSON.parse((req.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw).toString('utf8')) as OtlpBody;
          this.add(body);
        }
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  private add(body: OtlpBody): void {
    for (const resourceSpans of body.resourceSpans ?? []) {
      const service = String(attributesOf(resourceSpans.resource?.attributes)['service.name']);
      for (const scope of resourceSpans.scopeSpans ?? []) {
        for (const span of scope.spans ?? []) {
          this.spans.push({
            service,
            traceId: span.traceId,
            spanId: span.spanId,
            parentSpanId: span.parentSpanId || undefined,
            name: span.name,
            kind: span.kind,
            attributes: attributesOf(span.attributes),
          });
        }
      }
    }
    this.events.emit('spans');
  }

  /** Resolves with the spans of `traceId` once `done` holds for them. */
  waitFor(traceId: string, done: (spans: ReceivedSpan[]) => boolean, timeoutMs = 20_000): Promise<ReceivedSpan[]> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const spans = this.spans.filter((span) => span.traceId === traceId);
        if (!done(spans)) return false;
        cleanup();
        resolve(spans);
        return true;
      };
      const timer = setTimeout(() => {
        cleanup();
        const seen = this.spans.filter((span) => span.traceId === traceId).map((span) => `${span.service}: ${span.name}`);
        reject(new Error(`the trace was not complete after ${timeoutMs} ms; spans so far:\n${seen.join('\n')}`));
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        this.events.off('spans', check);
      };
      this.events.on('spans', check);
      check();
    });
  }

  async close(): Promise<void> {
    await new Promise((resolve) => this.server?.close(resolve));
  }
}

const collector = new Collector();
let stack: Stack;
let api: Api;
/** The session the first test brings to its first interview question; the second test goes on with it. */
let interview: { session: { sessionId: string; token: string }; sse: SseRecorder } | undefined;

beforeAll(async () => {
  await collector.start();
  const id = randomUUID().slice(0, 8);
  stack = await startStack({
    env: {
      REDIS_URL: inject('redisUrl'),
      KEY_PREFIX: `tr-${id}`,
      QUEUE_PREFIX: `{tr-${id}}`,
      LOG_LEVEL: 'info',
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
      // This receiver reads JSON; the default encoding, protobuf, is checked in shared/runtime/test/tracing-export.test.ts.
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      // Spans leave each process within 50 ms instead of the default 5 s.
      OTEL_BSP_SCHEDULE_DELAY: '50',
    },
  });
  api = new Api(stack.url);
});
afterAll(async () => {
  await stack?.stop();
  await collector.close();
});

/** Sends a turn and waits until its turn.completed is on the stream. */
async function say(session: { sessionId: string; token: string }, sse: SseRecorder, message: string, headers: Record<string, string> = {}) {
  const response = await api.call('POST', `/v1/sessions/${session.sessionId}/turns`, { token: session.token, body: { message }, headers });
  expect(response.status).toBe(202);
  const turnId = String(response.json.turnId);
  await sse.waitFor((evs) => evs.some((e) => e.type === 'turn.completed' && e.data.turnId === turnId), 20_000, `turn ${message}`);
  return { turnId, headers: response.headers };
}

describe('tracing across the gateway and the agent processes', () => {
  it('the trace of one interview turn links the request, every agent step, its model calls and its commits', async () => {
    const session = await api.createSession(loadForm('event-registration-en.json'));
    const sse = await SseRecorder.open(api.eventsUrl(session.sessionId, session.token));
    await sse.waitTurns(1);
    await say(session, sse, 'English please');
    await say(session, sse, 'I live in Canada');

    // The turn that settles the time zone runs the greeter, then the architect (plan), then the interviewer (first question).
    const traceId = randomBytes(16).toString('hex');
    const callerSpanId = randomBytes(8).toString('hex');
    const turn = await say(session, sse, 'Toronto', { traceparent: `00-${traceId}-${callerSpanId}-01` });
    interview = { session, sse };
    expect(turn.headers.get('x-trace-id')).toBe(traceId);

    const agents = ['greeter', 'architect', 'interviewer'];
    const spans = await collector.waitFor(
      traceId,
      (all) => agents.every((agent) => all.some((span) => span.name === `step ${agent}`)) && all.some((span) => span.kind === KIND.server),
    );
    const byId = new Map(spans.map((span) => [span.spanId, span]));
    const parentOf = (span: ReceivedSpan) => (span.parentSpanId ? byId.get(span.parentSpanId) : undefined);

    // The gateway's request span is the child of the caller's span.
    const request = spans.find((span) => span.kind === KIND.server)!;
    expect(request).toMatchObject({ service: 'convo-gateway', name: 'POST /v1/sessions/:id/turns', parentSpanId: callerSpanId });
    expect(request.attributes).toMatchObject({
      'http.request.method': 'POST',
      'http.response.status_code': 202,
      'convo.session_id': session.sessionId,
    });

    // One step span from each agent process, with the session, turn and agent; the first under the request, each next one under the step that dispatched it.
    const steps = spans.filter((span) => span.name.startsWith('step '));
    for (const agent of agents) {
      const step = steps.find((span) => span.name === `step ${agent}`)!;
      expect(step.service).toBe(`convo-${agent}`);
      expect(step.kind).toBe(KIND.consumer);
      expect(step.attributes).toMatchObject({
        'convo.session_id': session.sessionId,
        'convo.turn_id': turn.turnId,
        'convo.agent': agent,
        'messaging.system': 'bullmq',
      });
      expect(typeof step.attributes['convo.step_seq']).toBe('number');
    }
    expect(parentOf(steps.find((span) => span.name === 'step greeter')!)).toBe(request);
    expect(parentOf(steps.find((span) => span.name === 'step architect')!)?.name).toMatch(/^step /);
    expect(parentOf(steps.find((span) => span.name === 'step interviewer')!)?.name).toMatch(/^step /);

    // Model calls and commits happen inside a step, in that step's process.
    const calls = spans.filter((span) => span.name.startsWith('chat '));
    const commits = spans.filter((span) => span.name === 'commit');
    expect(calls.length).toBeGreaterThan(0);
    expect(commits.length).toBeGreaterThanOrEqual(agents.length);
    for (const span of [...calls, ...commits]) {
      const parent = parentOf(span);
      expect(parent?.name, `${span.service}: ${span.name}`).toMatch(/^step /);
      expect(parent?.service).toBe(span.service);
    }
    for (const call of calls) {
      expect(call.kind).toBe(KIND.client);
      expect(call.attributes).toMatchObject({ 'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': 'offline' });
      expect(call.attributes['gen_ai.request.model']).toEqual(expect.any(String));
      expect(call.attributes['gen_ai.usage.input_tokens']).toEqual(expect.any(Number));
    }

    // One tree: every span's parent is in the trace, except the caller's span the request hangs from.
    for (const span of spans) {
      if (span === request) continue;
      expect(span.parentSpanId && byId.has(span.parentSpanId), `parent of ${span.service}: ${span.name}`).toBeTruthy();
    }

    // And the workers' log lines of that turn carry its trace id.
    const line = await stack.procs.interviewer!.waitForLine((l) => l.json?.trace_id === traceId && l.json?.msg === 'step committed', 5_000);
    expect(line.json).toMatchObject({ agent: 'interviewer', sessionId: session.sessionId, turnId: turn.turnId });
    expect(String(line.json?.span_id)).toMatch(/^[0-9a-f]{16}$/);
  });

  it("a queued turn keeps the trace of its own request, though the previous turn's worker starts it", async () => {
    const { session, sse } = interview!;
    const [first, second] = [randomBytes(16).toString('hex'), randomBytes(16).toString('hex')];
    const post = (message: string, traceId: string) =>
      api.call('POST', `/v1/sessions/${session.sessionId}/turns`, {
        token: session.token,
        body: { message },
        headers: { traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01` },
      });
    const a = await post('Alex Morgan', first);
    const b = await post('alex@example.com', second);
    expect([a.status, b.status]).toEqual([202, 202]);
    expect(b.json.position).toBeGreaterThan(0);
    const turnB = String(b.json.turnId);
    await sse.waitFor((evs) => evs.some((e) => e.type === 'turn.completed' && e.data.turnId === turnB), 20_000, 'the queued turn');
    sse.close();

    // Each process exports on its own schedule, so a later step's span can arrive before the first one's: wait until every
    // step received hangs from a span received (the request or another step), so the first step is among them.
    const connected = (all: ReceivedSpan[]) => {
      const ids = new Set(all.map((span) => span.spanId));
      const steps = all.filter((span) => span.name.startsWith('step '));
      return (
        all.some((span) => span.kind === KIND.server) &&
        steps.length > 0 &&
        steps.every((step) => step.parentSpanId !== undefined && ids.has(step.parentSpanId))
      );
    };
    const spans = await collector.waitFor(second, connected);
    const request = spans.find((span) => span.kind === KIND.server)!;
    const steps = spans.filter((span) => span.name.startsWith('step '));
    expect(steps.every((step) => step.attributes['convo.turn_id'] === turnB)).toBe(true);
    // Its first step hangs from its own request, not from the step of the turn before that dispatched it.
    const firstStep = steps.reduce((low, step) =>
      Number(step.attributes['convo.step_seq']) < Number(low.attributes['convo.step_seq']) ? step : low,
    );
    expect(firstStep.parentSpanId).toBe(request.spanId);
    expect(collector.spans.filter((span) => span.traceId === first && span.attributes['convo.turn_id'] === turnB)).toEqual([]);
  });
});
