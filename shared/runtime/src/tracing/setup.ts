import { createRequire } from 'node:module';
import { context, diag, DiagLogLevel, propagation, trace } from '@opentelemetry/api';
import type { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import type { W3CTraceContextPropagator } from '@opentelemetry/core';
import type { OTLPTraceExporter as OtlpJsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import type { OTLPTraceExporter as OtlpProtobufExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import type { defaultResource, resourceFromAttributes } from '@opentelemetry/resources';
import type * as SdkTrace from '@opentelemetry/sdk-trace';
import type { Sampler, SpanExporter } from '@opentelemetry/sdk-trace';
import type { Logger } from '../logger.js';
import type { TracingConfig } from './env.js';

/**
 * The one module that touches the OpenTelemetry SDK. Everything else calls
 * `@opentelemetry/api` (through spans.ts and propagation.ts), which is a
 * no-op until `startTracing` installs a provider, so with tracing off no
 * span is ever built.
 */
export type Tracing = {
  /** Exports what is still buffered (bounded), then uninstalls the provider. */
  shutdown(): Promise<void>;
};

/** A flush must not hold a shutdown hostage to an unreachable collector. */
const SHUTDOWN_FLUSH_MS = 5_000;

let installed = false;

/** Whether this process installed a tracer provider (what spans.ts asks before extra work such as a Redis read). */
export function tracingEnabled(): boolean {
  return installed;
}

/**
 * Installs the tracer provider, the W3C trace-context propagator and an
 * AsyncLocalStorage context manager for this process, when `settings.enabled`
 * (or when a test hands in its own exporter, which is then exported to
 * synchronously). `service` names the process (`gateway`, an agent's name);
 * its spans carry `service.name` = OTEL_SERVICE_NAME or `convo-<service>`.
 * Exporter failures reach `log` as warnings.
 */
export function startTracing(service: string, settings: TracingConfig, opts: { log?: Logger; exporter?: SpanExporter } = {}): Tracing {
  if ((!settings.enabled && !opts.exporter) || installed) return { shutdown: async () => undefined };
  if (opts.log) {
    const log = opts.log.child({ component: 'otel' });
    const warn = (message: string) => log.warn(message);
    diag.setLogger({ error: warn, warn, info: () => undefined, debug: () => undefined, verbose: () => undefined }, DiagLogLevel.WARN);
  }
  const otel = sdk();
  const {
    BatchSpanProcessor,
    SimpleSpanProcessor,
    TracerProvider,
    OtlpJsonExporter,
    OtlpProtobufExporter,
    defaultResource,
    resourceFromAttributes,
    AsyncLocalStorageContextManager,
    W3CTraceContextPropagator,
  } = otel;
  const processor = opts.exporter
    ? new SimpleSpanProcessor({ exporter: opts.exporter })
    : new BatchSpanProcessor({
        exporter:
          settings.protocol === 'http/json'
            ? new OtlpJsonExporter({ url: settings.endpoint })
            : new OtlpProtobufExporter({ url: settings.endpoint }),
        scheduledDelayMillis: settings.batch.scheduledDelayMs,
        exportTimeoutMillis: settings.batch.exportTimeoutMs,
        maxQueueSize: settings.batch.maxQueueSize,
        maxExportBatchSize: settings.batch.maxExportBatchSize,
      });
  const provider = new TracerProvider({
    resource: defaultResource().merge(
      resourceFromAttributes({ ...settings.resourceAttributes, 'service.name': settings.serviceName ?? `convo-${service}` }),
    ),
    sampler: sampler(settings.sampler, otel),
    spanProcessors: [processor],
  });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  installed = true;
  return {
    async shutdown() {
      if (!installed) return;
      installed = false;
      await Promise.race([
        provider.shutdown().catch(() => undefined),
        new Promise((resolve) => setTimeout(resolve, SHUTDOWN_FLUSH_MS).unref()),
      ]);
      trace.disable();
      propagation.disable();
      context.disable();
      diag.disable();
    },
  };
}

type Sdk = typeof SdkTrace & {
  OtlpJsonExporter: typeof OtlpJsonExporter;
  OtlpProtobufExporter: typeof OtlpProtobufExporter;
  defaultResource: typeof defaultResource;
  resourceFromAttributes: typeof resourceFromAttributes;
  AsyncLocalStorageContextManager: typeof AsyncLocalStorageContextManager;
  W3CTraceContextPropagator: typeof W3CTraceContextPropagator;
};

/**
 * The tracing SDK and its exporters, required (synchronously) when tracing is turned on: a process
 * without `OTEL_*` settings never loads them (protobufjs and the OTLP transports: about 0.1 s and
 * 8 MB of every service's start). The API above is what the code calls either way; without a
 * provider its calls do nothing.
 */
function sdk(): Sdk {
  const require = createRequire(import.meta.url);
  return {
    ...(require('@opentelemetry/sdk-trace') as typeof SdkTrace),
    OtlpJsonExporter: (require('@opentelemetry/exporter-trace-otlp-http') as { OTLPTraceExporter: typeof OtlpJsonExporter })
      .OTLPTraceExporter,
    OtlpProtobufExporter: (require('@opentelemetry/exporter-trace-otlp-proto') as { OTLPTraceExporter: typeof OtlpProtobufExporter })
      .OTLPTraceExporter,
    ...(require('@opentelemetry/resources') as {
      defaultResource: typeof defaultResource;
      resourceFromAttributes: typeof resourceFromAttributes;
    }),
    AsyncLocalStorageContextManager: (
      require('@opentelemetry/context-async-hooks') as { AsyncLocalStorageContextManager: typeof AsyncLocalStorageContextManager }
    ).AsyncLocalStorageContextManager,
    W3CTraceContextPropagator: (require('@opentelemetry/core') as { W3CTraceContextPropagator: typeof W3CTraceContextPropagator })
      .W3CTraceContextPropagator,
  };
}

function sampler(
  settings: TracingConfig['sampler'],
  { AlwaysOffSampler, AlwaysOnSampler, ParentBasedSampler, TraceIdRatioBasedSampler }: Sdk,
): Sampler {
  switch (settings.name) {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return new TraceIdRatioBasedSampler(settings.ratio);
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(settings.ratio) });
    case 'parentbased_always_on':
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
  }
}
