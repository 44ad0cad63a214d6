import type {
  AgentDialogResponse,
  CancelTurnResponse,
  CreateSessionResponse,
  PostTurnResponse,
  RunStepsResponse,
  SessionSnapshot,
  SubmitResponse,
} from '@convo/contract';

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
/** GET /v1/sessions/:id (and a `resync` event's `snapshot`). */
export type { SessionSnapshot, SubmitResponse };
export type CancelResult = Output<typeof CancelTurnResponse>;
export type RunSteps = Output<typeof RunStepsResponse>;
/** POST /agent.dialog (JSON): `sessionToken` when the call started a dialog. */
export type DialogResponse = AgentDialogResponse;
