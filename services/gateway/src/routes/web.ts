import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import { AppError } from '@convo/runtime';
import { SessionForm } from '@convo/contract';
import type { FastifyBaseLogger, FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { GatewayDeps } from '../deps.js';
import { loadSampleForms } from '../web/sample-forms.js';

/** The chat page's files: plain ES modules, served as they are (no build step). */
export const WEB_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'web');

/**
 * The page talks to this same origin only; nothing inline, nothing from elsewhere.
 * The policy is what keeps a message that carries markup from ever running as script.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Every file of the pages is sent with these. */
const PAGE_HEADERS = {
  // Revalidate every time (ETag makes that a 304): a redeployed page never mixes old and new modules.
  'cache-control': 'no-cache',
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

/** Where the pages import the client package from (services/gateway/web imports `/lib/convo-client.js`). */
export const CLIENT_BUNDLE_PATH = '/lib/convo-client.js';

type Bundle = { code: string; etag: string };

const CLIENT_BUNDLE_BODY = z
  .string()
  .describe('An ES module (ES2022) exporting what @convo/client exports; revalidate with If-None-Match (304 when unchanged).');

/**
 * @convo/client as one ES module for the pages, so they need no build step and always run the
 * client the services were started with. Compiled (`npm run build`, the image), `@convo/client`
 * resolves to the package's own bundle, which is served as it is: the gateway runs no compiler.
 * Under tsx (development) it resolves to the TypeScript, bundled here once with esbuild, a
 * development dependency imported only then.
 */
function clientBundle(log: FastifyBaseLogger): () => Promise<Bundle> {
  let pending: Promise<Bundle> | null = null;
  const start = async (): Promise<Bundle> => {
    const entry = fileURLToPath(import.meta.resolve('@convo/client'));
    const code = entry.endsWith('.js') ? await readFile(entry, 'utf8') : await bundleSources(entry);
    return { code, etag: `"${createHash('sha256').update(code).digest('base64url').slice(0, 27)}"` };
  };
  return () => {
    pending ??= start().catch((err: unknown) => {
      // Not kept: the next request builds again.
      pending = null;
      log.error({ err }, 'the client bundle could not be built');
      throw err;
    });
    return pending;
  };
}

async function bundleSources(entry: string): Promise<string> {
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    legalComments: 'none',
    logLevel: 'silent',
  });
  return result.outputFiles[0]?.text ?? '';
}

const SampleSummary = z.object({
  id: z.string(),
  title: z.string(),
  kind: z.enum(['form', 'application']),
  language: z.enum(['ja', 'en']),
});

/** `GET /` (the chat page and its modules) and the sample forms its picker offers. */
export function webRoutes(deps: GatewayDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const samples = await loadSampleForms(deps.config.forms.sampleFormsDir, deps.log);
    const bundle = clientBundle(deps.log);
    // Built now, so the first page load does not wait; a failure is logged and retried on request.
    bundle().catch(() => undefined);

    await app.register(fastifyStatic, {
      root: WEB_ROOT,
      prefix: '/',
      // Routes for the files that exist, not a catch-all: unknown paths keep the contract's 404 body.
      wildcard: false,
      index: 'index.html',
      cacheControl: false,
      setHeaders: (reply: FastifyReply) => {
        reply.headers(PAGE_HEADERS);
      },
    });

    app.get(
      CLIENT_BUNDLE_PATH,
      {
        schema: { tags: ['web'], summary: 'The @convo/client package as one ES module, for the pages' },
        config: { docs: { responseContent: { 'text/javascript': CLIENT_BUNDLE_BODY } } },
      },
      async (req, reply) => {
        const { code, etag } = await bundle();
        reply.headers(PAGE_HEADERS).header('etag', etag);
        if (req.headers['if-none-match'] === etag) return reply.status(304).send();
        return reply.type('text/javascript; charset=utf-8').send(code);
      },
    );

    // The problem workbench page by its short name; the query (?lang=, ?worksheet=) goes along.
    // A page, like the static files, so not an operation of the API description.
    app.get('/workbench', { schema: { hide: true } }, async (req, reply) => {
      const query = req.url.indexOf('?');
      return reply.redirect(`/workbench.html${query === -1 ? '' : req.url.slice(query)}`);
    });

    app.get(
      '/samples/forms',
      {
        schema: {
          tags: ['web'],
          summary: 'Sample forms the chat page offers',
          response: { 200: z.object({ forms: z.array(SampleSummary) }) },
        },
      },
      async () => ({ forms: samples.map(({ id, title, kind, language }) => ({ id, title, kind, language })) }),
    );

    app.get(
      '/samples/forms/:id',
      {
        schema: {
          tags: ['web'],
          summary: 'One sample form, ready to send as `form` of POST /v1/sessions',
          params: z.object({ id: z.string().max(200) }),
          response: { 200: SessionForm },
        },
        config: { docs: { errors: [404] } },
      },
      async (req) => {
        const sample = samples.find((s) => s.id === req.params.id);
        if (!sample) throw new AppError('not_found', `no sample form ${req.params.id}`, { status: 404 });
        return sample.form;
      },
    );
  };
}
