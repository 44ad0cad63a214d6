import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startService, type ServiceProcess } from '../support/processes.js';

/** The gateway serves the chat page and the forms its picker offers (a gateway process on a real Redis). */
let gateway: ServiceProcess;
let base: string;

beforeAll(async () => {
  const id = randomUUID().slice(0, 8);
  // The sample folder holds the shipped forms plus one broken file, which must be left out, not fatal.
  const dir = mkdtempSync(join(tmpdir(), 'samples-'));
  writeFileSync(join(dir, 'broken.json'), '{ "title": "no fields" }');
  writeFileSync(
    join(dir, 'tiny-ja.json'),
    JSON.stringify({
      title: '連絡先',
      fields: [{ id: 'f1', fieldId: 'email', label: 'メール', intent: '連絡', required: true, sortOrder: 1 }],
    }),
  );
  gateway = await startService('gateway', {
    REDIS_URL: inject('redisUrl'),
    KEY_PREFIX: `webpage-${id}`,
    QUEUE_PREFIX: `{webpage-${id}}`,
    PORT: '0',
    HOST: '127.0.0.1',
    SAMPLE_FORMS_DIR: dir,
    FAQ_SEED_FILE: '',
  });
  base = `http://127.0.0.1:${gateway.port}`;
});
afterAll(async () => {
  await gateway?.kill();
});

describe('chat page', () => {
  it('serves the page at / with a strict content security policy and revalidation', async () => {
    const res = await fetch(`${base}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(res.headers.get('content-security-policy')).toContain("connect-src 'self'");
    expect(res.headers.get('cache-control')).toBe('no-cache');
    const html = await res.text();
    expect(html).toContain('<script type="module" src="/app.js"></script>');
    const etag = res.headers.get('etag');
    expect(etag).toBeTruthy();
    // node:http, not fetch: fetch adds its own cache headers to a conditional request.
    const revalidated = await new Promise<number | undefined>((resolve, reject) =>
      get(`${base}/`, { headers: { 'if-none-match': etag ?? '' } }, (response) => {
        response.resume();
        resolve(response.statusCode);
      }).on('error', reject),
    );
    expect(revalidated).toBe(304);
  });

  it('serves the page modules as JavaScript, and unknown paths as the contract 404', async () => {
    for (const path of ['/app.js', '/lib/session-view.js', '/lib/convo-client.js', '/styles.css']) {
      const res = await fetch(`${base}${path}`);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type'), path).toMatch(path.endsWith('.css') ? /^text\/css/ : /^(application|text)\/javascript/);
    }
    const missing = await fetch(`${base}/lib/nope.js`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ error: { code: 'not_found' } });
    const outside = await fetch(`${base}/..%2f..%2fpackage.json`);
    expect(outside.status).toBe(404);
  });

  it('serves @convo/client bundled into one ES module, under the page policy, revalidated by ETag', async () => {
    const res = await fetch(`${base}/lib/convo-client.js`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(res.headers.get('cache-control')).toBe('no-cache');
    const code = await res.text();
    // Self-contained (no import left for the browser to resolve) and free of zod.
    expect(code).toMatch(/export \{[^}]*createClient/);
    expect(code).not.toMatch(/^import /m);
    expect(code).not.toContain('zod');
    const etag = res.headers.get('etag') ?? '';
    const revalidated = await new Promise<number | undefined>((resolve, reject) =>
      get(`${base}/lib/convo-client.js`, { headers: { 'if-none-match': etag } }, (response) => {
        response.resume();
        resolve(response.statusCode);
      }).on('error', reject),
    );
    expect(revalidated).toBe(304);
  });

  it('lists the valid sample forms with kind and language, and hands one out ready for POST /v1/sessions', async () => {
    const list = await (await fetch(`${base}/samples/forms`)).json();
    expect(list.forms).toEqual([{ id: 'tiny-ja', title: '連絡先', kind: 'form', language: 'ja' }]);
    const form = await (await fetch(`${base}/samples/forms/tiny-ja`)).json();
    expect(form).toMatchObject({ title: '連絡先', fields: [{ fieldId: 'email' }] });

    const created = await fetch(`${base}/v1/sessions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'form', form }),
    });
    expect(created.status).toBe(201);

    const unknown = await fetch(`${base}/samples/forms/nope`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ error: { code: 'not_found', message: 'no sample form nope' } });
    expect(gateway.lines.some((l) => l.includes('skipping an invalid sample form') && l.includes('broken.json'))).toBe(true);
  });
});
