import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { collectDefaultMetrics, Registry } from 'prom-client';

export type HealthChecks = {
  /** Ready to take jobs: Redis answers and the worker is not shutting down. */
  ready(): Promise<boolean>;
  /** This process's own metrics (the gateway's /metrics shows every replica's added up). */
  registry: Registry;
};

/**
 * A worker process's own probes on HEALTH_PORT: `/healthz` (the process
 * answers), `/readyz` (200 only when it can take jobs), `/metrics`
 * (Prometheus text: its own figures plus Node process metrics). Plain
 * node:http: three GET routes do not need a framework in every worker.
 */
export async function startHealthServer(port: number, checks: HealthChecks): Promise<{ port: number; close(): Promise<void> }> {
  const processMetrics = new Registry();
  collectDefaultMetrics({ register: processMetrics });
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const json = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (req.method !== 'GET') return json(405, { error: { code: 'method_not_allowed', message: 'GET only' } });
    if (path === '/healthz') return json(200, { status: 'ok' });
    if (path === '/readyz') {
      checks
        .ready()
        .then((ok) =>
          ok ? json(200, { status: 'ready' }) : json(503, { error: { code: 'not_ready', message: 'redis unreachable or shutting down' } }),
        )
        .catch(() => json(503, { error: { code: 'not_ready', message: 'readiness check failed' } }));
      return;
    }
    if (path === '/metrics') {
      const merged = Registry.merge([checks.registry, processMetrics]);
      merged
        .metrics()
        .then((text) => res.writeHead(200, { 'content-type': merged.contentType }).end(text))
        .catch((err: unknown) =>
          json(500, { error: { code: 'internal_error', message: err instanceof Error ? err.message : String(err) } }),
        );
      return;
    }
    return json(404, { error: { code: 'not_found', message: `no route GET ${path}` } });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, resolve);
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
