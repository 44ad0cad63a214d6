import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inSpan, startTracing, tracingConfig } from '@convo/runtime';

/**
 * The OTLP exporters as the processes install them (startTracing with the
 * OTEL_* settings, no test exporter), against a real HTTP receiver: the
 * default encoding is protobuf, `http/json` sends JSON, both to the traces
 * path of OTEL_EXPORTER_OTLP_ENDPOINT.
 */
type Received = { path: string | undefined; headers: IncomingHttpHeaders; body: Buffer };

const received: Received[] = [];
let server: Server;
let endpoint: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ path: req.url, headers: req.headers, body: Buffer.concat(chunks) });
      // An empty ExportTraceServiceResponse in either encoding.
      const json = req.headers['content-type']?.includes('json');
      res.writeHead(200, { 'content-type': json ? 'application/json' : 'application/x-protobuf' }).end(json ? '{}' : Buffer.alloc(0));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

/** Installs tracing from `env`, makes one span, and returns what the receiver got when the provider shut down. */
async function exportOneSpan(env: Record<string, string>, name: string): Promise<{ sent: Received; traceId: string }> {
  received.length = 0;
  const tracing = startTracing('export-test', tracingConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, ...env }));
  const traceId = await inSpan(name, {}, async (span) => span.spanContext().traceId);
  // Shutting down flushes the batch processor.
  await tracing.shutdown();
  expect(received).toHaveLength(1);
  return { sent: received[0]!, traceId };
}

describe('OTLP export over HTTP', () => {
  it('sends protobuf by default, to <endpoint>/v1/traces', async () => {
    const { sent, traceId } = await exportOneSpan({}, 'protobuf check');
    expect(sent.path).toBe('/v1/traces');
    expect(sent.headers['content-type']).toBe('application/x-protobuf');
    // Protobuf carries the span name as its UTF-8 bytes and the trace id as 16 raw bytes.
    expect(sent.body.includes(Buffer.from('protobuf check'))).toBe(true);
    expect(sent.body.includes(Buffer.from(traceId, 'hex'))).toBe(true);
    expect(() => JSON.parse(sent.body.toString('utf8'))).toThrow();
  });

  it('sends JSON with OTEL_EXPORTER_OTLP_PROTOCOL=http/json', async () => {
    const { sent, traceId } = await exportOneSpan({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' }, 'json check');
    expect(sent.headers['content-type']).toBe('application/json');
    const body = JSON.parse(sent.body.toString('utf8')) as {
      resourceSpans: Array<{
        resource: { attributes: Array<{ key: string; value: { stringValue?: string } }> };
        scopeSpans: Array<{ spans: Array<{ name: string; traceId: string }> }>;
      }>;
    };
    const spans = body.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans));
    expect(spans).toEqual([expect.objectContaining({ name: 'json check', traceId })]);
    expect(body.resourceSpans[0]!.resource.attributes).toContainEqual({ key: 'service.name', value: { stringValue: 'convo-export-test' } });
  });
});
