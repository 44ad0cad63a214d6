import {
  AgentRequestBody,
  AgentResult,
  AutoFixBody,
  AutoFixResponse,
  CheckConsistencyBody,
  ConsistencyReport,
  CreatedWorksheet,
  CreateWorksheetBody,
  ErrorResponse,
  PatchProblemBody,
  Problem,
  PROBLEM_HISTORY_MAX,
  ProblemEdit,
  RunStepsResponse,
  Suggestions,
  ValidateResponse,
  Worksheet,
} from '@convo/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { GatewayDeps } from '../deps.js';
import { EVENT_STREAM_BODY } from '../docs/openapi.js';
import { WORK_ROUTE } from '../plugins/shedding.js';
import {
  askAgent,
  createWorksheet,
  editWorkbenchProblem,
  openProblem,
  openWorksheet,
  undoEdit,
  VersionConflictError,
  workbenchRequest,
} from '../sessions/workbench.js';
import { deleteSession } from '../sessions/service.js';

/** Route-specific error answers (docs/openapi.ts adds those every route of a kind gives). */
const missing = { 401: ErrorResponse, 404: ErrorResponse };
/** Reads and writes of a worksheet may meet a concurrent change and answer 503 with Retry-After. */
const changing = { 401: ErrorResponse, 404: ErrorResponse, 503: ErrorResponse };
/** Work done by the agent, its worker or the model. */
const modelWork = { 502: ErrorResponse, 504: ErrorResponse };
const Id = z.object({ id: z.string().min(1).max(200) });
const tags = ['workbench'];
/** Every worksheet route but creation: the edit token, or the share token where reading is enough. */
const security: Array<Record<string, string[]>> = [{ bearer: [] }];
/** Analysis the workbench agent's worker does: counted in the client's work budget and shed under load like any work. */
const ANALYSIS_ROUTE = WORK_ROUTE;

/** The problem workbench (docs/api.md, "Workbench"; docs/seeds/003): worksheets, problems, the agent, checks, PDF. */
export function workbenchRoutes(deps: GatewayDeps): FastifyPluginAsyncZod {
  const { store } = deps;
  return async (app) => {
    app.post(
      '/api/worksheets',
      {
        config: WORK_ROUTE,
        schema: {
          tags,
          summary: 'Generate a worksheet of 10 problems (7 multiple choice, 3 written); answers its edit and share tokens',
          body: CreateWorksheetBody,
          response: { 201: CreatedWorksheet, 422: ErrorResponse, 429: ErrorResponse, ...modelWork },
        },
      },
      async (req, reply) => reply.status(201).send(await createWorksheet(deps, req.body, req)),
    );

    app.get(
      '/api/worksheets/:id',
      { schema: { tags, summary: 'The worksheet with its problems', params: Id, security, response: { 200: Worksheet, ...missing } } },
      async (req) => (await openWorksheet(deps, req, req.params.id, 'read')).worksheet,
    );

    app.delete(
      '/api/worksheets/:id',
      {
        schema: {
          tags,
          summary: 'Delete the worksheet with its history (edit token)',
          params: Id,
          security,
          response: { 204: z.null().describe('deleted'), ...missing },
        },
      },
      async (req, reply) => {
        await openWorksheet(deps, req, req.params.id, 'edit');
        // Deleted as any session: its waiting step job withdrawn, its quota place given back.
        await deleteSession(deps, req.params.id, req.log);
        return reply.status(204).send(null);
      },
    );

    app.get(
      '/api/problems/:id',
      {
        schema: {
          tags,
          summary: 'One problem, with its version (send it back when editing)',
          params: Id,
          security,
          response: { 200: Problem, ...missing },
        },
      },
      async (req) => (await openProblem(deps, req, req.params.id, 'read')).problem,
    );

    app.get(
      '/api/problems/:id/history',
      {
        schema: {
          tags,
          summary: `The problem's edits, oldest first (the newest ${PROBLEM_HISTORY_MAX})`,
          params: Id,
          security,
          response: { 200: z.object({ problemId: z.string(), edits: z.array(ProblemEdit) }), ...missing },
        },
      },
      async (req) => {
        const loaded = await openProblem(deps, req, req.params.id, 'read');
        return { problemId: req.params.id, edits: loaded.state.workbench.history[req.params.id] ?? [] };
      },
    );

    app.patch(
      '/api/problems/:id',
      {
        config: WORK_ROUTE,
        schema: {
          tags,
          summary: 'Edit one section (edit token); a stale version answers 409 with the current problem',
          params: Id,
          body: PatchProblemBody,
          security,
          response: {
            ...changing,
            200: Problem,
            409: z.object({ error: z.object({ code: z.string(), message: z.string() }), problem: Problem.optional() }),
          },
        },
      },
      async (req, reply) => {
        const opened = await openProblem(deps, req, req.params.id, 'edit');
        try {
          return await editWorkbenchProblem(deps, opened, {
            changes: [{ field: req.body.field, value: req.body.value }],
            version: req.body.version,
            by: 'user',
          });
        } catch (err) {
          if (err instanceof VersionConflictError)
            return reply.status(409).send({ error: { code: err.code, message: err.message }, problem: err.problem });
          throw err;
        }
      },
    );

    app.post(
      '/api/problems/:id/undo',
      {
        config: WORK_ROUTE,
        schema: {
          tags,
          summary: 'Undo the last edit of the problem (edit token)',
          params: Id,
          security,
          response: { 200: Problem, 409: ErrorResponse, ...changing },
        },
      },
      async (req) => {
        return undoEdit(deps, await openProblem(deps, req, req.params.id, 'edit'));
      },
    );

    app.post(
      '/api/problems/:id/check-consistency',
      {
        config: ANALYSIS_ROUTE,
        schema: {
          tags,
          summary: 'Check the problem (or the problem with one field changed, not saved) for contradictions',
          params: Id,
          body: CheckConsistencyBody.nullish(),
          security,
          response: { 200: ConsistencyReport, ...missing, ...modelWork },
        },
      },
      async (req) => {
        await openProblem(deps, req, req.params.id, 'read');
        const body = req.body ?? {};
        const change =
          body.updatedField !== undefined && body.newValue !== undefined ? { field: body.updatedField, value: body.newValue } : null;
        return workbenchRequest(deps, { op: 'check', problemId: req.params.id, change }, ConsistencyReport);
      },
    );

    app.post(
      '/api/problems/:id/auto-fix',
      {
        config: ANALYSIS_ROUTE,
        schema: {
          tags,
          summary: 'Fixes for what the checker finds, not applied',
          params: Id,
          body: AutoFixBody.nullish(),
          security,
          response: { 200: AutoFixResponse, ...missing, ...modelWork },
        },
      },
      async (req) => {
        await openProblem(deps, req, req.params.id, 'read');
        return workbenchRequest(deps, { op: 'autoFix', problemId: req.params.id }, AutoFixResponse);
      },
    );

    app.get(
      '/api/suggestions/:problemId',
      {
        config: ANALYSIS_ROUTE,
        schema: {
          tags,
          summary: 'Improvement suggestions for the problem',
          params: z.object({ problemId: z.string().min(1).max(200) }),
          security,
          response: { 200: Suggestions, ...missing, ...modelWork },
        },
      },
      async (req) => {
        await openProblem(deps, req, req.params.problemId, 'read');
        return workbenchRequest(deps, { op: 'suggest', problemId: req.params.problemId }, Suggestions);
      },
    );

    app.get(
      '/api/worksheets/:id/runsteps',
      {
        schema: {
          tags,
          summary: "The agent's tool executions on this worksheet (docs/seeds/004 RunStep; edit token)",
          params: Id,
          security,
          response: { 200: RunStepsResponse, ...missing },
        },
      },
      async (req) => {
        await openWorksheet(deps, req, req.params.id, 'edit');
        return { runSteps: await store.getRunSteps(req.params.id) };
      },
    );

    app.post(
      '/api/worksheets/:id/validate',
      {
        config: ANALYSIS_ROUTE,
        schema: {
          tags,
          summary: 'Validate every problem of the worksheet',
          params: Id,
          security,
          response: { 200: ValidateResponse, ...missing, ...modelWork },
        },
      },
      async (req) => {
        await openWorksheet(deps, req, req.params.id, 'read');
        return workbenchRequest(deps, { op: 'validate', worksheetId: req.params.id }, ValidateResponse);
      },
    );

    app.get(
      '/api/worksheets/:id/pdf',
      {
        config: {
          ...ANALYSIS_ROUTE,
          docs: { responseContent: { 'application/pdf': z.string().describe('binary PDF') }, errors: [401, 404, 502, 504] },
        },
        schema: {
          tags,
          summary: 'The question or answer sheet, A4 PDF',
          params: Id,
          security,
          querystring: z.object({ sheet: z.enum(['questions', 'answers']).default('questions') }),
        },
      },
      async (req, reply) => {
        const { worksheet } = await openWorksheet(deps, req, req.params.id, 'read');
        const pdf = Buffer.from(
          await workbenchRequest(deps, { op: 'pdf', worksheetId: req.params.id, sheet: req.query.sheet }, z.string()),
          'base64',
        );
        return reply
          .type('application/pdf')
          .header('content-disposition', `inline; filename="${worksheet.worksheetId}-${req.query.sheet}.pdf"`)
          .send(pdf);
      },
    );

    app.post(
      '/api/problems/:id/agent',
      {
        config: { ...WORK_ROUTE, docs: { responseContent: { 'text/event-stream': EVENT_STREAM_BODY } } },
        schema: {
          tags,
          summary: 'A free-form request to the problem-management agent (edit token): JSON, or its steps with Accept: text/event-stream',
          params: Id,
          body: AgentRequestBody,
          security,
          response: { 200: AgentResult, ...missing, ...modelWork },
        },
      },
      async (req, reply) => askAgent(deps, req, reply, await openProblem(deps, req, req.params.id, 'edit'), req.body.request),
    );
  };
}
