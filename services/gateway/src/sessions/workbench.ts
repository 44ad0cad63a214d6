import { randomUUID } from 'node:crypto';
import {
  AppError,
  type AutoFixResponse,
  ConflictError,
  coreSessionState,
  type CreateWorksheetBody,
  dispatch,
  type AgentResult,
  type EditableField,
  type EventType,
  NotFoundError,
  type Problem,
  type ProblemEdit,
  SessionDraft,
  type Suggestions,
  UnavailableError,
  ValidationError,
  type ValidateResponse,
  type WorkbenchSessionState,
  type Worksheet,
} from '@convo/runtime';
import { applyEdit, autoFix, checkProblem, offlineSubject, qualityFor, suggestionsFor, undoTarget, UnsupportedSubjectError, validateEditValue, worksheetIdOf } from '@convo/workbench';
import type { FastifyBaseLogger } from 'fastify';
import { newToken } from '../auth.js';
import type { GatewayDeps } from '../deps.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { streamTurn, turnStreamDeps } from '../faq/dialog-stream.js';
import { awaitTurnEnd } from '../faq/turn-waiter.js';
import { acceptTurn } from './service.js';

/**
 * The workbench's use cases (docs/API.md §3): a worksheet is a session of
 * kind `workbench` whose first run (on the workbench agent's queue) generates
 * it; edits are compare-and-set commits of that session, so they are ordered
 * with the agent's turns and kept with their history; checks, fixes,
 * suggestions and scores are computed from the stored problem.
 */
type Deps = Pick<GatewayDeps, 'store' | 'queues' | 'config' | 'hub' | 'redis' | 'metrics'>;

export async function createWorksheet(deps: Deps, body: CreateWorksheetBody, log: FastifyBaseLogger): Promise<Worksheet> {
  if (deps.config.llm.provider === 'offline' && offlineSubject(body.subject) === null) throw new UnsupportedSubjectError(body.subject);
  const sessionId = `ws-${randomUUID()}`;
  const turnId = randomUUID();
  const now = new Date().toISOString();
  const state: WorkbenchSessionState = {
    ...coreSessionState({ sessionId, language: body.language, firstAgent: 'workbench', now }),
    kind: 'workbench',
    workbench: { request: body, worksheet: null, history: {}, results: [], active: null },
  };
  const step = await deps.store.create({ state, tokenHash: newToken().hash, agent: 'workbench', turnId });
  await dispatch(deps, sessionId, step);
  log.info({ sessionId, turnId, subject: body.subject }, 'worksheet requested');
  await awaitTurnEnd(deps, {
    sessionId,
    turnId,
    fromId: 0,
    timeoutMs: deps.config.faq.dialogTimeoutMs,
    what: `the worksheet ${sessionId}`,
    // A subject the generators do not cover is the request's fault.
    statusOf: (code) => (code === 'unsupported_subject' ? 422 : 502),
  });
  return (await loadWorkbench(deps, sessionId)).worksheet;
}

const AGENT_RESULT: ReadonlySet<EventType> = new Set(['workbench.result']);

/**
 * One request to the problem-management agent: a turn of the worksheet's
 * session naming the problem; its steps streamed when the client asks for
 * SSE, else its recorded answer once the turn ends.
 */
export async function askAgent(deps: Deps & Pick<GatewayDeps, 'metrics'>, req: FastifyRequest, reply: FastifyReply, problemId: string, request: string): Promise<AgentResult | void> {
  const loaded = await loadProblem(deps, problemId);
  const sessionId = loaded.worksheet.worksheetId;
  const accepted = await acceptTurn(deps, req, reply, { sessionId, turnId: randomUUID(), message: request, multitask: 'enqueue', options: { problemId } });
  reply.header('x-turn-id', accepted.turnId);
  const turn = { sessionId, turnId: accepted.turnId, fromId: loaded.lastEventId };
  if (/text\/event-stream/i.test(String(req.headers.accept ?? ''))) return streamTurn(req, reply, turnStreamDeps(deps), { ...turn, begun: false, endOn: AGENT_RESULT });
  await awaitTurnEnd(deps, { ...turn, timeoutMs: deps.config.faq.dialogTimeoutMs, what: `the agent (problem ${problemId}, turn ${accepted.turnId})` });
  const result = (await loadWorkbench(deps, sessionId)).state.workbench.results.find((entry) => entry.turnId === accepted.turnId);
  if (!result) throw new AppError('result_unavailable', 'the request finished but its result is no longer retained', { status: 502 });
  return result;
}

type LoadedWorkbench = { state: WorkbenchSessionState; version: number; messageCount: number; worksheet: Worksheet; lastEventId: number };

export async function loadWorkbench(deps: Pick<Deps, 'store'>, worksheetId: string): Promise<LoadedWorkbench> {
  const loaded = await deps.store.load(worksheetId);
  if (!loaded || loaded.state.kind !== 'workbench' || !loaded.state.workbench.worksheet) throw new NotFoundError(`worksheet ${worksheetId} not found`, 'worksheet_not_found');
  return { state: loaded.state, version: loaded.version, messageCount: loaded.messageCount, worksheet: loaded.state.workbench.worksheet, lastEventId: loaded.lastEventId };
}

export async function loadProblem(deps: Pick<Deps, 'store'>, problemId: string): Promise<LoadedWorkbench & { problem: Problem }> {
  const worksheetId = worksheetIdOf(problemId);
  if (!worksheetId) throw new NotFoundError(`problem ${problemId} not found`, 'problem_not_found');
  const loaded = await loadWorkbench(deps, worksheetId).catch(() => {
    throw new NotFoundError(`problem ${problemId} not found`, 'problem_not_found');
  });
  const problem = loaded.worksheet.problems.find((candidate) => candidate.id === problemId);
  if (!problem) throw new NotFoundError(`problem ${problemId} not found`, 'problem_not_found');
  return { ...loaded, problem };
}

/** A stale `version`: the client gets the problem as it is now. */
export class VersionConflictError extends ConflictError {
  constructor(readonly problem: Problem) {
    super('version_conflict', `problem ${problem.id} is at version ${problem.version}; edit that version`);
  }
}

type Change = { field: EditableField; value: unknown; version: number | null; by: ProblemEdit['by'] };

/**
 * One edit (PATCH, approve of an auto-fix, undo): a compare-and-set commit
 * of the worksheet's session, retried while the agent commits in between.
 * `change` is given, or worked out from the problem as loaded (an undo).
 */
export async function editWorkbenchProblem(
  deps: Pick<Deps, 'store'>,
  problemId: string,
  changeOf: Change | ((loaded: LoadedWorkbench & { problem: Problem }) => Change),
): Promise<Problem> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const loaded = await loadProblem(deps, problemId);
    const change = typeof changeOf === 'function' ? changeOf(loaded) : changeOf;
    if (change.version !== null && change.version !== loaded.problem.version) throw new VersionConflictError(loaded.problem);
    const invalid = validateEditValue(loaded.problem, change.field, change.value);
    if (invalid) throw new ValidationError(invalid, 'invalid_edit');
    const draft = new SessionDraft(loaded.state, undefined, true).asWorkbench();
    const next = applyEdit(draft, loaded.problem, change.field, change.value, change.by);
    const committed = await deps.store.commit({ sessionId: loaded.worksheet.worksheetId, expectedVersion: loaded.version, messagesBefore: loaded.messageCount, expectedSeq: null, state: draft.state, mode: 'none', events: draft.events, runSteps: [] });
    if (committed.ok) return next;
  }
  throw new UnavailableError('the worksheet is changing; retry', 1);
}

/** Undoes the problem's last edit, worked out from the problem as each attempt loads it (one load per attempt). */
export async function undoEdit(deps: Pick<Deps, 'store'>, problemId: string): Promise<Problem> {
  return editWorkbenchProblem(deps, problemId, (loaded) => {
    const target = undoTarget(loaded.state.workbench.history[problemId] ?? []);
    if (!target) throw new ConflictError('nothing_to_undo', `problem ${problemId} has no edit to undo`);
    return { field: target.field, value: target.before, version: null, by: 'undo' };
  });
}

export async function proposeFix(problem: Problem, language: 'ja' | 'en'): Promise<AutoFixResponse> {
  const { fixes, confidence } = await autoFix(problem, language);
  return { fixes, confidence };
}

/** Suggestions are cached per problem version (the same problem gets the same ideas until it changes). */
export async function cachedSuggestions(deps: Pick<Deps, 'redis' | 'config'>, loaded: LoadedWorkbench & { problem: Problem }): Promise<Suggestions> {
  const key = `${deps.config.keyPrefix}:wb:suggest:${loaded.problem.id}:${loaded.problem.version}`;
  const cached = await deps.redis.get(key);
  if (cached) return JSON.parse(cached) as Suggestions;
  const ideas = await suggestionsFor(loaded.problem, loaded.worksheet);
  await deps.redis.set(key, JSON.stringify(ideas), 'EX', deps.config.sessionTtlSeconds);
  return ideas;
}

export async function validateWorksheet(worksheet: Worksheet): Promise<ValidateResponse> {
  const problems: ValidateResponse['problems'] = [];
  let total = 0;
  for (const problem of worksheet.problems) {
    const facts = await checkProblem(problem, worksheet.language);
    total += (await qualityFor(problem, worksheet, facts)).overallScore;
    problems.push({ id: problem.id, isValid: !facts.issues.some((issue) => issue.severity === 'error'), issues: facts.issues.map((issue) => issue.issue) });
  }
  return { problems, overallScore: Math.round((total / Math.max(1, worksheet.problems.length)) * 100) / 100 };
}
