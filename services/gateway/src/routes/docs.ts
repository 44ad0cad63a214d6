import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { buildAsyncApi } from '../docs/asyncapi.js';

/** The release of the public contract the descriptions carry (the API's path is /v1; this moves with additive changes). */
export const API_VERSION = '1.1.0';

/** GET /docs/asyncapi.json: the AsyncAPI 3 description of the event streams (the OpenAPI one is /docs/json). */
export const docsRoutes: FastifyPluginAsyncZod = async (app) => {
  const document = buildAsyncApi(API_VERSION);
  app.get('/docs/asyncapi.json', { schema: { hide: true } }, async (_req, reply) => reply.type('application/json').send(document));
};
