import { AppError, type Logger, NotFoundError, type RedisClient, type SessionStore, toErrorJson } from '@convo/runtime';
import {
  type ConsistencyReport,
  type Problem,
  type Suggestions,
  type ValidateResponse,
  WorkbenchRequestJob,
  type WorkbenchRequest,
  type WorkbenchRequestResult,
  type Worksheet,
} from '@convo/contract';
import {
  autoFix,
  checkProblem,
  consistencyReport,
  editProblem,
  qualityFor,
  renderWorksheetPdf,
  suggestionsFor,
  worksheetIdOf,
} from '@convo/workbench';
import { TextBudgetExceededError } from '@convo/text';

export type RequestDeps = { store: SessionStore; redis: RedisClient; keyPrefix: string; ttlSeconds: number; log: Logger };

/**
 * The workbench agent's `request` jobs (WorkbenchRequest): analysis of a
 * stored worksheet that a gateway request waits for — checks, fixes,
 * suggestions, validation, PDFs — done here so no text a teacher writes is
 * analysed on the gateway's event loop. The gateway has checked the caller's
 * token; this reads the worksheet as stored now. What cannot be served is an
 * answer with the client's error (not a failed job), so its code reaches the
 * client as it is; a bug fails the job (502 at the gateway).
 */
export async function runWorkbenchRequest(data: unknown, deps: RequestDeps): Promise<WorkbenchRequestResult> {
  const { request } = WorkbenchRequestJob.parse(data);
  try {
    return { ok: true, value: await serve(request, deps) };
  } catch (err) {
    if (err instanceof TextBudgetExceededError) return refused('input_too_complex', err.message, 422);
    if (err instanceof AppError && err.status < 500) return refused(err.code, err.message, err.status);
    deps.log.error({ err: toErrorJson(err), op: request.op }, 'workbench request failed');
    throw err;
  }
}

function refused(code: string, message: string, status: number): WorkbenchRequestResult {
  return { ok: false, error: { code, message, status } };
}

async function serve(request: WorkbenchRequest, deps: RequestDeps): Promise<unknown> {
  switch (request.op) {
    case 'check': {
      const { problem, worksheet } = await loadProblem(deps, request.problemId);
      // The change as a save would make it (editProblem), so a preview and the saved problem get the same verdict.
      const checked = request.change ? editProblem(problem, request.change, 'user', new Date().toISOString()).problem : problem;
      return consistencyReport(checked, worksheet.language) satisfies Promise<ConsistencyReport>;
    }
    case 'autoFix': {
      const { problem, worksheet } = await loadProblem(deps, request.problemId);
      const { fixes, confidence } = await autoFix(problem, worksheet.language);
      return { fixes, confidence };
    }
    case 'suggest': {
      const { problem, worksheet } = await loadProblem(deps, request.problemId);
      return cachedSuggestions(deps, problem, worksheet);
    }
    case 'validate':
      return validateWorksheet(await loadWorksheet(deps, request.worksheetId));
    case 'pdf':
      return (await renderWorksheetPdf(await loadWorksheet(deps, request.worksheetId), request.sheet)).toString('base64');
  }
}

/** The worksheet as stored now, or null (never generated, expired, deleted). */
async function storedWorksheet(deps: RequestDeps, worksheetId: string): Promise<Worksheet | null> {
  const loaded = await deps.store.load(worksheetId);
  return loaded?.state.kind === 'workbench' ? loaded.state.workbench.worksheet : null;
}

async function loadWorksheet(deps: RequestDeps, worksheetId: string): Promise<Worksheet> {
  const worksheet = await storedWorksheet(deps, worksheetId);
  if (!worksheet) throw new NotFoundError(`worksheet ${worksheetId} not found`, 'worksheet_not_found');
  return worksheet;
}

async function loadProblem(deps: RequestDeps, problemId: string): Promise<{ problem: Problem; worksheet: Worksheet }> {
  const worksheetId = worksheetIdOf(problemId);
  const worksheet = worksheetId ? await storedWorksheet(deps, worksheetId) : null;
  const problem = worksheet?.problems.find((candidate) => candidate.id === problemId);
  if (!worksheet || !problem) throw new NotFoundError(`problem ${problemId} not found`, 'problem_not_found');
  return { problem, worksheet };
}

/** Suggestions are cached per problem version (the same problem gets the same ideas until it changes). */
async function cachedSuggestions(deps: RequestDeps, problem: Problem, worksheet: Worksheet): Promise<Suggestions> {
  const key = `${deps.keyPrefix}:wb:suggest:${problem.id}:${problem.version}`;
  const cached = await deps.redis.get(key);
  if (cached) return JSON.parse(cached) as Suggestions;
  const ideas = await suggestionsFor(problem, worksheet);
  await deps.redis.set(key, JSON.stringify(ideas), 'EX', deps.ttlSeconds);
  return ideas;
}

async function validateWorksheet(worksheet: Worksheet): Promise<ValidateResponse> {
  const problems: ValidateResponse['problems'] = [];
  let total = 0;
  for (const problem of worksheet.problems) {
    const facts = await checkProblem(problem, worksheet.language);
    total += (await qualityFor(problem, worksheet, facts)).overallScore;
    problems.push({
      id: problem.id,
      isValid: !facts.issues.some((issue) => issue.severity === 'error'),
      issues: facts.issues.map((issue) => issue.issue),
    });
  }
  return { problems, overallScore: Math.round((total / Math.max(1, worksheet.problems.length)) * 100) / 100 };
}
