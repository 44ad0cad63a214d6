import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import { AppError } from '@convo/runtime';
import type { FastifyReply } from 'fastify';
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

const SampleSummary = z.object({
  id: z.string(),
  title: z.string(),
  kind: z.enum(['form', 'application']),
  language: z.enum(['ja', 'en']),
});

/** `GET /` (the chat page and its modules) and the sample forms its picker offers. */
export function webRoutes(deps: GatewayDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const samples = await loadSampleForms(deps.config.web.sampleFormsDir, deps.log);

    await app.register(fastifyStatic, {
      root: WEB_ROOT,
      prefix: '/',
      // Routes for the files that exist, not a catch-all: unknown paths keep the contract's 404 body.
      wildcard: false,
      index: 'index.html',
      // Revalidate every time (ETag makes that a 304): a redeployed page never mixes old and new modules.
      cacheControl: false,
      setHeaders: (reply: FastifyReply) => {
        reply.headers({
          'cache-control': 'no-cache',
          'content-security-policy': CONTENT_SECURITY_POLICY,
          'x-content-type-options': 'nosniff',
          'referrer-policy': 'no-referrer',
        });
      },
    });

    // The problem workbench page by its short name; the query (?lang=, ?worksheet=) goes along.
    app.get('/workbench', { schema: { tags: ['web'], summary: 'Redirects to the problem workbench page, /workbench.html' } }, async (req, reply) => {
      const query = req.url.indexOf('?');
      return reply.redirect(`/workbench.html${query === -1 ? '' : req.url.slice(query)}`);
    });

    app.get(
      '/samples/forms',
      { schema: { tags: ['web'], summary: 'Sample forms the chat page offers', response: { 200: z.object({ forms: z.array(SampleSummary) }) } } },
      async () => ({ forms: samples.map(({ id, title, kind, language }) => ({ id, title, kind, language })) }),
    );

    app.get(
      '/samples/forms/:id',
      {
        schema: {
          tags: ['web'],
          summary: 'One sample form, ready to send as `form` of POST /v1/sessions',
          params: z.object({ id: z.string().max(200) }),
          response: { 200: z.record(z.string(), z.unknown()) },
        },
      },
      async (req) => {
        const sample = samples.find((s) => s.id === req.params.id);
        if (!sample) throw new AppError('not_found', `no sample form ${req.params.id}`, { status: 404 });
        return sample.form;
      },
    );
  };
}
