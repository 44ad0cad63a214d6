import { z } from 'zod';
import { AgentName } from './session.js';

/** Audit record of one tool execution (docs/seeds/004, section 5). */
export const RunStep = z.object({
  runStepId: z.string(),
  turnId: z.string(),
  agent: AgentName,
  toolName: z.string(),
  /** Tool arguments: parsed when they parsed, else the raw string the model sent. */
  input: z.unknown(),
  /** The FunctionCallResult the tool returned. */
  output: z.unknown(),
  startedAt: z.string(),
  finishedAt: z.string(),
  /** An execution of a step whose turn then failed: recorded for the audit, its effects discarded. */
  discarded: z.boolean().optional(),
  /** The model call that asked for this execution, on the first run step of that call (not repeated on its siblings). */
  usage: z
    .object({
      promptTokens: z.number().int(),
      cachedTokens: z.number().int(),
      completionTokens: z.number().int(),
      reasoningTokens: z.number().int(),
    })
    .optional(),
});
export type RunStep = z.infer<typeof RunStep>;
