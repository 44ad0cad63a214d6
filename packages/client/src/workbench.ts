import type {
  AgentResult,
  AutoFixResponse,
  CheckConsistencyBody,
  ConsistencyIssue,
  ConsistencyReport,
  CreatedWorksheet,
  CreateWorksheetBody,
  EditableField,
  Problem,
  ProblemEdit,
  Suggestions,
  ValidateResponse,
  Worksheet,
} from '@convo/contract';
import { EventStream, type EventStreamOptions } from './event-stream.js';
import type { StreamEvent } from './events.js';
import { path, type CallOptions, type Transport } from './transport.js';
import type { RunSteps } from './types.js';

/** The workbench agent's steps over SSE: the worksheet (session) and turn it runs in, and its events. */
export class AgentStream extends EventStream {
  constructor(
    source: ConstructorParameters<typeof EventStream>[0],
    options: EventStreamOptions,
    first: Response,
    readonly worksheetId: string,
    readonly turnId: string,
  ) {
    super(source, options, first);
  }
}

/**
 * The problem workbench (docs/api.md §5): worksheets, problems, checks, fixes, the agent, PDFs.
 * Every call but createWorksheet needs the worksheet's token as `call.token`: its `editToken`
 * for changes, its `shareToken` (or the edit token) for reading.
 */
export function workbenchCalls(http: Transport) {
  return {
    /** POST /api/worksheets: generates 10 problems (422 `unsupported_subject` offline for a subject the generators lack); answers its editToken and shareToken. */
    createWorksheet: (body: CreateWorksheetBody, call?: CallOptions) =>
      http.json<CreatedWorksheet>({ method: 'POST', path: '/api/worksheets', json: body, idempotent: false }, call),

    /** DELETE /api/worksheets/:id (edit token): the worksheet and its history are gone. */
    deleteWorksheet: (worksheetId: string, call?: CallOptions) =>
      http.json<void>({ method: 'DELETE', path: path`/api/worksheets/${worksheetId}`, idempotent: true }, call),

    getWorksheet: (worksheetId: string, call?: CallOptions) =>
      http.json<Worksheet>({ method: 'GET', path: path`/api/worksheets/${worksheetId}`, idempotent: true }, call),

    getProblem: (problemId: string, call?: CallOptions) =>
      http.json<Problem>({ method: 'GET', path: path`/api/problems/${problemId}`, idempotent: true }, call),

    /**
     * PATCH /api/problems/:id: edits one section of the problem at `version`.
     * A stale version throws a ProblemConflictError carrying the current problem.
     */
    patchProblem: (problemId: string, edit: { field: EditableField; value: unknown; version: number }, call?: CallOptions) =>
      // Idempotent by its version: a repeat of an edit that was applied is refused as stale, never applied twice.
      http.json<Problem>({ method: 'PATCH', path: path`/api/problems/${problemId}`, json: edit, idempotent: true }, call),

    /** POST /api/problems/:id/undo: undoes the last edit (not repeatable: a repeat would undo another). */
    undo: (problemId: string, call?: CallOptions) =>
      http.json<Problem>({ method: 'POST', path: path`/api/problems/${problemId}/undo`, idempotent: false }, call),

    /** POST /api/problems/:id/check-consistency, of the stored problem or of it with one section replaced. */
    checkConsistency: (problemId: string, body: CheckConsistencyBody = {}, call?: CallOptions) =>
      http.json<ConsistencyReport>(
        { method: 'POST', path: path`/api/problems/${problemId}/check-consistency`, json: body, idempotent: true },
        call,
      ),

    /** POST /api/problems/:id/auto-fix: fixes proposed, not applied. */
    autoFix: (problemId: string, issues: Pick<ConsistencyIssue, 'field' | 'issue'>[] = [], call?: CallOptions) =>
      http.json<AutoFixResponse>(
        {
          method: 'POST',
          path: path`/api/problems/${problemId}/auto-fix`,
          json: { issues: issues.map(({ field, issue }) => ({ field, issue })) },
          idempotent: true,
        },
        call,
      ),

    suggestions: (problemId: string, call?: CallOptions) =>
      http.json<Suggestions>({ method: 'GET', path: path`/api/suggestions/${problemId}`, idempotent: true }, call),

    /** GET /api/problems/:id/history: the problem's edits, oldest first. */
    history: (problemId: string, call?: CallOptions) =>
      http.json<{ problemId: string; edits: ProblemEdit[] }>(
        { method: 'GET', path: path`/api/problems/${problemId}/history`, idempotent: true },
        call,
      ),

    validate: (worksheetId: string, call?: CallOptions) =>
      http.json<ValidateResponse>({ method: 'POST', path: path`/api/worksheets/${worksheetId}/validate`, idempotent: true }, call),

    runSteps: (worksheetId: string, call?: CallOptions) =>
      http.json<RunSteps>({ method: 'GET', path: path`/api/worksheets/${worksheetId}/runsteps`, idempotent: true }, call),

    /** The URL of a worksheet's PDF, for a link. */
    pdfUrl: (worksheetId: string, sheet: 'questions' | 'answers' = 'questions') =>
      http.url(path`/api/worksheets/${worksheetId}/pdf`, { sheet }),

    /** GET /api/worksheets/:id/pdf: the question or answer sheet as bytes (application/pdf). */
    pdf: async (worksheetId: string, sheet: 'questions' | 'answers' = 'questions', call?: CallOptions): Promise<Uint8Array> => {
      const res = await http.send(
        { method: 'GET', path: path`/api/worksheets/${worksheetId}/pdf`, query: { sheet }, accept: 'application/pdf', idempotent: true },
        call,
      );
      return new Uint8Array(await res.arrayBuffer());
    },

    /** POST /api/problems/:id/agent: a free-form request to the problem-management agent; resolves with its answer. */
    agent: (problemId: string, request: string, call?: CallOptions) =>
      http.json<AgentResult>({ method: 'POST', path: path`/api/problems/${problemId}/agent`, json: { request }, idempotent: false }, call),

    /**
     * The same with `Accept: text/event-stream`: the agent's `workbench.step`
     * events as it works, ending with `workbench.result` (or `turn.failed`).
     * The request is not repeatable, so a dropped stream ends in an ApiError.
     */
    agentStream: async (
      problemId: string,
      request: string,
      call: CallOptions & Omit<EventStreamOptions, 'signal' | 'lastEventId'> = {},
    ): Promise<AgentStream> => {
      const { signal, token, retry, ...streamOptions } = call;
      const first = await http.send(
        { method: 'POST', path: path`/api/problems/${problemId}/agent`, json: { request }, accept: 'text/event-stream', idempotent: false },
        { signal, token, retry },
      );
      const turnId = first.headers.get('x-turn-id') ?? '';
      const source = {
        resumable: false,
        open: () => Promise.reject(new Error('the agent request is not repeatable')),
        isEnd: (ev: StreamEvent) => ev.type === 'workbench.result' || (ev.type === 'turn.failed' && ev.data.turnId === turnId),
      };
      return new AgentStream(
        source,
        { ...streamOptions, ...(signal ? { signal } : {}) },
        first,
        first.headers.get('x-session-id') ?? '',
        turnId,
      );
    },
  };
}
