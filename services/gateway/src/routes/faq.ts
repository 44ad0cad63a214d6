import { createHash, randomUUID } from 'node:crypto';
import { newSessionState } from '@convo/shared/domain/form-flow';
import { AppError, ConflictError, NotFoundError, UnauthorizedError, ValidationError } from '@convo/shared/errors';
import { detectLanguage, normalize } from '@convo/shared/faq/text/analyzer';
import {
  AgentDialogRequest,
  AgentSearchRequest,
  AgentSearchResponse,
  FaqDocument,
  FaqDocumentInput,
  resolveDialogOptions,
  SEARCH_QUERY_JOB_NAME,
  type FaqTurnResult,
  type SearchQueryJob,
} from '@convo/shared/schemas/faq';
import { ErrorResponse } from '@convo/shared/schemas/api';
import type { SessionEvent } from '@convo/shared/schemas/events';
import type { SessionState } from '@convo/shared/schemas/session';
import { parse as parseCsv } from 'csv-parse/sync';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authorize, newToken, tokenOf } from '../auth.js';
import type { GatewayDeps } from '../deps.js';
import { TurnWaiter } from '../faq/turn-waiter.js';
import { SseClient } from '../sse/sse-client.js';
import { acceptTurn } from '../turns.js';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse, 413: ErrorResponse, 429: ErrorResponse, 503: ErrorResponse, 504: ErrorResponse };

class TimeoutError extends AppError {
  constructor(message: string) {
    super('timeout', message, { status: 504 });
  }
}

/** FAQ dialog routes of API.md §2: /agent.search, /agent.dialog and the corpus. */
export function faqRoutes(deps: GatewayDeps): FastifyPluginAsyncZod {
  const { store, config, queues, corpus, hub } = deps;

  return async (app) => {
    app.addContentTypeParser(['text/csv', 'application/csv'], { parseAs: 'string', bodyLimit: config.faq.maxUploadBytes }, (_req, body, done) => done(null, body));

    app.post(
      '/agent.search',
      { schema: { tags: ['faq'], body: AgentSearchRequest, response: { 200: AgentSearchResponse, ...errors } } },
      async (req) => {
        const payload: SearchQueryJob = { v: 1, query: req.body.query, topK: req.body.topK, language: req.body.language };
        // Listening before the job exists, so its completion cannot be missed.
        const events = await deps.searchEvents();
        const job = await queues.get('search').add(SEARCH_QUERY_JOB_NAME, payload, {
          attempts: 2,
          removeOnComplete: { age: 60, count: 1000 },
          removeOnFail: { age: 3600, count: 1000 },
        });
        try {
          return AgentSearchResponse.parse(await job.waitUntilFinished(events, config.faq.searchTimeoutMs));
        } catch (err) {
          if (err instanceof Error && /timed out/i.test(err.message)) throw new TimeoutError(`the search did not finish within ${config.faq.searchTimeoutMs} ms`);
          throw err;
        }
      },
    );

    app.post(
      '/agent.dialog',
      {
        schema: {
          tags: ['faq'],
          summary: 'One FAQ dialog turn; JSON by default, the turn\'s events with Accept: text/event-stream',
          body: AgentDialogRequest,
          response: { 200: z.record(z.string(), z.unknown()), ...errors },
        },
      },
      async (req, reply) => {
        const body = req.body;
        const options = resolveDialogOptions(body.options, { topK: config.faq.topK });
        if (options.mode === 'crew' && !config.faq.crewUrl) {
          throw new ValidationError('mode "crew" needs an external orchestrator: set CREW_URL', 'crew_not_configured');
        }
        const started = performance.now();
        const { sessionId, lastEventId } = await openDialog(req, body, options.language);
        const turnId = randomUUID();
        const accepted = await acceptTurn(deps, req, reply, { sessionId, turnId, message: body.message, multitask: 'enqueue', options });
        reply.header('x-session-id', sessionId);

        if (wantsEventStream(req)) return streamTurn(req, reply, { sessionId, turnId: accepted.turnId, fromId: lastEventId });

        const end = await TurnWaiter.wait(hub, store, { sessionId, turnId: accepted.turnId, fromId: lastEventId, timeoutMs: config.faq.dialogTimeoutMs });
        if (end.kind === 'timeout' || end.kind === 'closed') {
          throw new TimeoutError(`the dialog turn did not finish within ${config.faq.dialogTimeoutMs} ms; it continues (session ${sessionId}, turn ${accepted.turnId})`);
        }
        if (end.kind === 'failed') {
          const e = (end.event.data as { error: { code: string; message: string } }).error;
          throw new AppError(e.code, e.message, { status: 502 });
        }
        const loaded = await store.load(sessionId);
        const result = loaded?.state.faq?.turns.find((t) => t.turnId === accepted.turnId);
        if (!result) throw new AppError('result_unavailable', 'the turn finished but its result is no longer retained', { status: 502 });
        return dialogResponse(sessionId, result, Math.round(performance.now() - started));
      },
    );

    /**
     * The session a dialog turn belongs to: the given one (created under that
     * id when new, as the seed's contextStore keyed by sessionId), or a new one.
     */
    async function openDialog(req: FastifyRequest, body: AgentDialogRequest, language: 'ja' | 'en' | 'auto'): Promise<{ sessionId: string; lastEventId: number }> {
      const sessionId = body.sessionId ?? randomUUID();
      const existing = body.sessionId ? await store.load(sessionId) : null;
      if (existing) return { sessionId, lastEventId: checkDialogAccess(req, existing.state, existing.lastEventId) };
      const state = newSessionState({
        sessionId,
        kind: 'faq',
        form: null,
        language: language === 'auto' ? null : language,
        firstAgent: 'planner',
        now: new Date().toISOString(),
        faq: { access: 'dialog', history: (body.history ?? []).map((h) => ({ role: h.role, content: h.content })), turns: [] },
      });
      if (await store.createIdle({ state, tokenHash: newToken().hash, agent: 'planner' })) {
        req.log.info({ sessionId, kind: 'faq' }, 'dialog session created');
        return { sessionId, lastEventId: 0 };
      }
      // Created by a concurrent request with the same id.
      const raced = await store.load(sessionId);
      if (!raced) throw new ConflictError('session_changing', 'the session was created and deleted concurrently; retry');
      return { sessionId, lastEventId: checkDialogAccess(req, raced.state, raced.lastEventId) };
    }

    function checkDialogAccess(req: FastifyRequest, state: SessionState, lastEventId: number): number {
      if (state.kind !== 'faq' || !state.faq) throw new ConflictError('wrong_kind', `session ${state.sessionId} is a ${state.kind} session, not an FAQ dialog`);
      // A session made with POST /v1/sessions keeps its token requirement here too.
      if (state.faq.access === 'token' && !tokenOf(req)) throw new UnauthorizedError();
      return lastEventId;
    }

    /** The turn's events as SSE, from the accept point to its `answer` or `clarify` (or `turn.failed`). */
    async function streamTurn(req: FastifyRequest, reply: FastifyReply, input: { sessionId: string; turnId: string; fromId: number }) {
      reply.hijack();
      const raw = reply.raw;
      raw.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
        'x-session-id': input.sessionId,
      });
      const client = new DialogStreamClient(input.sessionId, raw, input.fromId, config.sse.maxBufferBytes, input.turnId);
      const timer = setTimeout(() => client.close('timeout: the turn continues; follow it on the session stream'), config.faq.dialogTimeoutMs);
      client.onClose(() => clearTimeout(timer));
      hub.subscribe(client, client.cursor);
      try {
        for (;;) {
          const batch = await store.readEvents(input.sessionId, client.cursor, 500);
          for (const ev of batch) client.write(ev);
          if (batch.length < 500 || client.isClosed) break;
        }
        client.finishReplay();
      } catch (err) {
        req.log.warn({ sessionId: input.sessionId, err: err instanceof Error ? err.message : String(err) }, 'dialog stream replay failed');
        client.close('replay failed');
      }
    }

    // --- corpus ---

    function requireWriteKey(req: FastifyRequest): void {
      const key = config.faq.writeKey;
      if (!key) return;
      if (tokenOf(req) !== key) throw new UnauthorizedError('missing or invalid FAQ write key');
    }

    app.get(
      '/faq/documents',
      {
        schema: {
          tags: ['faq'],
          querystring: z.object({
            language: z.enum(['ja', 'en']).optional(),
            limit: z.coerce.number().int().min(1).max(10_000).default(1000),
            offset: z.coerce.number().int().min(0).default(0),
          }),
          response: { 200: z.object({ documents: z.array(FaqDocument), total: z.number(), version: z.number() }), ...errors },
        },
      },
      async (req) => {
        const [all, version] = await Promise.all([corpus.list(), corpus.version()]);
        const filtered = req.query.language ? all.filter((d) => d.language === req.query.language) : all;
        return { documents: filtered.slice(req.query.offset, req.query.offset + req.query.limit), total: filtered.length, version };
      },
    );

    app.post(
      '/faq/documents',
      {
        bodyLimit: config.faq.maxUploadBytes,
        schema: {
          tags: ['faq'],
          summary: 'Upsert documents: JSON (one, an array, or { documents }) or text/csv with a header row',
          response: { 200: z.object({ upserted: z.number(), created: z.number(), updated: z.number(), ids: z.array(z.string()), version: z.number() }), ...errors },
        },
      },
      async (req) => {
        requireWriteKey(req);
        const docs = toDocuments(typeof req.body === 'string' ? csvRecords(req.body) : jsonRecords(req.body));
        const r = await corpus.upsert(docs, config.faq.maxDocs);
        req.log.info({ upserted: docs.length, created: r.created, corpusVersion: r.version }, 'faq documents upserted');
        return { upserted: docs.length, created: r.created, updated: r.updated, ids: docs.map((d) => d.id), version: r.version };
      },
    );

    app.delete(
      '/faq/documents/:id',
      { schema: { tags: ['faq'], params: z.object({ id: z.string().min(1).max(200) }), response: { 204: z.null(), ...errors } } },
      async (req, reply) => {
        requireWriteKey(req);
        const r = await corpus.remove([req.params.id]);
        if (r.removed === 0) throw new NotFoundError(`FAQ document ${req.params.id} not found`, 'document_not_found');
        return reply.status(204).send(null);
      },
    );
  };
}

function wantsEventStream(req: FastifyRequest): boolean {
  return /text\/event-stream/i.test(String(req.headers.accept ?? ''));
}

/** Ends the stream after this turn's answer or clarifying questions (or its failure). */
class DialogStreamClient extends SseClient {
  private begun = false;

  constructor(sessionId: string, raw: import('node:http').ServerResponse, cursor: number, maxBufferBytes: number, private readonly turnId: string) {
    super(sessionId, raw, cursor, maxBufferBytes);
  }

  override write(ev: SessionEvent): void {
    if (this.isClosed || ev.id <= this.cursor) return;
    super.write(ev);
    if (ev.type === 'turn.started' && ev.data.turnId === this.turnId) this.begun = true;
    const ours = this.begun && (ev.type === 'answer' || ev.type === 'clarify');
    if (ours || (ev.type === 'turn.failed' && ev.data.turnId === this.turnId)) this.close('end of dialog turn');
  }
}

/** The response body of seed 002 §4.1.1. */
export function dialogResponse(sessionId: string, r: FaqTurnResult, latencyMs: number): Record<string, unknown> {
  const { raw, ...plan } = r.plan ?? { raw: undefined };
  return {
    sessionId,
    answer: r.answer,
    needsClarification: r.needsClarification,
    ...(r.needsClarification ? { clarifyingQuestions: r.clarifyingQuestions } : {}),
    steps: r.steps,
    final: r.final,
    meta: {
      ...(r.plan ? { multiStepPlan: r.options.debug ? { ...plan, raw } : plan } : {}),
      orchestratorMode: r.options.mode,
      orchestrationSteps: r.orchestrationSteps,
      latencyMs,
      sources: r.sources,
      planner: r.planMeta,
      ...(r.options.debug ? { hits: r.hits.map((h) => ({ id: h.id, question: h.question, score: h.score })) } : {}),
    },
  };
}

// --- uploads ---

function jsonRecords(body: unknown): unknown[] {
  if (Array.isArray(body)) return body;
  if (body && typeof body === 'object' && Array.isArray((body as { documents?: unknown }).documents)) return (body as { documents: unknown[] }).documents;
  if (body && typeof body === 'object') return [body];
  throw new ValidationError('expected a document, an array of documents, or { "documents": [...] }', 'invalid_documents');
}

/** CSV with a header row: id (optional), question, answer, tags (separated by | or ;), language (optional). */
function csvRecords(text: string): unknown[] {
  let rows: Array<Record<string, string>>;
  try {
    rows = parseCsv(text.replace(/^\uFEFF/, ''), { columns: (h: string[]) => h.map((c) => c.trim().toLowerCase()), skip_empty_lines: true, trim: true });
  } catch (err) {
    throw new ValidationError(`CSV could not be parsed: ${err instanceof Error ? err.message : String(err)}`, 'invalid_csv');
  }
  return rows.map((r) => ({
    ...(r.id ? { id: r.id } : {}),
    question: r.question,
    answer: r.answer,
    ...(r.tags ? { tags: r.tags.split(/[|;]/).map((t) => t.trim()).filter(Boolean) } : {}),
    ...(r.language ? { language: r.language } : {}),
  }));
}

const MAX_DOCS_PER_UPLOAD = 10_000;

function toDocuments(records: unknown[]): FaqDocument[] {
  if (records.length === 0) throw new ValidationError('no documents in the upload', 'invalid_documents');
  if (records.length > MAX_DOCS_PER_UPLOAD) throw new ValidationError(`at most ${MAX_DOCS_PER_UPLOAD} documents per upload`, 'too_many_documents');
  const problems: string[] = [];
  const docs: FaqDocument[] = [];
  records.forEach((rec, i) => {
    const parsed = FaqDocumentInput.safeParse(rec);
    if (!parsed.success) {
      problems.push(`document ${i + 1}: ${parsed.error.issues.map((x) => `${x.path.join('.') || '(root)'} ${x.message}`).join(', ')}`);
      return;
    }
    const d = parsed.data;
    const language = d.language ?? detectLanguage(`${d.question} ${d.answer}`);
    // Without an id, the same question uploaded again replaces its earlier version.
    const id = d.id ?? `faq-${createHash('sha256').update(`${language}\n${normalize(d.question)}`).digest('hex').slice(0, 16)}`;
    docs.push({ id, question: d.question, answer: d.answer, tags: d.tags ?? [], language });
  });
  if (problems.length > 0) throw new ValidationError(`invalid documents: ${problems.slice(0, 10).join('; ')}${problems.length > 10 ? `; and ${problems.length - 10} more` : ''}`, 'invalid_documents');
  const seen = new Set<string>();
  for (const d of docs) {
    if (seen.has(d.id)) throw new ValidationError(`document id ${d.id} appears twice in the upload`, 'duplicate_document_id');
    seen.add(d.id);
  }
  return docs;
}
