import { z } from 'zod';

/**
 * Tracing settings from the standard OpenTelemetry variables
 * (https://opentelemetry.io/docs/specs/otel/configuration/sdk-environment-variables/).
 * config.ts calls `tracingConfig` with the environment it parses, so the
 * variables are validated with everything else and a bad one stops the
 * process at start.
 */
export type SamplerName =
  'always_on' | 'always_off' | 'traceidratio' | 'parentbased_always_on' | 'parentbased_always_off' | 'parentbased_traceidratio';

export type OtlpProtocol = 'http/protobuf' | 'http/json';
const isOtlpHttp = (protocol: string): protocol is OtlpProtocol => protocol === 'http/protobuf' || protocol === 'http/json';

export type TracingConfig = Readonly<{
  /** Off unless an exporter is asked for (README, "Tracing"). */
  enabled: boolean;
  /** OTEL_SERVICE_NAME; undefined: each process's own (`convo-gateway`, `convo-<agent>`). */
  serviceName: string | undefined;
  /** Where spans are POSTed (OTLP over HTTP). */
  endpoint: string;
  /** The OTLP/HTTP encoding: protobuf (the spec's default) or JSON. */
  protocol: OtlpProtocol;
  sampler: Readonly<{ name: SamplerName; ratio: number }>;
  /** The batch span processor (OTEL_BSP_*). */
  batch: Readonly<{ scheduledDelayMs: number; exportTimeoutMs: number; maxQueueSize: number; maxExportBatchSize: number }>;
  /** OTEL_RESOURCE_ATTRIBUTES, decoded. */
  resourceAttributes: Readonly<Record<string, string>>;
}>;

const blankToUndefined = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);
const optionalText = z.preprocess(blankToUndefined, z.string().trim().optional());
const optionalUrl = z.preprocess(blankToUndefined, z.string().trim().url().optional());
const millis = (def: number) => z.preprocess(blankToUndefined, z.coerce.number().int().min(0).default(def));
const count = (def: number) => z.preprocess(blankToUndefined, z.coerce.number().int().min(1).default(def));

const OtelEnv = z.object({
  OTEL_SDK_DISABLED: z.preprocess(blankToUndefined, z.string().trim().toLowerCase().optional()),
  OTEL_TRACES_EXPORTER: z.preprocess(blankToUndefined, z.string().trim().toLowerCase().optional()),
  OTEL_EXPORTER_OTLP_ENDPOINT: optionalUrl,
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: optionalUrl,
  OTEL_EXPORTER_OTLP_PROTOCOL: optionalText,
  OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: optionalText,
  OTEL_SERVICE_NAME: optionalText,
  OTEL_RESOURCE_ATTRIBUTES: optionalText,
  OTEL_TRACES_SAMPLER: z.preprocess(
    blankToUndefined,
    z
      .enum(['always_on', 'always_off', 'traceidratio', 'parentbased_always_on', 'parentbased_always_off', 'parentbased_traceidratio'])
      .default('parentbased_always_on'),
  ),
  OTEL_TRACES_SAMPLER_ARG: z.preprocess(blankToUndefined, z.coerce.number().min(0).max(1).default(1)),
  OTEL_BSP_SCHEDULE_DELAY: millis(5_000),
  OTEL_BSP_EXPORT_TIMEOUT: millis(30_000),
  OTEL_BSP_MAX_QUEUE_SIZE: count(2_048),
  OTEL_BSP_MAX_EXPORT_BATCH_SIZE: count(512),
});

/** The collector's OTLP/HTTP port on this machine, the spec's default. */
const DEFAULT_ENDPOINT = 'http://localhost:4318/v1/traces';

/**
 * On/off, in the spec's terms: OTEL_SDK_DISABLED=true turns everything off;
 * OTEL_TRACES_EXPORTER=otlp turns it on, `none` off; unset, an OTLP endpoint
 * variable (OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT)
 * turns it on. Off, nothing is installed and every span call is the API's
 * no-op. Throws an Error naming the variable when one is invalid.
 */
export function tracingConfig(env: Record<string, string | undefined>): TracingConfig {
  const parsed = OtelEnv.safeParse(env);
  if (!parsed.success) throw new Error(parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; '));
  const vars = parsed.data;
  const exporters = (vars.OTEL_TRACES_EXPORTER ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const unknown = exporters.filter((name) => name !== 'otlp' && name !== 'none');
  if (unknown.length > 0) throw new Error(`OTEL_TRACES_EXPORTER: only "otlp" or "none" are supported, got "${unknown.join(',')}"`);
  const disabled = vars.OTEL_SDK_DISABLED === 'true';
  const asked =
    exporters.length > 0
      ? exporters.includes('otlp')
      : vars.OTEL_EXPORTER_OTLP_ENDPOINT !== undefined || vars.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT !== undefined;
  const enabled = !disabled && asked;
  const protocol = vars.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? vars.OTEL_EXPORTER_OTLP_PROTOCOL ?? 'http/protobuf';
  // gRPC would need its own exporter and an HTTP/2 stack; every OTLP receiver that speaks gRPC on :4317 also takes OTLP/HTTP on :4318.
  if (enabled && !isOtlpHttp(protocol)) {
    throw new Error(
      `OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: "http/protobuf" or "http/json" (OTLP over HTTP, port 4318 on the Collector and Jaeger), got "${protocol}"`,
    );
  }
  return Object.freeze({
    enabled,
    serviceName: vars.OTEL_SERVICE_NAME,
    endpoint:
      vars.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ??
      (vars.OTEL_EXPORTER_OTLP_ENDPOINT ? signalUrl(vars.OTEL_EXPORTER_OTLP_ENDPOINT) : DEFAULT_ENDPOINT),
    // Off, a protocol it would not use is no reason to refuse to start; nothing reads it then.
    protocol: isOtlpHttp(protocol) ? protocol : 'http/protobuf',
    sampler: Object.freeze({ name: vars.OTEL_TRACES_SAMPLER, ratio: vars.OTEL_TRACES_SAMPLER_ARG }),
    batch: Object.freeze({
      scheduledDelayMs: vars.OTEL_BSP_SCHEDULE_DELAY,
      exportTimeoutMs: vars.OTEL_BSP_EXPORT_TIMEOUT,
      maxQueueSize: vars.OTEL_BSP_MAX_QUEUE_SIZE,
      // The SDK would lower it anyway; said here so the configuration shows what runs.
      maxExportBatchSize: Math.min(vars.OTEL_BSP_MAX_EXPORT_BATCH_SIZE, vars.OTEL_BSP_MAX_QUEUE_SIZE),
    }),
    resourceAttributes: Object.freeze(parseResourceAttributes(vars.OTEL_RESOURCE_ATTRIBUTES ?? '')),
  });
}

/** OTEL_EXPORTER_OTLP_ENDPOINT is the collector's base URL: the traces path is appended (the signal-specific variable is used as given). */
function signalUrl(base: string): string {
  return `${base.endsWith('/') ? base : `${base}/`}v1/traces`;
}

/** `key=value,key2=value2`, values percent-encoded (W3C Baggage octets). */
function parseResourceAttributes(text: string): Record<string, string> {
  const attributes: Record<string, string> = {};
  for (const pair of text.split(',')) {
    if (pair.trim() === '') continue;
    const at = pair.indexOf('=');
    if (at <= 0) throw new Error(`OTEL_RESOURCE_ATTRIBUTES: expected key=value pairs separated by commas, got "${pair.trim()}"`);
    try {
      attributes[pair.slice(0, at).trim()] = decodeURIComponent(pair.slice(at + 1).trim());
    } catch {
      throw new Error(`OTEL_RESOURCE_ATTRIBUTES: "${pair.trim()}" is not percent-encoded correctly`);
    }
  }
  return attributes;
}
