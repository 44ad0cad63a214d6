import type { ArchitectContext } from './context.js';
import { call, callsOf, type Policy } from '@convo/agent-kit';
import { createPlan } from './agent.js';

/** The offline architect: required fields first, then sortOrder (stable). */
export const architectPolicy: Policy = (req, tail) => {
  const ctx = req.context as ArchitectContext;
  if (callsOf(tail, createPlan).some((t) => t.status === 'success')) return { text: 'Plan created.' };
  const ordered = ctx.fields
    .map((f, i) => ({ f, i }))
    .sort((a, b) => Number(b.f.required) - Number(a.f.required) || a.f.sortOrder - b.f.sortOrder || a.i - b.i)
    .map(({ f }) => ({ field_id: f.fieldId, label: f.label, intent: f.intent ?? f.label, required: f.required }));
  return call(createPlan, { fields: ordered });
};
