import type {
  AgentName,
  AgentStep,
  CreateSessionResponse,
  FieldStatus,
  PostTurnResponse,
  SessionStatus,
  TokenTotals,
} from '@convo/runtime/contract';

/**
 * The output (what is received) and input (what may be sent: defaults
 * optional) of a contract schema. zod 4 keeps both on every schema's `_zod`;
 * reading them there spares the client an import of zod itself.
 */
export type Output<S> = S extends { _zod: { output: infer O } } ? O : never;
export type Input<S> = S extends { _zod: { input: infer I } } ? I : never;

export type CreatedSession = Output<typeof CreateSessionResponse>;
export type TurnAccepted = Output<typeof PostTurnResponse> & {
  /** The key the turn was posted with (generated when none was given): post again with it and nothing new is enqueued. */
  idempotencyKey: string;
};

export type SnapshotField = {
  fieldId: string;
  label: string;
  required: boolean;
  status: FieldStatus;
  value: string | null;
  followUps: number;
  skipReason?: string | null;
  needsReview?: boolean;
};

export type SnapshotMessage = {
  messageId: string;
  role: 'user' | 'assistant';
  agent: AgentName | null;
  text: string;
  createdAt: string;
  fieldId?: string | null;
};

/** GET /v1/sessions/:id (and a `resync` event's `snapshot`): docs/api.md §2 plus the ids a client may use. */
export type SessionSnapshot = {
  sessionId: string;
  kind: 'form' | 'application' | 'faq' | 'workbench';
  status: SessionStatus;
  currentAgent: AgentName;
  bootstrap: { language: string | null; country: string | null; timezone: string | null };
  fields: SnapshotField[];
  collectedFields: Record<string, string>;
  needsReview: string[];
  audit: unknown;
  messages: SnapshotMessage[];
  turn: { active: string | null; queued: number };
  usage?: TokenTotals;
  /** The id of the session's last stored event: follow the stream from here to miss nothing after this snapshot. */
  lastEventId: number;
  createdAt: string;
  updatedAt: string;
};

export type SubmitResult = {
  sessionId: string;
  status: string;
  collectedFields: Record<string, string>;
  needsReview: string[];
  audit: unknown;
};

export type CancelResult = { turnId: string; status: 'cancelled' | 'cancelling' };

/** One tool execution of the audit log (docs/api.md §2 GET …/runsteps). */
export type RunStep = {
  runStepId: string;
  turnId: string;
  agent: string;
  toolName: string;
  input: unknown;
  output: unknown;
  startedAt: string;
  finishedAt: string | null;
  [extension: string]: unknown;
};

/** POST /agent.dialog (JSON): the seed's response, and `sessionToken` when the call started a dialog. */
export type DialogResponse = {
  sessionId: string;
  answer: string | null;
  needsClarification: boolean;
  clarifyingQuestions?: string[];
  steps: AgentStep[];
  final: boolean;
  meta: {
    multiStepPlan?: Record<string, unknown>;
    orchestratorMode: 'local' | 'crew';
    orchestrationSteps?: Record<string, unknown>[];
    latencyMs?: number;
    sources?: string[];
    [extension: string]: unknown;
  };
  /** Continue the dialog with `Authorization: Bearer <sessionToken>` (the client's `dialog` does when given it). */
  sessionToken?: string;
};
