import { z } from 'zod';

/**
 * The schema major of every job payload this code writes, and the newest one
 * it can read (field `v`). A new optional field never bumps it; a change an
 * older worker would misread (a field renamed, removed or given a new
 * meaning) does. A worker leaves a job of a newer major on the queue for a
 * newer worker instead of failing it (queues/versions.ts), so a rolling deploy
 * may run old and new workers side by side (README, "Rolling deploys and
 * schema versions").
 */
export const JOB_SCHEMA_VERSION = 1;

/** Field `v` of a job payload: the majors this worker reads (older ones it still understands included). */
export const JobSchemaVersion = z.number().int().min(1).max(JOB_SCHEMA_VERSION);

/**
 * The W3C trace context a job was enqueued in (`traceparent`, `tracestate`),
 * so the worker's spans join the trace of the request that caused the job.
 * Null when tracing was off where the job was enqueued; absent in jobs
 * written before the field existed, which still parse.
 */
export const TraceCarrier = z.object({ traceparent: z.string().min(1), tracestate: z.string().nullable() });
export type TraceCarrier = z.infer<typeof TraceCarrier>;

/** The job field that carries it: nullish, so payloads queued by older releases keep parsing. */
export const JobTrace = TraceCarrier.nullish();
