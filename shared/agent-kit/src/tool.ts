import { z } from 'zod';
import type { Logger, SessionDraft } from '@convo/runtime';
import type { AgentName } from '@convo/contract';

/**
 * Seed 004's FunctionCallResult: `status` plus `result.message`, which is what
 * the model reads next; agent-specific data rides beside the message.
 */
export type FunctionCallResult<R extends Record<string, unknown> = Record<string, unknown>> = {
  status: 'success' | 'error';
  result: { message: string } & Partial<R>;
};

export function success<R extends Record<string, unknown>>(message: string, extra?: R): FunctionCallResult<R> {
  return { status: 'success', result: { message, ...(extra ?? {}) } as { message: string } & Partial<R> };
}

export function failure(message: string): FunctionCallResult {
  return { status: 'error', result: { message } };
}

/** How a tool steers the loop: `ask` waits for the user; `suspend` hands a subtask to another agent's queue. */
export type ToolControl = { type: 'ask' } | { type: 'suspend'; subAgent: AgentName };

export type ToolExecution = { result: FunctionCallResult<Record<string, unknown>>; control?: ToolControl };

export type ToolContext<D extends SessionDraft = SessionDraft> = {
  draft: D;
  agent: AgentName;
  turnId: string;
  log: Logger;
  /** The id clients already saw this call's message text under while it was generated (message.delta), if any. */
  messageId?: string;
};

export type Tool<S extends z.ZodObject = z.ZodObject, D extends SessionDraft = SessionDraft> = {
  name: string;
  description: string;
  /** Tool input schema: every field present, optional ones nullable (docs/seeds/004, 1.1). */
  schema: S;
  execute(args: z.infer<S>, ctx: ToolContext<D>): Promise<ToolExecution> | ToolExecution;
};

/** Factory that keeps the input schema and the executor's argument type in one place. */
export function createTool<S extends z.ZodObject, D extends SessionDraft = SessionDraft>(tool: Tool<S, D>): Tool<S, D> {
  return tool;
}

/**
 * Step 1 of parseAndValidateToolArgs: tool arguments arrive as a JSON string
 * (remote models) or an already-parsed object. Picked by type rather than a
 * union, so the model is told "not valid JSON" instead of a generic union error.
 */
const JsonArgsString = z.string().transform((s, ctx) => {
  try {
    return JSON.parse(s === '' ? '{}' : s) as unknown;
  } catch (err) {
    ctx.addIssue({ code: 'custom', message: `arguments are not valid JSON (${err instanceof Error ? err.message : 'unparsable'})` });
    return z.NEVER;
  }
});
const ArgsObject = z.record(z.string(), z.unknown(), { error: 'arguments must be a JSON object or a JSON string' });
export const ParseToolArgsSchema = {
  safeParse(input: unknown) {
    return typeof input === 'string' ? JsonArgsString.safeParse(input) : ArgsObject.safeParse(input);
  },
  parse(input: unknown): unknown {
    return typeof input === 'string' ? JsonArgsString.parse(input) : ArgsObject.parse(input);
  },
};

/** The one helper that turns raw tool arguments into validated, typed input (docs/seeds/004, section 6). */
export function parseAndValidateToolArgs<T>(
  toolArgs: unknown,
  schema: z.ZodType<T>,
  toolName: string,
): { success: true; data: T } | { success: false; error: string } {
  const parsed = ParseToolArgsSchema.safeParse(toolArgs);
  if (!parsed.success) {
    return { success: false, error: `Invalid JSON for ${toolName}: ${parsed.error.issues[0]?.message ?? 'unparsable'}` };
  }
  const validated = schema.safeParse(parsed.data);
  if (!validated.success) {
    const detail = validated.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
    return { success: false, error: `Invalid parameters for ${toolName}: ${detail}` };
  }
  return { success: true, data: validated.data };
}
