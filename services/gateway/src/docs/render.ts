/**
 * Renders the AsyncAPI document's events as the Markdown table of
 * docs/api.md, between its `events:begin` and `events:end` markers
 * (`npm run docs` writes it; a test checks it is current).
 */

type Json = Record<string, unknown>;

export const EVENTS_BEGIN = '<!-- events:begin (generated from the event schemas by scripts/docs.ts; do not edit) -->';
export const EVENTS_END = '<!-- events:end -->';

/** A JSON Schema's type in a few words: `string`, `integer ≥ 0`, `array of string`, `"a" | "b"`, `SessionSnapshot`, `… | null`. */
export function typeOf(schema: Json | undefined): string {
  if (!schema) return 'any';
  if (typeof schema.$ref === 'string') return schema.$ref.split('/').at(-1) ?? 'object';
  if ('const' in schema) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum)) return schema.enum.map((value) => JSON.stringify(value)).join(' \\| ');
  const variants = (schema.anyOf ?? schema.oneOf) as Json[] | undefined;
  if (Array.isArray(variants)) return variants.map((variant) => typeOf(variant)).join(' \\| ');
  const type = schema.type;
  if (Array.isArray(type)) return type.join(' \\| ');
  if (type === 'array') return `array of ${typeOf(schema.items as Json | undefined)}`;
  // zod bounds every integer to the safe range: only a bound of the contract's own is worth saying.
  if (type === 'integer' && typeof schema.minimum === 'number' && schema.minimum > Number.MIN_SAFE_INTEGER)
    return `integer ≥ ${schema.minimum}`;
  if (type === 'object') {
    if (schema.properties) return 'object';
    if (schema.additionalProperties && typeof schema.additionalProperties === 'object')
      return `map of ${typeOf(schema.additionalProperties as Json)}`;
    return 'object';
  }
  return typeof type === 'string' ? type : 'any';
}

function fieldList(object: Json, inner: (schema: Json) => string): string[] {
  const properties = (object.properties ?? {}) as Record<string, Json>;
  const required = new Set((object.required ?? []) as string[]);
  return Object.entries(properties).map(([name, schema]) => `\`${name}\`${required.has(name) ? '' : '?'}: ${inner(schema)}`);
}

const isObjectWithFields = (schema: Json | undefined): schema is Json => !!schema && schema.type === 'object' && !!schema.properties;

/**
 * The payload's fields, one per line; a union of objects (a payload typed by
 * its `type`, as `state.changed`) one variant per line, its object-valued
 * fields spelt out one level deep.
 */
function fieldsOf(payload: Json): string {
  const variants = (payload.oneOf ?? payload.anyOf) as Json[] | undefined;
  if (Array.isArray(variants) && variants.every(isObjectWithFields)) {
    const inline = (schema: Json) => (isObjectWithFields(schema) ? `{ ${fieldList(schema, typeOf).join(', ')} }` : typeOf(schema));
    return variants.map((variant) => fieldList(variant, inline).join(', ')).join('<br>');
  }
  const fields = fieldList(payload, typeOf);
  return fields.length > 0 ? fields.join('<br>') : typeOf(payload);
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

/** The table: one row per event type, in the order of the event schemas. */
export function renderEventsTable(asyncapi: Json): string {
  const messages = ((asyncapi.components as Json).messages ?? {}) as Record<string, Json>;
  const rows = Object.values(messages).map((message) => {
    const payload = message.payload as Json;
    const stored = message['x-stored'] === true ? 'yes' : 'no';
    return `| \`${String(message.name)}\` | ${stored} | ${fieldsOf(payload)} | ${cell(String(message.summary ?? ''))} |`;
  });
  return [
    'Fields marked `?` may be absent. "Stored": the event has its own id, is kept in the session\'s history and is replayed after a reconnect. Full schemas: `/docs/asyncapi.json`.',
    '',
    '| event | stored | data | meaning |',
    '|---|---|---|---|',
    ...rows,
  ].join('\n');
}

/** `markdown` with the text between the event markers replaced by `table`; throws when the markers are missing. */
export function withEventsTable(markdown: string, table: string): string {
  const begin = markdown.indexOf(EVENTS_BEGIN);
  const end = markdown.indexOf(EVENTS_END);
  if (begin < 0 || end < begin) throw new Error('docs/api.md has no events:begin / events:end markers');
  return `${markdown.slice(0, begin + EVENTS_BEGIN.length)}\n${table}\n${markdown.slice(end)}`;
}
