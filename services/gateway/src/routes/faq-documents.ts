import { NotFoundError } from '@convo/runtime';
import { ErrorResponse, FaqDocument, FaqDocumentInput } from '@convo/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { GatewayDeps } from '../deps.js';
import { csvRecords, jsonRecords, toDocuments } from '../faq/uploads.js';

const unavailable = { 503: ErrorResponse };

/** What POST /faq/documents takes as JSON: one document, an array, or `{ documents }` (the CSV form is described beside it). */
const UploadJson = z.union([FaqDocumentInput, z.array(FaqDocumentInput), z.object({ documents: z.array(FaqDocumentInput) })]);
const UploadCsv = z
  .string()
  .describe('CSV with a header row: question, answer, and optionally id, tags (separated by | or ;), language (ja or en)');

/** The FAQ corpus (docs/api.md, "FAQ"): list, upsert (JSON or CSV), delete. Every search replica follows the changes. */
export function faqDocumentRoutes(deps: GatewayDeps): FastifyPluginAsyncZod {
  const { config, corpus } = deps;

  return async (app) => {
    app.addContentTypeParser(
      ['text/csv', 'application/csv'],
      { parseAs: 'string', bodyLimit: config.faq.maxUploadBytes },
      (_req, body, done) => done(null, body),
    );

    app.get(
      '/faq/documents',
      {
        schema: {
          tags: ['faq'],
          summary: 'The corpus, sorted by id, optionally one language, paginated',
          querystring: z.object({
            language: z.enum(['ja', 'en']).optional(),
            limit: z.coerce.number().int().min(1).max(10_000).default(1000),
            offset: z.coerce.number().int().min(0).default(0),
          }),
          response: { 200: z.object({ documents: z.array(FaqDocument), total: z.number(), version: z.number() }), ...unavailable },
        },
      },
      async (req) => {
        const { documents, version } = await corpus.list();
        const filtered = req.query.language ? documents.filter((doc) => doc.language === req.query.language) : documents;
        return { documents: filtered.slice(req.query.offset, req.query.offset + req.query.limit), total: filtered.length, version };
      },
    );

    app.post(
      '/faq/documents',
      {
        // Writes need `Authorization: Bearer <FAQ_WRITE_KEY>` when that key is configured.
        // The body is parsed and checked by toDocuments (JSON or CSV); the schemas in `docs` describe it.
        config: {
          auth: 'faqWrite',
          docs: { requestContent: { 'application/json': UploadJson, 'text/csv': UploadCsv, 'application/csv': UploadCsv } },
        },
        bodyLimit: config.faq.maxUploadBytes,
        schema: {
          tags: ['faq'],
          summary: 'Upsert documents: JSON (one, an array, or { documents }) or text/csv with a header row; all or nothing',
          response: {
            200: z.object({
              upserted: z.number(),
              created: z.number(),
              updated: z.number(),
              ids: z.array(z.string()),
              version: z.number(),
            }),
            403: ErrorResponse,
            ...unavailable,
          },
        },
      },
      async (req) => {
        const docs = await toDocuments(typeof req.body === 'string' ? await csvRecords(req.body) : jsonRecords(req.body));
        const upserted = await corpus.upsert(docs, config.faq.maxDocs);
        req.log.info({ upserted: docs.length, created: upserted.created, corpusVersion: upserted.version }, 'faq documents upserted');
        return {
          upserted: docs.length,
          created: upserted.created,
          updated: upserted.updated,
          ids: docs.map((doc) => doc.id),
          version: upserted.version,
        };
      },
    );

    app.delete(
      '/faq/documents/:id',
      {
        config: { auth: 'faqWrite' },
        schema: {
          tags: ['faq'],
          summary: 'Delete one document',
          params: z.object({ id: z.string().min(1).max(200) }),
          response: { 204: z.null().describe('deleted'), 403: ErrorResponse, 404: ErrorResponse, ...unavailable },
        },
      },
      async (req, reply) => {
        const removed = await corpus.remove([req.params.id]);
        if (removed.removed === 0) throw new NotFoundError(`FAQ document ${req.params.id} not found`, 'document_not_found');
        return reply.status(204).send(null);
      },
    );
  };
}
