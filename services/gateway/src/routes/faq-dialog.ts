import { randomUUID } from 'node:crypto';
import { ValidationError } from '@convo/runtime';
import {
  AgentDialogRequest,
  AgentDialogResponse,
  AgentSearchRequest,
  AgentSearchResponse,
  ErrorResponse,
  resolveDialogOptions,
} from '@convo/contract';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { GatewayDeps } from '../deps.js';
import { EVENT_STREAM_BODY } from '../docs/openapi.js';
import { searchOnce } from '../faq/search-query.js';
import { requestedEventId } from '../sse/event-id.js';
import { WORK_ROUTE } from '../plugins/shedding.js';
import { awaitDialogTurn, followDialogTurn, openDialog } from '../sessions/dialog.js';
import { acceptTurn } from '../sessions/service.js';

/** The route-specific error answers; docs/openapi.ts adds those every route of a kind gives. */
const errors = { 401: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse, 502: ErrorResponse, 504: ErrorResponse };

/** 16 to 200 visible ASCII characters: a key names a new dialog, so one that is easy to guess (`1`) is refused. */
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{16,200}$/;

/** The `Idempotency-Key` header: a retry with the same key (and body) gets the same turn, never a second one. */
function idempotencyKeyOf(req: FastifyRequest): string | undefined {
  const raw = req.headers['idempotency-key'];
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string' || !IDEMPOTENCY_KEY.test(raw)) {
    throw new ValidationError(
      'Idempotency-Key must be 16 to 200 visible ASCII characters (a UUID, for example)',
      'invalid_idempotency_key',
    );
  }
  return raw;
}

function wantsEventStream(req: FastifyRequest): boolean {
  return /text\/event-stream/i.test(String(req.headers.accept ?? ''));
}

/**
 * POST /agent.search and POST /agent.dialog (docs/api.md, "4. FAQ"; docs/seeds/002 §4). Both
 * only enqueue: the search agent and the planner do the work in their own
 * processes, and the gateway waits for it without polling.
 */
export function faqDialogRoutes(deps: GatewayDeps): FastifyPluginAsyncZod {
  const { config } = deps;

  return async (app) => {
    app.post(
      '/agent.search',
      {
        config: WORK_ROUTE,
        schema: {
          tags: ['faq'],
          summary: 'Single-shot FAQ search with an answer from the best hit',
          body: AgentSearchRequest,
          response: { 200: AgentSearchResponse, 502: ErrorResponse, 504: ErrorResponse },
        },
      },
      async (req) => searchOnce(deps, req.body),
    );

    app.post(
      '/agent.dialog',
      {
        config: { ...WORK_ROUTE, docs: { responseContent: { 'text/event-stream': EVENT_STREAM_BODY } } },
        schema: {
          tags: ['faq'],
          summary: "One FAQ dialog turn: JSON by default, the turn's events with Accept: text/event-stream",
          body: AgentDialogRequest,
          headers: z
            .object({
              'idempotency-key': z
                .string()
                .optional()
                .describe('a retry with the same key gets the same turn (and, without sessionId, the same new dialog)'),
              authorization: z.string().optional().describe('Bearer <sessionToken> to continue a dialog'),
              'last-event-id': z.string().optional().describe('streamed form: resume the turn after this event id'),
            })
            .passthrough(),
          response: { 200: AgentDialogResponse, ...errors },
        },
      },
      async (req, reply) => {
        const body = req.body;
        const options = resolveDialogOptions(body.options, { topK: config.faq.topK });
        if (options.mode === 'crew' && !config.faq.crewUrl) {
          throw new ValidationError('mode "crew" needs an external orchestrator: set CREW_URL', 'crew_not_configured');
        }
        const idempotencyKey = idempotencyKeyOf(req);
        const resumeFrom = requestedEventId(req);
        const started = performance.now();
        const { sessionId, lastEventId, sessionToken } = await openDialog(deps, req, body, options.language, idempotencyKey);
        const accepted = await acceptTurn(deps, req, reply, {
          sessionId,
          turnId: randomUUID(),
          message: body.message,
          idempotencyKey,
          multitask: 'enqueue',
          options,
        });
        const turnId = accepted.turnId;
        reply.header('x-session-id', sessionId).header('x-turn-id', turnId);
        if (sessionToken) reply.header('x-session-token', sessionToken);
        const repeated = accepted.outcome === 'duplicate';

        if (wantsEventStream(req)) return followDialogTurn(deps, req, reply, { sessionId, turnId, lastEventId, repeated, resumeFrom });
        const result = await awaitDialogTurn(deps, { sessionId, turnId, lastEventId, repeated, started });
        return sessionToken ? { ...result, sessionToken } : result;
      },
    );
  };
}
