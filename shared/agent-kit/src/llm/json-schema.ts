import { z } from 'zod';
import type { ToolSpec } from './types.js';

type JsonSchema = Record<string, unknown>;

/**
 * Keywords that OpenAI strict function calling rejects (the list the `openai`
 * SDK's own strict-schema transform refuses), each with the zod construct that
 * usually emits it, for the error message. Refusing them here turns a 400 from
 * the API at run time into an error when the tool's spec is built.
 */
const UNSUPPORTED_KEYWORDS: Readonly<Record<string, string>> = {
  allOf: 'an intersection',
  not: '',
  if: '',
  then: '',
  else: '',
  prefixItems: 'a tuple (z.tuple)',
  additionalItems: 'a tuple (z.tuple)',
  patternProperties: 'a record (z.record)',
  propertyNames: 'a record (z.record)',
  dependencies: '',
  dependentRequired: '',
  dependentSchemas: '',
  unevaluatedProperties: '',
  unevaluatedItems: '',
  contains: '',
  uniqueItems: '',
  minProperties: '',
  maxProperties: '',
};

/** A schema node must say what it is; `{}` (from `z.unknown()`/`z.any()`) is refused by strict mode. */
const SHAPE_KEYWORDS = ['type', 'anyOf', '$ref', 'enum', 'const'] as const;

/**
 * JSON Schema for a tool's parameters, compatible with OpenAI strict function
 * calling: every property listed in `required`, `additionalProperties: false`
 * on every object, nullable fields as `type: [x, 'null']` or `anyOf [..., {type: 'null'}]`.
 *
 * Generated with zod's own `z.toJSONSchema`, as `io: 'input'` because the model
 * writes what `parseAndValidateToolArgs` later parses, and as draft-7 like the
 * SDK's own zod helper.
 *
 * @throws Error when the schema has an optional (or defaulted) property — seed
 *   004: tool inputs are nullable, never optional — or uses anything strict
 *   mode cannot express (records, open objects, tuples, `z.unknown()`, …).
 */
export function toolParameters(schema: z.ZodObject<z.ZodRawShape, z.core.$ZodObjectConfig>): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { target: 'draft-7', io: 'input' }) as JsonSchema;
  delete json.$schema;
  return strictNode(json, '$');
}

/**
 * The model-facing description of a tool.
 *
 * @throws Error as {@link toolParameters} does, naming the tool.
 */
export function toolSpec(name: string, description: string, schema: z.ZodObject<z.ZodRawShape, z.core.$ZodObjectConfig>): ToolSpec {
  try {
    return { name, description, parameters: toolParameters(schema) };
  } catch (err) {
    throw new Error(`tool ${name}: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
}

/** Returns a strict copy of one schema node and, recursively, of every schema below it. */
function strictNode(node: unknown, path: string): JsonSchema {
  if (!isRecord(node)) throw new Error(`tool schema at ${path} is not an object schema (${JSON.stringify(node)})`);
  const out: JsonSchema = { ...node };
  refuseUnsupported(out, path);
  // zod emits oneOf for discriminated unions; strict mode only knows anyOf. The
  // SDK rewrites it the same way: distinct discriminator values make the two equivalent.
  if (Array.isArray(out.oneOf)) {
    out.anyOf = out.oneOf;
    delete out.oneOf;
  }
  if (!SHAPE_KEYWORDS.some((k) => k in out)) {
    throw new Error(`tool schema at ${path} accepts anything (z.unknown()/z.any()); strict mode needs a type`);
  }
  if (isObjectType(out)) closeObject(out, path);
  if (out.type === 'array' || (Array.isArray(out.type) && out.type.includes('array'))) {
    if (!isRecord(out.items)) throw new Error(`tool schema at ${path} is an array without one items schema (tuple?)`);
    out.items = strictNode(out.items, `${path}[]`);
  }
  if (Array.isArray(out.anyOf)) out.anyOf = out.anyOf.map((branch, i) => strictNode(branch, `${path}|${i}`));
  for (const defs of ['definitions', '$defs'] as const) {
    if (isRecord(out[defs])) out[defs] = mapValues(out[defs], (d, key) => strictNode(d, `#${key}`));
  }
  return out;
}

/** Every property required and no others allowed: what strict mode demands of each object. */
function closeObject(obj: JsonSchema, path: string): void {
  if (obj.additionalProperties !== undefined && obj.additionalProperties !== false) {
    throw new Error(`tool schema at ${path} allows extra keys (z.record/z.looseObject/catchall); strict mode needs fixed properties`);
  }
  const props = isRecord(obj.properties) ? obj.properties : {};
  const required = new Set(Array.isArray(obj.required) ? obj.required : []);
  const optional = Object.keys(props).filter((key) => !required.has(key));
  if (optional.length > 0) {
    const where = optional.map((key) => `${path}.${key}`).join(', ');
    throw new Error(
      `tool schema property ${where} is optional or has a default; tool inputs are nullable, never optional: use .nullable()`,
    );
  }
  obj.properties = mapValues(props, (p, key) => strictNode(p, `${path}.${key}`));
  obj.required = Object.keys(props);
  obj.additionalProperties = false;
}

function refuseUnsupported(node: JsonSchema, path: string): void {
  const used = Object.keys(UNSUPPORTED_KEYWORDS).filter((k) => k in node);
  if (used.length === 0) return;
  const hints = [...new Set(used.map((k) => UNSUPPORTED_KEYWORDS[k]).filter(Boolean))];
  const from = hints.length > 0 ? ` (from ${hints.join(', ')})` : '';
  throw new Error(`tool schema at ${path} uses ${used.join(', ')}${from}, which strict function calling does not support`);
}

function isObjectType(node: JsonSchema): boolean {
  return node.type === 'object' || (Array.isArray(node.type) && node.type.includes('object'));
}

function isRecord(v: unknown): v is JsonSchema {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function mapValues(obj: JsonSchema, f: (value: unknown, key: string) => unknown): JsonSchema {
  return Object.fromEntries(Object.entries(obj).map(([k, v]) => [k, f(v, k)]));
}
