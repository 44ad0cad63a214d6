import { SystemError } from '@convo/runtime';
import type { z } from 'zod';
import { CheckerOutput } from './checker-output.js';
import { ReviewerOutput } from './reviewer-output.js';

/**
 * The results the form product's sub-agents hand back to the interviewer,
 * one catalog: the key each rides under in the subtask's tool result, and
 * its schema. The producer builds it typed; the caller parses it.
 */
export const SUB_AGENT_RESULTS = {
  reviewer: { key: 'reviewerAgentOutput', schema: ReviewerOutput },
  checker: { key: 'checkerAgentOutput', schema: CheckerOutput },
} as const;

export type SubAgent = keyof typeof SUB_AGENT_RESULTS;
type Catalog = typeof SUB_AGENT_RESULTS;
export type SubAgentOutput<A extends SubAgent> = z.infer<Catalog[A]['schema']>;

/** `{ reviewerAgentOutput: output }`: the data a sub-agent's tool result carries beside its message. */
export function subAgentResult<A extends SubAgent>(agent: A, output: SubAgentOutput<A>): { [K in Catalog[A]['key']]: SubAgentOutput<A> } {
  return { [SUB_AGENT_RESULTS[agent].key]: output } as { [K in Catalog[A]['key']]: SubAgentOutput<A> };
}

/**
 * A sub-agent's result that does not match its schema. The result is written
 * by code from validated tool arguments, so this is our own bug (or a result
 * stored by an older version), never the respondent's or the model's.
 */
export class SubAgentResultError extends SystemError {
  readonly agent: SubAgent;
  /** Each problem as "path: message" ("missing.0.reason: Invalid option: …"). */
  readonly issues: readonly string[];

  constructor(agent: SubAgent, error: z.ZodError) {
    const issues = error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`);
    super(`the ${agent}'s result does not match its schema: ${issues.join('; ')}`, error);
    this.agent = agent;
    this.issues = issues;
  }
}

export type ParsedSubAgentResult<A extends SubAgent> =
  { success: true; data: SubAgentOutput<A> } | { success: false; error: SubAgentResultError };

/** Reads a sub-agent's result out of its subtask tool result (`result`), validated against its schema. */
export function parseSubAgentResult<A extends SubAgent>(agent: A, result: Readonly<Record<string, unknown>>): ParsedSubAgentResult<A> {
  const { key, schema } = SUB_AGENT_RESULTS[agent];
  const parsed = schema.safeParse(result[key]);
  if (parsed.success) return { success: true, data: parsed.data as SubAgentOutput<A> };
  return { success: false, error: new SubAgentResultError(agent, parsed.error) };
}
