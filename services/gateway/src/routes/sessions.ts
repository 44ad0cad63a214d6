import { randomUUID } from 'node:crypto';
import { fieldsNeedingReview, newSessionState, unresolvedRequired } from '@convo/shared/domain/form-flow';
import { buildSnapshot } from '@convo/shared/domain/snapshot';
import { ConflictError, NotFoundError, UnavailableError, ValidationError } from '@convo/shared/errors';
import { enqueueStep } from '@convo/shared/queues/catalog';
import { CreateSessionBody, CreateSessionResponse, ErrorResponse, PostTurnBody, PostTurnResponse, SessionIdParams } from '@convo/shared/schemas/api';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authorize, newToken } from '../auth.js';
import { WORK_ROUTE } from '../plugins/shedding.js';
import { acceptTurn } from '../turns.js';
import type { GatewayDeps } from '../deps.js';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse, 429: ErrorResponse, 503: ErrorResponse };
const security: Array<Record<string, string[]>> = [{ bearer: [] }, { token: [] }];

/** Session routes of API.md section 1 (the SSE route lives in events.ts). */
export function sessionRoutes(deps: GatewayDeps): FastifyPluginAsyncZod {
  const { store, config, queues } = deps;

  return async (app) => {
    app.post(
      '/v1/sessions',
      { config: WORK_ROUTE, schema: { tags: ['sessions'], body: CreateSessionBody, response: { 201: CreateSessionResponse, ...errors } } },
      async (req, reply) => {
        const body = req.body;
        const sessionId = randomUUID();
        if (body.kind === 'faq') {
          // An FAQ dialog has no greeting: it waits for the first question (turns as for any session, or /agent.dialog with the token).
          const { token, hash } = newToken();
          const language = body.options?.language === 'ja' || body.options?.language === 'en' ? body.options.language : null;
          const state = newSessionState({
            sessionId,
            kind: 'faq',
            form: null,
            language,
            firstAgent: 'planner',
            now: new Date().toISOString(),
            faq: { access: 'token', history: [], turns: [] },
          });
          await store.createIdle({ state, tokenHash: hash, agent: 'planner' });
          req.log.info({ sessionId, kind: 'faq' }, 'session created');
          return reply.status(201).send({ sessionId, token, eventsUrl: `/v1/sessions/${sessionId}/events` });
        }
        const turnId = randomUUID();
        const { token, hash } = newToken();
        const language = body.options?.language === 'ja' || body.options?.language === 'en' ? body.options.language : null;
        const state = newSessionState({
          sessionId,
          kind: body.kind,
          form: body.form ?? null,
          language,
          firstAgent: 'greeter',
          now: new Date().toISOString(),
        });
        const step = await store.create({ state, tokenHash: hash, agent: 'greeter', turnId });
        await enqueueStep(queues, config, sessionId, step);
        req.log.info({ sessionId, turnId, kind: body.kind }, 'session created');
        return reply.status(201).send({ sessionId, token, eventsUrl: `/v1/sessions/${sessionId}/events` });
      },
    );

    app.get(
      '/v1/sessions/:id',
      { schema: { tags: ['sessions'], params: SessionIdParams, security, response: { 200: z.record(z.string(), z.unknown()), ...errors } } },
      async (req) => {
        await authorize(store, req, req.params.id);
        const loaded = await store.load(req.params.id);
        if (!loaded) throw new NotFoundError(`session ${req.params.id} not found`, 'session_not_found');
        return buildSnapshot(loaded);
      },
    );

    app.post(
      '/v1/sessions/:id/turns',
      { config: WORK_ROUTE, schema: { tags: ['sessions'], params: SessionIdParams, body: PostTurnBody, security, response: { 202: PostTurnResponse, ...errors } } },
      async (req, reply) => {
        const sessionId = req.params.id;
        await authorize(store, req, sessionId);
        const { message, idempotencyKey, multitask } = req.body;
        if (message.length > config.maxMessageChars) {
          throw new ValidationError(`message is ${message.length} characters; the limit is ${config.maxMessageChars}`, 'message_too_long');
        }
        const r = await acceptTurn(deps, req, reply, { sessionId, turnId: randomUUID(), message, idempotencyKey, multitask });
        return reply.status(202).send({ turnId: r.turnId, position: r.position });
      },
    );

    app.post(
      '/v1/sessions/:id/submit',
      {
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
      async (req) => {
        const sessionId = req.params.id;
        await authorize(store, req, sessionId);
        for (let attempt = 0; attempt < 5; attempt++) {
          const loaded = await store.load(sessionId);
          if (!loaded) throw new NotFoundError(`session ${sessionId} not found`, 'session_not_found');
          const st = loaded.state;
          const body = { sessionId, status: 'submitted', collectedFields: st.collectedFields, needsReview: fieldsNeedingReview(st), audit: st.audit };
          if (st.status === 'submitted') return body;
          const missing = unresolvedRequired(st);
          if (missing.length > 0) throw new ConflictError('not_ready', `required fields are not done: ${missing.join(', ')}`);
          if (st.kind === 'application' && st.audit === null) throw new ConflictError('not_ready', 'the audit has not run yet');
          const next = { ...st, status: 'submitted' as const, updatedAt: new Date().toISOString() };
          const res = await store.commit({ sessionId, expectedVersion: loaded.version, expectedSeq: null, state: next, mode: 'none', events: [], runSteps: [] });
          if (res.ok) {
            req.log.info({ sessionId }, 'session submitted');
            return body;
          }
        }
        throw new UnavailableError('the session is changing; retry', 1);
      },
    );

    app.get(
      '/v1/sessions/:id/runsteps',
      { schema: { tags: ['sessions'], params: SessionIdParams, security, response: { 200: z.object({ runSteps: z.array(z.unknown()) }), ...errors } } },
      async (req) => {
        await authorize(store, req, req.params.id);
        return { runSteps: await store.getRunSteps(req.params.id) };
      },
    );

    app.delete(
      '/v1/sessions/:id',
      { schema: { tags: ['sessions'], params: SessionIdParams, security, response: { 204: z.null(), ...errors } } },
      async (req, reply) => {
        await authorize(store, req, req.params.id);
        await store.delete(req.params.id);
        req.log.info({ sessionId: req.params.id }, 'session deleted');
        return reply.status(204).send(null);
      },
    );
  };
}
