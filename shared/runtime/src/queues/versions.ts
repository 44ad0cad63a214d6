import { DelayedError, type Job } from 'bullmq';
import { z } from 'zod';
import type { Logger } from '../logger.js';
import type { RuntimeMetrics } from '../metrics/runtime-metrics.js';
import { JOB_SCHEMA_VERSION } from '@convo/contract';

/** Only the version field, read before anything else of the payload. */
const Envelope = z.object({ v: z.number().int().min(1) });

/** A payload's schema major, or null when it has none (such a payload then fails validation as it always did). */
export function jobVersion(data: unknown): number | null {
  const parsed = Envelope.safeParse(data);
  return parsed.success ? parsed.data.v : null;
}

export type DeferOptions = {
  /** The newest major this worker reads; JOB_SCHEMA_VERSION outside tests. */
  known?: number;
  /** How long the job waits before any worker may take it again (config.jobs.newerVersionDelayMs). */
  delayMs: number;
  log: Logger;
  metrics?: RuntimeMetrics;
  agent: string;
};

/**
 * The rolling-deploy rule, checked before a payload is parsed: a job whose
 * schema major is newer than this worker knows was written by a newer
 * release, so it is left for a newer worker instead of failed. It goes back
 * to the delayed set without using an attempt (BullMQ's moveToDelayed skips
 * the attempt count), and the worker is told with DelayedError, which BullMQ
 * treats as neither success nor failure. An older major, or a payload with
 * no readable version, goes on to the handler (which rejects garbage as
 * unrecoverable). Throws DelayedError when the job was put back.
 */
export async function deferNewerJob(job: Job, token: string | undefined, opts: DeferOptions): Promise<void> {
  const known = opts.known ?? JOB_SCHEMA_VERSION;
  const version = jobVersion(job.data);
  if (version === null || version <= known) return;
  // Some spread, so a queue full of newer jobs does not come back to the old workers all at once.
  const delay = Math.round(opts.delayMs * (1 + Math.random() * 0.2));
  await job.moveToDelayed(Date.now() + delay, token);
  opts.metrics?.jobsDeferred.inc({ agent: opts.agent, job: job.name, version: String(version) });
  opts.log.warn(
    { jobId: job.id, job: job.name, jobVersion: version, knownVersion: known, delayMs: delay },
    'job of a newer schema version left for a newer worker',
  );
  throw new DelayedError();
}
