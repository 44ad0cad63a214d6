import { z } from 'zod';
import type { ToolSpec } from './types.js';

/**
 * JSON Schema for a tool's parameters, compatible with OpenAI strict function
 * calling: every property required, no additional properties, nullable for
 * "may be absent" (seed 004: nullable, never optional).
 */
export function toolParameters(schema: z.ZodObject): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { target: 'draft-7', io: 'input' }) as Record<string, unknown>;
  delete json.$schema;
  return strictify(json, '') as Record<string, unknown>;
}

function strictify(node: unknown, path: string): unknown {
  if (Array.isArray(node)) return node.map((n, i) => strictify(n, `${path}[${i}]`));
  if (!node || typeof node !== 'object') return node;
  const obj = { ...(node as Record<string, unknown>) };
  if (obj.type === 'object' && obj.properties && typeof obj.properties === 'object') {
    const props = obj.properties as Record<string, unknown>;
    const required = new Set((obj.required as string[] | undefined) ?? []);
    for (const key of Object.keys(props)) {
      if (!required.has(key)) throw new Error(`tool schema property ${path}.${key} is optional; use nullable instead`);
    }
    obj.required = Object.keys(props);
    obj.additionalProperties = false;
  }
  for (const [k, v] of Object.entries(obj)) obj[k] = strictify(v, k === 'properties' ? path : `${path}.${k}`);
  return obj;
}

/** The model-facing description of a tool. */
export function toolSpec(name: string, description: string, schema: z.ZodObject): ToolSpec {
  return { name, description, parameters: toolParameters(schema) };
}
