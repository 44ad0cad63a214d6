import { SpanKind as OtelSpanKind } from '@opentelemetry/api';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  ConfigError,
  createLogger,
  extractTrace,
  inSpan,
  injectTrace,
  loadConfig,
  runStep,
  SpanKind,
  startSpan,
  startTracing,
  StepJob,
  type StepRunnerDeps,
  type Tracing,
  tracingConfig,
  tracingEnabled,
} from '@convo/runtime';
import { JOB_SCHEMA_VERSION, SearchQueryJob } from '@convo/contract';
import { traceProvider } from '@convo/agent-kit/internal/llm/traced';
import type { LlmProvider } from '@convo/agent-kit';

/** A pino destination that keeps the lines it is given. */
function captureLines(): { lines: () => Record<string, unknown>[]; write(line: string): void } {
  const raw: string[] = [];
  return { write: (line: string) => void raw.push(line), lines: () => raw.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT_SPAN_ID = '00f067aa0ba902b7';
const TRACEPARENT = `00-${TRACE_ID}-${PARENT_SPAN_ID}-01`;

/** The deps of a step whose session is gone: enough to run runStep to its span's end without Redis. */
function goneDeps(): StepRunnerDeps {
  const log = createLogger('test', 'silent');
  return {
    agent: 'interviewer',
    handler: async () => ({ kind: 'end' }),
    store: { load: async () => null } as unknown as StepRunnerDeps['store'],
    queues: {} as StepRunnerDeps['queues'],
    config: loadConfig({}),
    log,
  };
}

describe('OTEL_* variables', () => {
  it('leave tracing off when no exporter or endpoint is named', () => {
    expect(tracingConfig({}).enabled).toBe(false);
    expect(loadConfig({}).tracing.enabled).toBe(false);
  });

  it('turn it on with an OTLP endpoint, appending the traces path to the base endpoint only', () => {
    expect(tracingConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toMatchObject({
      enabled: true,
      endpoint: 'http://collector:4318/v1/traces',
    });
    expect(tracingConfig({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/custom' })).toMatchObject({
      enabled: true,
      endpoint: 'http://collector:4318/custom',
    });
    expect(tracingConfig({ OTEL_TRACES_EXPORTER: 'otlp' })).toMatchObject({ enabled: true, endpoint: 'http://localhost:4318/v1/traces' });
  });

  it('are forced off by OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER=none', () => {
    expect(tracingConfig({ OTEL_TRACES_EXPORTER: 'otlp', OTEL_SDK_DISABLED: 'true' }).enabled).toBe(false);
    expect(tracingConfig({ OTEL_TRACES_EXPORTER: 'otlp', OTEL_SDK_DISABLED: 'TRUE' }).enabled).toBe(false);
    expect(tracingConfig({ OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }).enabled).toBe(false);
    expect(tracingConfig({ OTEL_SDK_DISABLED: 'false', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }).enabled).toBe(true);
  });

  it('read the service name, resource attributes, sampler and batch settings', () => {
    const settings = tracingConfig({
      OTEL_TRACES_EXPORTER: 'otlp',
      OTEL_SERVICE_NAME: 'convo-eu',
      OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment.name=prod,team=a%20b',
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '0.25',
      OTEL_BSP_SCHEDULE_DELAY: '100',
    });
    expect(settings).toMatchObject({
      serviceName: 'convo-eu',
      resourceAttributes: { 'deployment.environment.name': 'prod', team: 'a b' },
      sampler: { name: 'parentbased_traceidratio', ratio: 0.25 },
      batch: { scheduledDelayMs: 100, maxQueueSize: 2048, maxExportBatchSize: 512 },
    });
  });

  it("send OTLP/HTTP protobuf by default (the spec's default), JSON when asked, the traces variable first", () => {
    expect(tracingConfig({ OTEL_TRACES_EXPORTER: 'otlp' }).protocol).toBe('http/protobuf');
    expect(tracingConfig({ OTEL_TRACES_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' }).protocol).toBe('http/json');
    expect(
      tracingConfig({
        OTEL_TRACES_EXPORTER: 'otlp',
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/protobuf',
      }).protocol,
    ).toBe('http/protobuf');
  });

  it('refuse what the installed exporters cannot do, naming the variable, at start', () => {
    expect(() => tracingConfig({ OTEL_TRACES_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toThrow(
      /OTEL_EXPORTER_OTLP_TRACES_PROTOCOL/,
    );
    expect(() => tracingConfig({ OTEL_TRACES_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'grpc' })).toThrow(/http\/protobuf/);
    // Off, a protocol it would not use is no reason to refuse to start.
    expect(tracingConfig({ OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }).enabled).toBe(false);
    expect(() => tracingConfig({ OTEL_TRACES_EXPORTER: 'zipkin' })).toThrow(/OTEL_TRACES_EXPORTER/);
    expect(() => loadConfig({ OTEL_TRACES_SAMPLER: 'sometimes' })).toThrow(ConfigError);
    expect(() => loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'not a url' })).toThrow(/OTEL_EXPORTER_OTLP_ENDPOINT/);
  });
});

describe('with tracing off', () => {
  it('installs nothing: jobs carry no trace and logs no trace id', async () => {
    const off = startTracing('test', tracingConfig({}));
    expect(tracingEnabled()).toBe(false);
    const out = captureLines();
    const log = createLogger('test', 'info', { traceIds: true, destination: out });
    await inSpan('nothing', {}, async (span) => {
      expect(span.isRecording()).toBe(false);
      expect(injectTrace()).toBeNull();
      log.info('inside');
    });
    expect(out.lines()[0]).not.toHaveProperty('trace_id');
    await off.shutdown();
  });
});

describe('with tracing on (in-memory exporter)', () => {
  const exporter = new InMemorySpanExporter();
  let tracing: Tracing;
  beforeAll(() => {
    tracing = startTracing('test', tracingConfig({}), { exporter });
  });
  afterAll(async () => {
    await tracing.shutdown();
  });
  beforeEach(() => exporter.reset());

  const finished = (name: string): ReadableSpan => {
    const span = exporter.getFinishedSpans().find((s) => s.name === name);
    if (!span)
      throw new Error(
        `no span ${name} among ${exporter
          .getFinishedSpans()
          .map((s) => s.name)
          .join(', ')}`,
      );
    return span;
  };

  it('a traceparent survives the round trip through a job payload', async () => {
    let sent: { traceId: string; spanId: string } | undefined;
    const payload = await inSpan('dispatch', {}, async (span) => {
      sent = span.spanContext();
      return StepJob.parse(
        JSON.parse(
          JSON.stringify({ v: JOB_SCHEMA_VERSION, sessionId: 's1', seq: 2, agent: 'reviewer', turnId: 't1', trace: injectTrace() }),
        ),
      );
    });
    expect(payload.trace?.traceparent).toBe(`00-${sent!.traceId}-${sent!.spanId}-01`);
    const { span } = startSpan('received', { parent: extractTrace(payload.trace) });
    span.end();
    expect(finished('received').parentSpanContext).toMatchObject({ traceId: sent!.traceId, spanId: sent!.spanId, isRemote: true });
    // The search job carries it the same way.
    expect(SearchQueryJob.parse({ v: 1, query: 'q', topK: 3, language: 'auto', trace: payload.trace }).trace).toEqual(payload.trace);
  });

  it('jobs queued before the trace field existed still parse, and start a new trace', async () => {
    const old = { v: 1, sessionId: 's1', seq: 1, agent: 'interviewer', turnId: 't1' };
    expect(StepJob.parse(old).trace).toBeUndefined();
    expect(await runStep({ data: old, attemptsMade: 0, opts: {} }, goneDeps())).toBe('gone');
    expect(finished('step interviewer').parentSpanContext).toBeUndefined();
  });

  it('a step run opens a consumer span, child of the traceparent in its job, with the session, turn, agent and step', async () => {
    const data = {
      v: 1,
      sessionId: 's-42',
      seq: 7,
      agent: 'interviewer',
      turnId: 't-9',
      trace: { traceparent: TRACEPARENT, tracestate: null },
    };
    const result = await runStep({ data, attemptsMade: 0, opts: {}, id: 'step-s-42-7', queueName: '{agent-interviewer-0.3}' }, goneDeps());
    expect(result).toBe('gone');
    const span = finished('step interviewer');
    expect(span.kind).toBe(OtelSpanKind.CONSUMER);
    expect(span.spanContext().traceId).toBe(TRACE_ID);
    expect(span.parentSpanContext).toMatchObject({ traceId: TRACE_ID, spanId: PARENT_SPAN_ID, isRemote: true });
    expect(span.attributes).toMatchObject({
      'convo.session_id': 's-42',
      'convo.turn_id': 't-9',
      'convo.agent': 'interviewer',
      'convo.step_seq': 7,
      'convo.step_result': 'gone',
      'messaging.system': 'bullmq',
      'messaging.destination.name': '{agent-interviewer-0.3}',
      'messaging.message.id': 'step-s-42-7',
    });
    expect(span.resource.attributes['service.name']).toBe('convo-test');
  });

  it('a model call is a client span under the active span, with the GenAI attributes and token usage', async () => {
    const model: LlmProvider = {
      name: 'offline',
      chat: async (req) => ({
        content: null,
        toolCalls: [{ id: 'c1', name: 'ask', arguments: '{}' }],
        usage: { promptTokens: 120, completionTokens: 8, cachedTokens: 100 },
        model: req.model,
      }),
    };
    const traced = traceProvider(model);
    await inSpan('step', { kind: SpanKind.CONSUMER }, () =>
      traced.chat({ agent: 'reviewer', model: 'gpt-x', messages: [], tools: [], context: {} }),
    );
    const chat = finished('chat gpt-x');
    expect(chat.kind).toBe(OtelSpanKind.CLIENT);
    expect(chat.parentSpanContext?.spanId).toBe(finished('step').spanContext().spanId);
    expect(chat.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'offline',
      'gen_ai.request.model': 'gpt-x',
      'gen_ai.response.model': 'gpt-x',
      'gen_ai.usage.input_tokens': 120,
      'gen_ai.usage.output_tokens': 8,
      'gen_ai.usage.cache_read.input_tokens': 100,
      'convo.agent': 'reviewer',
    });
  });

  it('a failed model call marks its span failed with the error code', async () => {
    const failing = traceProvider({
      name: 'openai',
      chat: async () => Promise.reject(Object.assign(new Error('upstream 503'), { code: 'provider_error' })),
    });
    await expect(failing.chat({ agent: 'reviewer', model: 'gpt-x', messages: [], tools: [], context: {} })).rejects.toThrow('upstream 503');
    const chat = finished('chat gpt-x');
    expect(chat.status.code).toBe(2);
    expect(chat.attributes['error.type']).toBe('provider_error');
  });

  it('log lines written inside a span carry its trace_id and span_id, and none outside', async () => {
    const out = captureLines();
    const log = createLogger('test', 'info', { traceIds: true, destination: out }).child({ agent: 'reviewer' });
    let ids: { traceId: string; spanId: string } | undefined;
    await inSpan('logged', {}, async (span) => {
      ids = span.spanContext();
      log.info('inside');
    });
    log.info('outside');
    const [inside, outside] = out.lines();
    expect(inside).toMatchObject({ msg: 'inside', trace_id: ids!.traceId, span_id: ids!.spanId, agent: 'reviewer' });
    expect(outside).not.toHaveProperty('trace_id');
  });

  it('a logger made without trace ids (tracing off in its config) adds none, even inside a span', async () => {
    const out = captureLines();
    const log = createLogger('test', 'info', { destination: out });
    await inSpan('quiet', {}, async () => log.info('inside'));
    expect(out.lines()[0]).not.toHaveProperty('trace_id');
  });
});
