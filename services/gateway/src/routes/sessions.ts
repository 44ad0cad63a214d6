import { randomUUID } from 'node:crypto';
import { buildSnapshot } from '../sessions/snapshot.js';
import {
  CreateSessionBody,
  CreateSessionResponse,
  ErrorResponse,
  NotFoundError,
  PostTurnBody,
  PostTurnResponse,
  SessionIdParams,
  SystemError,
  ValidationError,
} from '@convo/runtime';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { WORK_ROUTE } from '../plugins/shedding.js';
import { acceptTurn, cancelTurn, createSession, deleteSession, submitSession, type NewSession } from '../sessions/service.js';
import type { GatewayDeps } from '../deps.js';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse, 429: ErrorResponse, 503: ErrorResponse };
const TurnParams = SessionIdParams.extend({ turnId: z.string().min(1).max(100) });
const security: Array<Record<string, string[]>> = [{ bearer: [] }, { token: [] }];

/** Session routes of docs/API.md section 1 (the SSE route lives in events.ts). */
export function sessionRoutes(deps: GatewayDeps): FastifyPluginAsyncZod {
  const { store, config } = deps;

  return async (app) => {
    app.post(
      '/v1/sessions',
      { config: WORK_ROUTE, schema: { tags: ['sessions'], body: CreateSessionBody, response: { 201: CreateSessionResponse, ...errors } } },
      async (req, reply) => {
        const body = req.body;
        const language = body.options?.language === 'ja' || body.options?.language === 'en' ? body.options.language : null;
        // An FAQ dialog has no greeting: it waits for the first question (turns as for any session, or /agent.dialog with the token).
        const input: NewSession =
          body.kind === 'faq' ? { kind: 'faq', language, faq: { access: 'token', history: [], turns: [] } } : { kind: body.kind, form: body.form ?? null, language };
        const created = await createSession(deps, input, req.log);
        if (!created) throw new SystemError('a new session id was already taken');
        return reply.status(201).send({ ...created, eventsUrl: `/v1/sessions/${created.sessionId}/events` });
      },
    );

    app.get(
      '/v1/sessions/:id',
      { config: { auth: 'session' }, schema: { tags: ['sessions'], params: SessionIdParams, security, response: { 200: z.record(z.string(), z.unknown()), ...errors } } },
      async (req) => {
        const loaded = await store.load(req.params.id);
        if (!loaded) throw new NotFoundError(`session ${req.params.id} not found`, 'session_not_found');
        return buildSnapshot(loaded);
      },
    );

    app.post(
      '/v1/sessions/:id/turns',
      { config: { ...WORK_ROUTE, auth: 'session' }, schema: { tags: ['sessions'], params: SessionIdParams, body: PostTurnBody, security, response: { 202: PostTurnResponse, ...errors } } },
      async (req, reply) => {
        const sessionId = req.params.id;
        const { message, idempotencyKey, multitask } = req.body;
        if (message.length > config.maxMessageChars) {
          throw new ValidationError(`message is ${message.length} characters; the limit is ${config.maxMessageChars}`, 'message_too_long');
        }
        const accepted = await acceptTurn(deps, req, reply, { sessionId, turnId: randomUUID(), message, idempotencyKey, multitask });
        return reply.status(202).send({ turnId: accepted.turnId, position: accepted.position });
      },
    );

    app.post(
      '/v1/sessions/:id/submit',
      {
        config: { auth: 'session' },
        schema: {
          tags: ['sessions'],
          params: SessionIdParams,
          security,
          response: {
            200: z.object({
              sessionId: z.string(),
              status: z.string(),
              collectedFields: z.record(z.string(), z.string()),
              needsReview: z.array(z.string()),
              audit: z.unknown(),
            }),
            ...errors,
          },
        },
      },
      async (req) => submitSession(deps, req.params.id, req.log),
    );

    app.post(
      '/v1/sessions/:id/turns/:turnId/cancel',
      {
        config: { auth: 'session' },
        schema: {
          tags: ['sessions'],
          summary: 'Cancel a queued or running turn (turn.failed with code cancelled)',
          params: TurnParams,
          security,
          response: { 202: z.object({ turnId: z.string(), status: z.enum(['cancelled', 'cancelling']) }), ...errors },
        },
      },
      async (req, reply) => reply.status(202).send(await cancelTurn(deps, req.params.id, req.params.turnId, req.log)),
    );

    app.get(
      '/v1/sessions/:id/runsteps',
      { config: { auth: 'session' }, schema: { tags: ['sessions'], params: SessionIdParams, security, response: { 200: z.object({ runSteps: z.array(z.unknown()) }), ...errors } } },
      async (req) => {
        return { runSteps: await store.getRunSteps(req.params.id) };
      },
    );

    app.delete(
      '/v1/sessions/:id',
      { config: { auth: 'session' }, schema: { tags: ['sessions'], params: SessionIdParams, security, response: { 204: z.null(), ...errors } } },
      async (req, reply) => {
        await deleteSession(deps, req.params.id, req.log);
        return reply.status(204).send(null);
      },
    );
  };
}
