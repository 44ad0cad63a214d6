import { randomUUID } from 'node:crypto';
import { buildSnapshot } from '../sessions/snapshot.js';
import { NotFoundError, SystemError, ValidationError } from '@convo/runtime';
import {
  CancelTurnResponse,
  CreateSessionBody,
  CreateSessionResponse,
  ErrorResponse,
  PostTurnBody,
  PostTurnResponse,
  RunStepsResponse,
  SessionIdParams,
  SessionSnapshot,
  SubmitResponse,
} from '@convo/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { WORK_ROUTE } from '../plugins/shedding.js';
import {
  acceptTurn,
  cancelTurn,
  createSession,
  deleteSession,
  submitSession,
  takeSessionPlace,
  type NewSession,
} from '../sessions/service.js';
import type { GatewayDeps } from '../deps.js';

/** The route-specific error answers; docs/openapi.ts adds those every route of a kind gives. */
const conflict = { 409: ErrorResponse };
const TurnParams = SessionIdParams.extend({ turnId: z.string().min(1).max(100) });
const security: Array<Record<string, string[]>> = [{ bearer: [] }];

/** Session routes of docs/api.md, "Sessions and turns" (the SSE route lives in events.ts). */
export function sessionRoutes(deps: GatewayDeps): FastifyPluginAsyncZod {
  const { store, config } = deps;

  return async (app) => {
    app.post(
      '/v1/sessions',
      {
        config: WORK_ROUTE,
        schema: {
          tags: ['sessions'],
          summary: 'Create a session (form, job application or FAQ dialog)',
          body: CreateSessionBody,
          response: { 201: CreateSessionResponse },
        },
      },
      async (req, reply) => {
        const body = req.body;
        const language = body.options?.language === 'ja' || body.options?.language === 'en' ? body.options.language : null;
        // An FAQ dialog has no greeting: it waits for the first question (turns as for any session, or /agent.dialog with the token).
        const sessionId = randomUUID();
        await takeSessionPlace(deps, req, sessionId);
        const input: NewSession =
          body.kind === 'faq'
            ? { kind: 'faq', sessionId, language, faq: { access: 'token', history: [], turns: [] } }
            : { kind: body.kind, sessionId, form: body.form ?? null, language, referenceDate: body.options?.referenceDate ?? null };
        const created = await createSession(deps, input, req.log);
        if (!created) throw new SystemError('a new session id was already taken');
        return reply.status(201).send({ ...created, eventsUrl: `/v1/sessions/${created.sessionId}/events` });
      },
    );

    app.get(
      '/v1/sessions/:id',
      {
        config: { auth: 'session' },
        schema: {
          tags: ['sessions'],
          summary: "The session's snapshot: status, fields, messages, turn, last event id",
          params: SessionIdParams,
          security,
          response: { 200: SessionSnapshot },
        },
      },
      async (req) => {
        const loaded = await store.load(req.params.id);
        if (!loaded) throw new NotFoundError(`session ${req.params.id} not found`, 'session_not_found');
        return buildSnapshot(loaded);
      },
    );

    app.post(
      '/v1/sessions/:id/turns',
      {
        config: { ...WORK_ROUTE, auth: 'session' },
        schema: {
          tags: ['sessions'],
          summary: "Post the user's message as a turn (runs in order after the session's earlier turns)",
          params: SessionIdParams,
          body: PostTurnBody,
          security,
          response: { 202: PostTurnResponse, ...conflict },
        },
      },
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
          summary: 'Submit a finished interview (every required field done; for an application, audited)',
          params: SessionIdParams,
          security,
          response: { 200: SubmitResponse, ...conflict },
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
          response: { 202: CancelTurnResponse, ...conflict },
        },
      },
      async (req, reply) => reply.status(202).send(await cancelTurn(deps, req.params.id, req.params.turnId, req.log)),
    );

    app.get(
      '/v1/sessions/:id/runsteps',
      {
        config: { auth: 'session' },
        schema: {
          tags: ['sessions'],
          summary: "The agents' tool executions in this session (audit records)",
          params: SessionIdParams,
          security,
          response: { 200: RunStepsResponse },
        },
      },
      async (req) => {
        return { runSteps: await store.getRunSteps(req.params.id) };
      },
    );

    app.delete(
      '/v1/sessions/:id',
      {
        config: { auth: 'session' },
        schema: {
          tags: ['sessions'],
          summary: 'Delete the session with all its events',
          params: SessionIdParams,
          security,
          response: { 204: z.null().describe('deleted') },
        },
      },
      async (req, reply) => {
        await deleteSession(deps, req.params.id, req.log);
        return reply.status(204).send(null);
      },
    );
  };
}
