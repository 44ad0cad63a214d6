import {
  AgentRequestBody,
  AgentResult,
  AutoFixBody,
  AutoFixResponse,
  CheckConsistencyBody,
  ConsistencyReport,
  CreateWorksheetBody,
  ErrorResponse,
  PatchProblemBody,
  Problem,
  ProblemEdit,
  RunStepsResponse,
  Suggestions,
  ValidateResponse,
  Worksheet,
} from '@convo/runtime';
import { renderWorksheetPdf } from '@convo/workbench';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { GatewayDeps } from '../deps.js';
import { EVENT_STREAM_BODY } from '../docs/openapi.js';
import { WORK_ROUTE } from '../plugins/shedding.js';
import { consistencyReport } from '@convo/workbench';
import {
  askAgent,
  cachedSuggestions,
  createWorksheet,
  editWorkbenchProblem,
  loadProblem,
  loadWorkbench,
  proposeFix,
  undoEdit,
  validateWorksheet,
  VersionConflictError,
} from '../sessions/workbench.js';

/** Route-specific error answers (docs/openapi.ts adds those every route of a kind gives). */
const missing = { 404: ErrorResponse };
/** Reads and writes of a worksheet may meet a concurrent change and answer 503 with Retry-After. */
const changing = { 404: ErrorResponse, 503: ErrorResponse };
/** Work done by the agent or the model. */
const modelWork = { 502: ErrorResponse, 504: ErrorResponse };
const Id = z.object({ id: z.string().min(1).max(200) });
const tags = ['workbench'];

/** The problem workbench (docs/api.md, "Workbench"; docs/seeds/003): worksheets, problems, the agent, checks, PDF. */
export function workbenchRoutes(deps: GatewayDeps): FastifyPluginAsyncZod {
  const { store } = deps;
  return async (app) => {
    app.post('/api/worksheets', { config: WORK_ROUTE, schema: { tags, summary: 'Generate a worksheet of 10 problems (7 multiple choice, 3 written)', body: CreateWorksheetBody, response: { 201: Worksheet, 422: ErrorResponse, ...modelWork } } }, async (req, reply) => {
      return reply.status(201).send(await createWorksheet(deps, req.body, req.log));
    });

    app.get('/api/worksheets/:id', { schema: { tags, summary: 'The worksheet with its problems', params: Id, response: { 200: Worksheet, ...missing } } }, async (req) => (await loadWorkbench(deps, req.params.id)).worksheet);

    app.get('/api/problems/:id', { schema: { tags, summary: 'One problem, with its version (send it back when editing)', params: Id, response: { 200: Problem, ...missing } } }, async (req) => (await loadProblem(deps, req.params.id)).problem);

    app.get('/api/problems/:id/history', { schema: { tags, summary: "The problem's edits, oldest first", params: Id, response: { 200: z.object({ problemId: z.string(), edits: z.array(ProblemEdit) }), ...missing } } }, async (req) => {
      const loaded = await loadProblem(deps, req.params.id);
      return { problemId: req.params.id, edits: loaded.state.workbench.history[req.params.id] ?? [] };
    });

    app.patch(
      '/api/problems/:id',
      { config: WORK_ROUTE, schema: { tags, summary: 'Edit one section; a stale version answers 409 with the current problem', params: Id, body: PatchProblemBody, response: { ...changing, 200: Problem, 409: z.object({ error: z.object({ code: z.string(), message: z.string() }), problem: Problem.optional() }) } } },
      async (req, reply) => {
        try {
          return await editWorkbenchProblem(deps, req.params.id, { field: req.body.field, value: req.body.value, version: req.body.version, by: 'user' });
        } catch (err) {
          if (err instanceof VersionConflictError) return reply.status(409).send({ error: { code: err.code, message: err.message }, problem: err.problem });
          throw err;
        }
      },
    );

    app.post('/api/problems/:id/undo', { config: WORK_ROUTE, schema: { tags, summary: 'Undo the last edit of the problem', params: Id, response: { 200: Problem, 409: ErrorResponse, ...changing } } }, async (req) => undoEdit(deps, req.params.id));

    app.post('/api/problems/:id/check-consistency', { schema: { tags, summary: 'Check the problem (or the problem with one field changed, not saved) for contradictions', params: Id, body: CheckConsistencyBody.nullish(), response: { 200: ConsistencyReport, ...missing } } }, async (req) => {
      const loaded = await loadProblem(deps, req.params.id);
      const body = req.body ?? {};
      const problem = body.updatedField && body.newValue !== undefined ? { ...loaded.problem, [body.updatedField]: body.newValue } : loaded.problem;
      return consistencyReport(problem, loaded.worksheet.language);
    });

    app.post('/api/problems/:id/auto-fix', { schema: { tags, summary: 'Fixes for what the checker finds, not applied', params: Id, body: AutoFixBody.nullish(), response: { 200: AutoFixResponse, ...missing } } }, async (req) => {
      const loaded = await loadProblem(deps, req.params.id);
      return proposeFix(loaded.problem, loaded.worksheet.language);
    });

    app.get('/api/suggestions/:problemId', { schema: { tags, summary: 'Improvement suggestions for the problem', params: z.object({ problemId: z.string().min(1).max(200) }), response: { 200: Suggestions, ...missing, ...modelWork } } }, async (req) => cachedSuggestions(deps, await loadProblem(deps, req.params.problemId)));

    app.get('/api/worksheets/:id/runsteps', { schema: { tags, summary: "The agent's tool executions on this worksheet (docs/seeds/004 RunStep)", params: Id, response: { 200: RunStepsResponse, ...missing } } }, async (req) => {
      await loadWorkbench(deps, req.params.id);
      return { runSteps: await store.getRunSteps(req.params.id) };
    });

    app.post('/api/worksheets/:id/validate', { schema: { tags, summary: 'Validate every problem of the worksheet', params: Id, response: { 200: ValidateResponse, ...missing } } }, async (req) => validateWorksheet((await loadWorkbench(deps, req.params.id)).worksheet));

    app.get(
      '/api/worksheets/:id/pdf',
      {
        config: { docs: { responseContent: { 'application/pdf': z.string().describe('binary PDF') }, errors: [404] } },
        schema: { tags, summary: 'The question or answer sheet, A4 PDF', params: Id, querystring: z.object({ sheet: z.enum(['questions', 'answers']).default('questions') }) },
      },
      async (req, reply) => {
        const { worksheet } = await loadWorkbench(deps, req.params.id);
        const pdf = await renderWorksheetPdf(worksheet, req.query.sheet);
        return reply.type('application/pdf').header('content-disposition', `inline; filename="${worksheet.worksheetId}-${req.query.sheet}.pdf"`).send(pdf);
      },
    );

    app.post(
      '/api/problems/:id/agent',
      {
        config: { ...WORK_ROUTE, docs: { responseContent: { 'text/event-stream': EVENT_STREAM_BODY } } },
        schema: { tags, summary: 'A free-form request to the problem-management agent: JSON, or its steps with Accept: text/event-stream', params: Id, body: AgentRequestBody, response: { 200: AgentResult, ...missing, ...modelWork } },
      },
      async (req, reply) => askAgent(deps, req, reply, req.params.id, req.body.request),
    );
  };
}
