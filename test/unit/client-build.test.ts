import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/processes.js';

/**
 * The published form of @convo/client: `npm run build -w @convo/client`
 * writes one ES module and its declarations to packages/client/dist. The
 * module must stand alone (no import a browser could not resolve), load in
 * Node, and talk to a server like the source does.
 */
const DIST = join(REPO_ROOT, 'packages', 'client', 'dist');

let server: Server;
let base: string;
const seen: Array<{ method: string; url: string; contentType: string | undefined; body: string }> = [];

beforeAll(async () => {
  await promisify(execFile)('npm', ['run', 'build', '-w', '@convo/client'], { cwd: REPO_ROOT, timeout: 120_000 });
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', contentType: req.headers['content-type'], body });
      res
        .writeHead(201, { 'content-type': 'application/json' })
        .end(JSON.stringify({ sessionId: 's-1', token: 't-1', eventsUrl: '/v1/sessions/s-1/events' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 150_000);
afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
});

describe('@convo/client as built', () => {
  it('is one ES module with no imports left, and its declarations', () => {
    const code = readFileSync(join(DIST, 'index.js'), 'utf8');
    expect(code).not.toMatch(/^\s*import\s/m);
    expect(code).not.toMatch(/\brequire\(/);
    expect(readFileSync(join(DIST, 'index.d.ts'), 'utf8')).toMatch(/createClient/);
  });

  it('loads in Node and creates a session over HTTP', async () => {
    const built = (await import(pathToFileURL(join(DIST, 'index.js')).href)) as typeof import('@convo/client');
    expect(built.EVENT_TYPE_NAMES).toContain('turn.completed');
    const client = built.createClient({ baseUrl: base });
    const created = await client.sessions.create({ kind: 'faq' });
    expect(created).toMatchObject({ sessionId: 's-1', token: 't-1' });
    expect(seen.at(-1)).toMatchObject({
      method: 'POST',
      url: '/v1/sessions',
      contentType: 'application/json',
      body: JSON.stringify({ kind: 'faq' }),
    });
  });
});
