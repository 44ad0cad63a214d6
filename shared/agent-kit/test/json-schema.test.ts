import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toolParameters, toolSpec } from '@convo/agent-kit/internal/llm/json-schema';

/** What OpenAI strict function calling expects of tool parameters, checked on the generated JSON Schema. */
describe('toolParameters', () => {
  it('lists every property as required, forbids extra keys and drops $schema', () => {
    const parameters = toolParameters(z.object({ message: z.string().describe('What to say'), count: z.number() }));
    expect(parameters).toEqual({
      type: 'object',
      properties: { message: { type: 'string', description: 'What to say' }, count: { type: 'number' } },
      required: ['message', 'count'],
      additionalProperties: false,
    });
  });

  it('keeps nullable fields required and lets them be null', () => {
    const parameters = toolParameters(
      z.object({
        hint: z.union([z.string(), z.null()]),
        note: z.string().nullable(),
        facts: z.array(z.string()).nullable(),
      }),
    );
    expect(parameters.required).toEqual(['hint', 'note', 'facts']);
    expect(parameters.properties).toEqual({
      hint: { type: ['string', 'null'] },
      note: { type: ['string', 'null'] },
      facts: { anyOf: [{ type: 'array', items: { type: 'string' } }, { type: 'null' }] },
    });
  });

  it('closes nested objects: in arrays, in nullable unions and in recursive definitions', () => {
    const Item = z.object({ field_id: z.string(), required: z.boolean() });
    const Node: z.ZodType<{ name: string; children: unknown[] }> = z.object({
      name: z.string(),
      get children() {
        return z.array(Node);
      },
    });
    const parameters = toolParameters(z.object({ fields: z.array(Item), extra: Item.nullable(), tree: Node }));
    const closed = { type: 'object', required: ['field_id', 'required'], additionalProperties: false };
    expect(parameters).toMatchObject({
      properties: {
        fields: { type: 'array', items: closed },
        extra: { anyOf: [closed, { type: 'null' }] },
      },
    });
    const defs = Object.values(parameters.definitions as Record<string, unknown>);
    expect(defs).toEqual([expect.objectContaining({ required: ['name', 'children'], additionalProperties: false })]);
  });

  it('turns the oneOf of a discriminated union into anyOf, which strict mode supports', () => {
    const parameters = toolParameters(
      z.object({
        answer: z.discriminatedUnion('kind', [
          z.object({ kind: z.literal('text'), text: z.string() }),
          z.object({ kind: z.literal('skip') }),
        ]),
      }),
    );
    const answer = (parameters.properties as Record<string, Record<string, unknown>>).answer!;
    expect(answer).not.toHaveProperty('oneOf');
    expect(answer.anyOf).toMatchObject([
      { required: ['kind', 'text'], additionalProperties: false },
      { required: ['kind'], additionalProperties: false },
    ]);
  });

  it('allows an empty parameter object', () => {
    expect(toolParameters(z.object({}))).toEqual({ type: 'object', properties: {}, required: [], additionalProperties: false });
  });

  it('refuses an optional property: tool inputs are nullable, never optional', () => {
    expect(() => toolParameters(z.object({ a: z.string(), b: z.string().optional() }))).toThrow(/\$\.b is optional.*nullable/);
  });

  it('refuses an optional property deep inside an array', () => {
    expect(() => toolParameters(z.object({ items: z.array(z.object({ qty: z.number().nullish() })) }))).toThrow(
      /\$\.items\[\]\.qty is optional/,
    );
  });

  it('refuses a default, which makes the property optional for the model', () => {
    expect(() => toolParameters(z.object({ lang: z.string().default('en') }))).toThrow(/lang is optional or has a default/);
  });

  it.each([
    ['a record', z.object({ r: z.record(z.string(), z.string()) }), /\$\.r uses propertyNames \(from a record \(z\.record\)\)/],
    ['a loose object', z.object({ o: z.looseObject({ a: z.string() }) }), /\$\.o allows extra keys/],
    ['a tuple', z.object({ t: z.tuple([z.string(), z.number()]) }), /\$\.t uses additionalItems \(from a tuple \(z\.tuple\)\)/],
    [
      'an intersection of objects',
      z.object({ i: z.intersection(z.object({ a: z.string() }), z.object({ b: z.string() }).nullable()) }),
      /\$\.i uses allOf/,
    ],
    ['z.unknown()', z.object({ u: z.unknown() }), /\$\.u accepts anything/],
  ])('refuses %s, which strict mode cannot express', (_name, schema, message) => {
    expect(() => toolParameters(schema)).toThrow(message);
  });
});

describe('toolSpec', () => {
  it('is the ToolSpec of a tool: name, description and strict parameters', () => {
    const schema = z.object({ language: z.string() });
    expect(toolSpec('set_language', 'Set the language', schema)).toEqual({
      name: 'set_language',
      description: 'Set the language',
      parameters: toolParameters(schema),
    });
  });

  it('names the tool whose schema is refused', () => {
    expect(() => toolSpec('save_draft', 'Save', z.object({ a: z.string().optional() }))).toThrow(/^tool save_draft: .*optional/);
  });
});
