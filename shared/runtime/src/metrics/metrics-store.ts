import { AggregatorRegistry, type MetricObjectWithValues, type MetricValue, type Registry } from 'prom-client';
import type { RedisClient } from '../redis/connection.js';
import type { Logger } from '../logger.js';

type MetricsJson = Array<MetricObjectWithValues<MetricValue<string>>>;
type Snapshot = { at: number; service: string; metrics: MetricsJson };

/**
 * Worker metrics reach the gateway through Redis: every worker process
 * writes its registry as JSON into one hash (field = its instance id) every
 * METRICS_PUSH_MS, and the gateway's /metrics adds up the fresh entries with
 * prom-client's aggregator (counters and histograms summed over replicas).
 * One HGETALL per scrape, whatever the key space; entries of processes that
 * stopped publishing are dropped after three intervals.
 */
export function metricsKey(prefix: string): string {
  return `${prefix}:metrics`;
}

export function startMetricsPublisher(
  redis: RedisClient,
  registry: Registry,
  opts: { prefix: string; service: string; instance: string; intervalMs: number; log: Logger },
): { stop(): Promise<void> } {
  const key = metricsKey(opts.prefix);
  const publish = async () => {
    const snapshot: Snapshot = { at: Date.now(), service: opts.service, metrics: (await registry.getMetricsAsJSON()) as MetricsJson };
    await redis.hset(key, opts.instance, JSON.stringify(snapshot));
  };
  const timer = setInterval(() => {
    publish().catch((err: unknown) => opts.log.debug({ err: err instanceof Error ? err.message : String(err) }, 'metrics publish failed'));
  }, opts.intervalMs);
  timer.unref();
  void publish().catch(() => undefined);
  return {
    // A last publish so the final counts are not lost, then the entry ages out.
    async stop() {
      clearInterval(timer);
      await publish().catch(() => undefined);
    },
  };
}

/** The published worker metrics still fresh (within three intervals), as one aggregated registry. */
export async function readWorkerMetrics(
  redis: RedisClient,
  prefix: string,
  intervalMs: number,
): Promise<{ registry: Registry; byService: Record<string, number> }> {
  const key = metricsKey(prefix);
  const entries = await redis.hgetall(key);
  const now = Date.now();
  const fresh: MetricsJson[] = [];
  const byService: Record<string, number> = {};
  const stale: string[] = [];
  for (const [instance, raw] of Object.entries(entries)) {
    try {
      const snap = JSON.parse(raw) as Snapshot;
      if (now - snap.at > intervalMs * 3) stale.push(instance);
      else {
        fresh.push(snap.metrics);
        byService[snap.service] = (byService[snap.service] ?? 0) + 1;
      }
    } catch {
      stale.push(instance);
    }
  }
  if (stale.length > 0) await redis.hdel(key, ...stale);
  return { registry: AggregatorRegistry.aggregate(fresh), byService };
}
