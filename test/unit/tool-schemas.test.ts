import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toolParameters, toolSpec } from '@convo/agent-kit/internal/llm/json-schema';
import { greeterAgent } from '../../services/greeter/src/agent.js';
import { architectAgent } from '../../services/architect/src/agent.js';
import { interviewerAgent } from '../../services/interviewer/src/agent.js';
import { createReviewerAgent } from '../../services/reviewer/src/agent.js';

type Schema = {
  type?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean;
  items?: Schema;
  anyOf?: Schema[];
};

/** OpenAI strict mode: every object lists all its properties as required and forbids extra ones. */
function assertStrict(schema: Schema, path: string): void {
  if (schema.type === 'object') {
    expect(schema.additionalProperties, `${path} additionalProperties`).toBe(false);
    expect([...(schema.required ?? [])].sort(), `${path} required`).toEqual(Object.keys(schema.properties ?? {}).sort());
  }
  for (const [k, v] of Object.entries(schema.properties ?? {})) assertStrict(v, `${path}.${k}`);
  if (schema.items) assertStrict(schema.items, `${path}[]`);
  for (const a of schema.anyOf ?? []) assertStrict(a, path);
}

describe('tool schemas sent to the model', () => {
  const agents = [greeterAgent, architectAgent, interviewerAgent, createReviewerAgent({ maxFollowUps: 3 })];
  for (const agent of agents) {
    for (const tool of agent.tools) {
      it(`${agent.name}.${tool.name} is a strict function schema`, () => {
        const spec = toolSpec(tool.name, tool.description, tool.schema);
        assertStrict(spec.parameters as Schema, tool.name);
        expect(spec.parameters).not.toHaveProperty('$schema');
      });
    }
  }

  it('refuses an optional property: tool inputs are nullable, never optional', () => {
    expect(() => toolParameters(z.object({ a: z.string().optional() }))).toThrow(/optional/);
  });

  it('keeps nullable fields required and allows null', () => {
    const parameters = toolParameters(z.object({ hint: z.union([z.string(), z.null()]) })) as Schema;
    expect(parameters.required).toEqual(['hint']);
    expect(JSON.stringify(parameters.properties?.hint)).toMatch(/null/);
  });
});
