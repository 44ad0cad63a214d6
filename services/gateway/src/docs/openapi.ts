import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import { ErrorResponse } from '@convo/contract';
import type { RouteOptions } from 'fastify';
import { createJsonSchemaTransform, createJsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { z } from 'zod';

/**
 * What the OpenAPI description says beyond a route's zod schemas: bodies and
 * answers in other media types (CSV uploads, the event stream, PDF,
 * Prometheus text). Documentation only: validation and serialization stay
 * with the zod schemas.
 */
export type RouteDocs = {
  /** Request media types besides (or instead of) the JSON body schema. */
  requestContent?: Record<string, z.ZodType>;
  /** The 200 answer in other media types, besides its JSON schema if it has one. */
  responseContent?: Record<string, z.ZodType>;
  /** Error statuses of a route whose answers are not all typed by a response schema (e.g. a binary 200). */
  errors?: number[];
};

declare module 'fastify' {
  interface FastifyContextConfig {
    docs?: RouteDocs;
  }
}

/** An event stream as OpenAPI can say it; its events are described by the AsyncAPI document. */
export const EVENT_STREAM_BODY = z
  .string()
  .describe('text/event-stream: `id:`, `event:` and `data:` lines per event. The events and their payloads: /docs/asyncapi.json');

/** What each error status means on any route; the codes are listed in docs/api.md ("Errors"). */
const ERROR_MEANINGS: Record<number, string> = {
  400: 'The request does not match its schema (`invalid_request`) or breaks a rule of the route (a more specific code).',
  401: 'Missing or wrong credentials (`unauthorized`): the session token, or the key the route needs.',
  403: 'The route is disabled in this deployment until a key is configured.',
  404: 'No such session, turn, document, worksheet or problem (`session_not_found`, `turn_not_found`, …).',
  409: 'The request conflicts with the current state of the session or problem.',
  413: 'The body is larger than the route accepts.',
  414: 'A path parameter is longer than the router accepts (`max_param_length`).',
  415: 'The body has a media type the route does not take.',
  422: 'The request is well-formed but cannot be carried out.',
  429: 'Too many requests, or too many queued turns: retry after `Retry-After` seconds.',
  500: 'A fault of the server (`internal_error`); the message reveals nothing of its internals.',
  502: 'The model provider failed or answered unusably.',
  503: 'The gateway sheds load, is shutting down, or its store is unavailable: retry after `Retry-After` seconds.',
  504: 'The work did not finish in time; repeating the request with the same idempotency key picks it up.',
};

function errorAnswer(status: number) {
  return { description: ERROR_MEANINGS[status] ?? 'Error', content: { 'application/json': { schema: ErrorResponse } } };
}

const WITH_BODY = new Set(['POST', 'PATCH', 'PUT']);

/**
 * Adds the error answers every route of a kind can give, so no route's
 * description lacks them: 400 where anything is validated, 413/415 where a
 * body is read, 401/404 behind a session token, 429/503 where work is
 * accepted (shedding, rate limit), 500 everywhere. Route-specific ones
 * (409, 422, 502, 504) are declared by the routes. Runs as an onRoute hook,
 * before the routes' serializers are compiled.
 */
export function completeErrorResponses(route: RouteOptions): void {
  const schema = route.schema as (RouteOptions['schema'] & { hide?: boolean; response?: Record<string, unknown> }) | undefined;
  if (!schema || schema.hide) return;
  const methods = [route.method].flat();
  const statuses = new Set<number>([500]);
  if (schema.params || schema.body || schema.querystring || schema.headers) statuses.add(400);
  // The router refuses an over-long path parameter before validation.
  if (schema.params) statuses.add(414);
  if (methods.some((method) => WITH_BODY.has(method))) [400, 413, 415].forEach((status) => statuses.add(status));
  const config = route.config as { auth?: string; work?: boolean; docs?: RouteDocs } | undefined;
  config?.docs?.errors?.forEach((status) => statuses.add(status));
  if (config?.auth === 'session' || config?.auth === 'sessionStream') [401, 404].forEach((status) => statuses.add(status));
  if (config?.auth === 'operator') [401, 403].forEach((status) => statuses.add(status));
  if (config?.auth === 'faqWrite') statuses.add(401);
  if (config?.work) [429, 503].forEach((status) => statuses.add(status));
  const response = (schema.response ??= {});
  for (const [status, answer] of Object.entries(response)) {
    if (answer === ErrorResponse) response[status] = errorAnswer(Number(status));
  }
  for (const status of statuses) response[status] ??= errorAnswer(status);
}

/**
 * How zod schemas become public JSON Schema, in this document and in the
 * AsyncAPI one. Answers are described as open objects: a client must ignore
 * fields it does not know (docs/api.md, "Versioning"), so a generated client
 * that rejected them would break on every additive release.
 */
export function publicSchemaOverride(ctx: { jsonSchema: Record<string, unknown> }): void {
  if (ctx.jsonSchema.additionalProperties === false) delete ctx.jsonSchema.additionalProperties;
  // zod's .readonly() is TypeScript immutability, not JSON Schema's "only in answers": a generated client would leave such a field out of requests.
  delete ctx.jsonSchema.readOnly;
}
const zodToJsonConfig = { override: publicSchemaOverride };
const jsonSchemaTransform = createJsonSchemaTransform({ zodToJsonConfig });
const jsonSchemaTransformObject = createJsonSchemaTransformObject({ zodToJsonConfig });

type TransformInput = Parameters<typeof jsonSchemaTransform>[0] & { route: RouteOptions };
type JsonSchema = Record<string, unknown>;

function toJson(schema: z.ZodType): JsonSchema {
  return z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'output', unrepresentable: 'any', ...zodToJsonConfig }) as JsonSchema;
}

/** jsonSchemaTransform, then the route's `config.docs` media types merged in. */
function transform(input: TransformInput) {
  const out = jsonSchemaTransform(input) as { schema: Record<string, unknown>; url: string };
  const docs = input.route.config?.docs;
  if (!docs || out.schema.hide) return out;
  if (docs.requestContent) {
    const content: Record<string, { schema: JsonSchema }> = {};
    if (out.schema.body) content['application/json'] = { schema: out.schema.body as JsonSchema };
    for (const [type, schema] of Object.entries(docs.requestContent)) content[type] = { schema: toJson(schema) };
    out.schema.body = { content };
  }
  if (docs.responseContent) {
    const response = (out.schema.response ??= {}) as Record<string, JsonSchema>;
    const ok = response['200'];
    const content: Record<string, { schema: JsonSchema }> = {};
    if (ok) content['application/json'] = { schema: ok };
    for (const [type, schema] of Object.entries(docs.responseContent)) content[type] = { schema: toJson(schema) };
    response['200'] = { description: (ok?.description as string | undefined) ?? 'OK', content };
  }
  return out;
}

/** @fastify/swagger's options: OpenAPI 3.1 from the routes' zod schemas; named schemas (`.meta({ id })`) become components. */
export function openApiOptions(version: string): FastifyDynamicSwaggerOptions {
  return {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Conversational agents gateway',
        version,
        description:
          'Sessions, turns, the FAQ dialog, the problem workbench and the operators’ routes. The server-sent events of a session are described by the AsyncAPI 3 document at /docs/asyncapi.json; the contract in prose is docs/api.md.',
      },
      components: {
        securitySchemes: {
          bearer: {
            type: 'http',
            scheme: 'bearer',
            description: 'The session token from POST /v1/sessions (or /agent.dialog), or FAQ_WRITE_KEY on corpus writes.',
          },
          token: {
            type: 'apiKey',
            in: 'query',
            name: 'token',
            description: 'The session token as a query parameter, for EventSource clients that cannot send headers.',
          },
        },
      },
    },
    transform: transform as FastifyDynamicSwaggerOptions['transform'],
    transformObject: jsonSchemaTransformObject,
  };
}
