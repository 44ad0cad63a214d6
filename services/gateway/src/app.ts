import cors from '@fastify/cors';
import helmet from '@fastify/helmet';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance, LogController } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { authenticate } from './auth.js';
import { completeErrorResponses, openApiOptions } from './docs/openapi.js';
import type { GatewayDeps } from './deps.js';
import { ADMIN_PREFIX, adminPlugin } from './plugins/admin.js';
import { clientErrorHandler, frameworkErrors, registerErrorHandling } from './plugins/errors.js';
import { HELMET_OPTIONS, helmetHeaders } from './plugins/security-headers.js';
import { sheddingPlugin } from './plugins/shedding.js';
import { tracingPlugin } from './plugins/tracing.js';
import { eventRoutes } from './routes/events.js';
import { faqDialogRoutes } from './routes/faq-dialog.js';
import { faqDocumentRoutes } from './routes/faq-documents.js';
import { healthRoutes } from './routes/health.js';
import { metricsRoutes } from './routes/metrics.js';
import { operatorRoutes } from './routes/operator.js';
import { sessionRoutes } from './routes/sessions.js';
import { webRoutes } from './routes/web.js';
import { workbenchRoutes } from './routes/workbench.js';
import { API_VERSION, docsRoutes } from './routes/docs.js';

/** Builds the gateway without listening, so tests can `inject()` or listen on port 0. */
export async function buildApp(deps: GatewayDeps): Promise<FastifyInstance> {
  const securityHeaders = helmetHeaders(HELMET_OPTIONS);
  const app = Fastify({
    // pino's Logger is a FastifyBaseLogger; the cast keeps Fastify's default generic so plugins type-check.
    loggerInstance: deps.log as unknown as import('fastify').FastifyBaseLogger,
    bodyLimit: 1024 * 1024,
    trustProxy: deps.config.load.trustProxy,
    frameworkErrors: frameworkErrors(securityHeaders),
    clientErrorHandler: clientErrorHandler(securityHeaders),
    // One access line per answer (below) instead of Fastify's two, and none for shed answers.
    logController: new LogController({ disableRequestLogging: true }),
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);
  // Security headers on every answer (SSE streams copy them, see openEventStream). The pages load only their own scripts.
  await app.register(helmet, HELMET_OPTIONS);
  // Without a body parser for text/plain, such a body is refused as the contract says (415), not taken as a JSON string.
  app.removeContentTypeParser('text/plain');
  // Closed unless configured: without CORS_ORIGINS a browser on another origin cannot read any answer.
  const origins = deps.config.corsOrigins;
  if (origins.length > 0) {
    await app.register(cors, {
      origin: origins.includes('*') ? true : [...origins],
      methods: ['GET', 'POST', 'PATCH', 'DELETE'],
      allowedHeaders: ['authorization', 'content-type', 'idempotency-key', 'last-event-id', 'traceparent', 'tracestate'],
      exposedHeaders: ['x-session-id', 'x-turn-id', 'x-session-token', 'retry-after', 'x-trace-id'],
      maxAge: 600,
    });
  }

  // Every route's description gets the error answers of its kind before the routes below are added.
  app.addHook('onRoute', completeErrorResponses);
  await app.register(swagger, openApiOptions(API_VERSION));
  await app.register(swaggerUi, { routePrefix: '/docs' });
  await app.register(docsRoutes);

  await app.register(sheddingPlugin, deps);
  await app.register(tracingPlugin);
  // The access log. Shed answers are counted (convo_shed_requests_total), not logged: a flood would write a line for each.
  app.addHook('onResponse', async (req, reply) => {
    if (req.shed) return;
    req.log.info({ req, res: { statusCode: reply.statusCode }, responseTime: reply.elapsedTime }, 'request completed');
  });
  app.addHook('preHandler', authenticate(deps));
  await app.register(healthRoutes(deps));
  await app.register(metricsRoutes(deps));
  await app.register(operatorRoutes(deps));
  await app.register(adminPlugin, { ...deps, prefix: ADMIN_PREFIX });
  await app.register(sessionRoutes(deps));
  await app.register(eventRoutes(deps));
  await app.register(faqDialogRoutes(deps));
  await app.register(faqDocumentRoutes(deps));
  await app.register(workbenchRoutes(deps));
  await app.register(webRoutes(deps));
  return app;
}
