import { randomUUID } from 'node:crypto';
import { AppError, ConflictError, dispatch, NotFoundError, UnauthorizedError, UnavailableError, ValidationError } from '@convo/runtime';
import {
  coreSessionState,
  type CreatedWorksheet,
  type CreateWorksheetBody,
  type AgentResult,
  type EventType,
  JOB_SCHEMA_VERSION,
  type Problem,
  type ProblemEdit,
  type WorkbenchRequest,
  WorkbenchRequestResult,
  type WorkbenchSessionState,
  type Worksheet,
} from '@convo/contract';
import {
  applyEdit,
  offlineSubject,
  undoTarget,
  type FieldChange,
  UnsupportedSubjectError,
  assertTopicOffered,
  validateEditValue,
  workbenchDraft,
  worksheetIdOf,
  enqueueWorkbenchRequest,
} from '@convo/workbench';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { newToken, sameSecret, tokenOf } from '../auth.js';
import type { GatewayDeps } from '../deps.js';
import { streamTurn, turnStreamDeps } from '../faq/dialog-stream.js';
import { awaitTurnEnd } from './turn-waiter.js';
import { awaitJob } from '../jobs/await-job.js';
import { clientOf } from '../load/client-limits.js';
import { acceptTurn, deleteSession } from './service.js';

/**
 * The workbench's use cases (docs/api.md, "Workbench"): a worksheet is a
 * session of kind `workbench` whose first run (on the workbench agent's queue)
 * generates it; edits are compare-and-set commits of that session, so they are
 * ordered with the agent's turns and kept with their history. The worksheet
 * belongs to whoever holds its edit token (a share token reads it); checks,
 * fixes, suggestions, validation and PDFs are computed by the workbench
 * agent's worker from the stored worksheet, never on the gateway.
 */
type Deps = Pick<GatewayDeps, 'store' | 'queues' | 'config' | 'hub' | 'redis' | 'metrics' | 'quotas' | 'queueEvents'>;

export async function createWorksheet(deps: Deps, body: CreateWorksheetBody, req: FastifyRequest): Promise<CreatedWorksheet> {
  if (deps.config.llm.provider === 'offline') {
    if (offlineSubject(body.subject) === null) throw new UnsupportedSubjectError(body.subject, body.language);
    assertTopicOffered(body);
  }
  const sessionId = `ws-${randomUUID()}`;
  if (!(await deps.quotas.worksheets.take(clientOf(req), sessionId))) {
    throw new AppError(
      'too_many_worksheets',
      `this client holds ${deps.config.workbench.clientMaxWorksheets} worksheets; delete one or wait until one expires`,
      { status: 429 },
    );
  }
  let created = false;
  try {
    const turnId = randomUUID();
    const now = new Date().toISOString();
    const edit = newToken();
    const share = newToken();
    const state: WorkbenchSessionState = {
      ...coreSessionState({ sessionId, language: body.language, firstAgent: 'workbench', now }),
      kind: 'workbench',
      workbench: { request: body, shareTokenHash: share.hash, worksheet: null, history: {}, results: [], active: null },
    };
    const step = await deps.store.create({ state, tokenHash: edit.hash, agent: 'workbench', turnId });
    created = true;
    await dispatch(deps, sessionId, step);
    req.log.info({ sessionId, turnId, subject: body.subject }, 'worksheet requested');
    await awaitTurnEnd(deps, {
      sessionId,
      turnId,
      fromId: 0,
      timeoutMs: deps.config.workbench.timeoutMs,
      what: `the worksheet ${sessionId}`,
      // A subject the generators do not cover is the request's fault.
      statusOf: (code) => (code === 'unsupported_subject' || code === 'unsupported_topic' ? 422 : 502),
    });
    const { worksheet } = await loadWorkbench(deps, sessionId);
    return { ...worksheet, editToken: edit.token, shareToken: share.token };
  } catch (err) {
    // Its tokens never reach the client, so nobody could use or delete this worksheet: it would hold a place in the
    // client's quota, and Redis, until both expired.
    await (created ? deleteSession(deps, sessionId, req.log) : deps.quotas.worksheets.release(sessionId)).catch((cleanup: unknown) =>
      req.log.warn({ sessionId, err: cleanup }, 'a failed worksheet was not cleaned up'),
    );
    throw err;
  }
}

const AGENT_RESULT: ReadonlySet<EventType> = new Set(['workbench.result']);

/**
 * One request to the problem-management agent: a turn of the worksheet's
 * session naming the problem; its steps streamed when the client asks for
 * SSE, else its recorded answer once the turn ends.
 */
export async function askAgent(
  deps: Deps,
  req: FastifyRequest,
  reply: FastifyReply,
  loaded: LoadedProblem,
  request: string,
): Promise<AgentResult | void> {
  const sessionId = loaded.worksheet.worksheetId;
  const problemId = loaded.problem.id;
  const accepted = await acceptTurn(deps, req, reply, {
    sessionId,
    turnId: randomUUID(),
    message: request,
    multitask: 'enqueue',
    options: { problemId },
  });
  reply.header('x-turn-id', accepted.turnId);
  const turn = { sessionId, turnId: accepted.turnId, fromId: loaded.lastEventId };
  if (/text\/event-stream/i.test(String(req.headers.accept ?? '')))
    return streamTurn(req, reply, turnStreamDeps(deps), { ...turn, begun: false, endOn: AGENT_RESULT, route: 'problem agent' });
  await awaitTurnEnd(deps, {
    ...turn,
    timeoutMs: deps.config.workbench.timeoutMs,
    what: `the agent (problem ${problemId}, turn ${accepted.turnId})`,
  });
  const result = (await loadWorkbench(deps, sessionId)).state.workbench.results.find((entry) => entry.turnId === accepted.turnId);
  if (!result) throw new AppError('result_unavailable', 'the request finished but its result is no longer retained', { status: 502 });
  return result;
}

/**
 * Analysis of a stored worksheet or problem (WorkbenchRequest), done by the
 * workbench agent's worker: enqueued, awaited without polling, and answered as
 * the worker answered it (its error code and status included).
 */
export async function workbenchRequest<T>(
  deps: Pick<Deps, 'queues' | 'config' | 'queueEvents'>,
  request: WorkbenchRequest,
  answer: z.ZodType<T>,
): Promise<T> {
  const events = await deps.queueEvents('workbench');
  const job = await enqueueWorkbenchRequest(deps.queues, { v: JOB_SCHEMA_VERSION, request, trace: null });
  const raw = await awaitJob(deps.queues.get('workbench'), job, events, {
    timeoutMs: deps.config.workbench.timeoutMs,
    what: `the workbench's ${request.op}`,
    failedCode: 'workbench_failed',
  });
  const result = WorkbenchRequestResult.parse(raw);
  if (!result.ok) throw new AppError(result.error.code, result.error.message, { status: result.error.status });
  return answer.parse(result.value);
}

type LoadedWorkbench = {
  state: WorkbenchSessionState;
  version: number;
  messageCount: number;
  worksheet: Worksheet;
  lastEventId: number;
  tokenHash: string;
};
export type LoadedProblem = LoadedWorkbench & { problem: Problem };

/** What a worksheet's token lets its holder do: the edit token everything, the share token read. */
export type WorksheetAccess = 'read' | 'edit';

async function loadWorkbench(deps: Pick<Deps, 'store'>, worksheetId: string): Promise<LoadedWorkbench> {
  const loaded = await deps.store.load(worksheetId);
  if (!loaded || loaded.state.kind !== 'workbench' || !loaded.state.workbench.worksheet) throw worksheetNotFound(worksheetId);
  return {
    state: loaded.state,
    version: loaded.version,
    messageCount: loaded.messageCount,
    worksheet: loaded.state.workbench.worksheet,
    lastEventId: loaded.lastEventId,
    tokenHash: loaded.tokenHash,
  };
}

/**
 * The worksheet, for a caller holding a token that allows `access`: none at
 * all is 401; an unknown worksheet and a token that is not its (or a share
 * token for a change) are alike 404, so nobody learns that an id exists.
 */
export async function openWorksheet(
  deps: Pick<Deps, 'store'>,
  req: FastifyRequest,
  worksheetId: string,
  access: WorksheetAccess,
): Promise<LoadedWorkbench> {
  const presented = tokenOf(req);
  if (presented === null) throw new UnauthorizedError('a worksheet needs its token (Authorization: Bearer <editToken or shareToken>)');
  const loaded = await loadWorkbench(deps, worksheetId);
  const share = loaded.state.workbench.shareTokenHash;
  const allowed = sameSecret(presented, loaded.tokenHash) || (access === 'read' && share !== null && sameSecret(presented, share));
  if (!allowed) throw worksheetNotFound(worksheetId);
  return loaded;
}

/** The problem and its worksheet, for a caller holding a token that allows `access` (as openWorksheet). */
export async function openProblem(
  deps: Pick<Deps, 'store'>,
  req: FastifyRequest,
  problemId: string,
  access: WorksheetAccess,
): Promise<LoadedProblem> {
  const worksheetId = worksheetIdOf(problemId);
  if (!worksheetId) throw problemNotFound(problemId);
  const loaded = await openWorksheet(deps, req, worksheetId, access).catch((err: unknown) => {
    throw err instanceof NotFoundError ? problemNotFound(problemId) : err;
  });
  const problem = loaded.worksheet.problems.find((candidate) => candidate.id === problemId);
  if (!problem) throw problemNotFound(problemId);
  return { ...loaded, problem };
}

/** The problem as stored, for an edit already authorised (a retry of its compare-and-set loads it anew). */
async function loadProblem(deps: Pick<Deps, 'store'>, problemId: string): Promise<LoadedProblem> {
  const worksheetId = worksheetIdOf(problemId);
  const loaded = worksheetId ? await loadWorkbench(deps, worksheetId).catch(notFoundAsNull) : null;
  const problem = loaded?.worksheet.problems.find((candidate) => candidate.id === problemId);
  if (!loaded || !problem) throw problemNotFound(problemId);
  return { ...loaded, problem };
}

/** A worksheet that is not there is null; any other failure (Redis away) stays an error. */
function notFoundAsNull(err: unknown): null {
  if (err instanceof NotFoundError) return null;
  throw err;
}

const worksheetNotFound = (id: string) =>
  new NotFoundError(`worksheet ${id} not found (or the token is not this worksheet's)`, 'worksheet_not_found');
const problemNotFound = (id: string) =>
  new NotFoundError(`problem ${id} not found (or the token is not its worksheet's)`, 'problem_not_found');

/** A stale `version`: the client gets the problem as it is now. */
export class VersionConflictError extends ConflictError {
  constructor(readonly problem: Problem) {
    super('version_conflict', `problem ${problem.id} is at version ${problem.version}; edit that version`);
  }
}

type Change = { changes: FieldChange[]; version: number | null; by: ProblemEdit['by'] };

/**
 * One edit (PATCH, approve of an auto-fix, undo): a compare-and-set commit
 * of the worksheet's session, retried while the agent commits in between.
 * The first attempt uses the problem as the caller's access check loaded it;
 * each retry loads it anew. `change` is given, or worked out from the problem
 * as loaded (an undo).
 */
export async function editWorkbenchProblem(
  deps: Pick<Deps, 'store'>,
  opened: LoadedProblem,
  changeOf: Change | ((loaded: LoadedProblem) => Change),
): Promise<Problem> {
  let loaded = opened;
  for (let attempt = 0; attempt < 5; attempt++) {
    if (attempt > 0) loaded = await loadProblem(deps, opened.problem.id);
    const change = typeof changeOf === 'function' ? changeOf(loaded) : changeOf;
    if (change.version !== null && change.version !== loaded.problem.version) throw new VersionConflictError(loaded.problem);
    for (const { field, value } of change.changes) {
      // What a client sends is validated; an undo restores what was there (a rubric, the record) as it was.
      const invalid = field === 'rubric' || field === 'source' ? null : validateEditValue(loaded.problem, field, value);
      if (invalid) throw new ValidationError(invalid, 'invalid_edit');
    }
    const draft = workbenchDraft(loaded.state, true);
    const next = applyEdit(draft, loaded.problem, change.changes, change.by);
    const committed = await deps.store.commit({
      sessionId: loaded.worksheet.worksheetId,
      expectedVersion: loaded.version,
      messagesBefore: loaded.messageCount,
      expectedSeq: null,
      state: draft.state,
      mode: 'none',
      events: draft.events,
      runSteps: [],
    });
    if (committed.ok) return next;
  }
  throw new UnavailableError('the worksheet is changing; retry', 1);
}

/** Undoes the problem's last edit, worked out from the problem as each attempt loads it. */
export async function undoEdit(deps: Pick<Deps, 'store'>, opened: LoadedProblem): Promise<Problem> {
  const problemId = opened.problem.id;
  return editWorkbenchProblem(deps, opened, (loaded) => {
    const target = undoTarget(loaded.state.workbench.history[problemId] ?? []);
    if (!target) throw new ConflictError('nothing_to_undo', `problem ${problemId} has no edit to undo`);
    return { changes: target.map((edit) => ({ field: edit.field, value: edit.before })), version: null, by: 'undo' };
  });
}
