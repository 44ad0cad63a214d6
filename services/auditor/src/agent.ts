import { createAgent, createTool, failure, success } from '@convo/agent-kit';
import type { ToolContext } from '@convo/agent-kit';
import type { ApplicationDraft } from '@convo/forms';
import type { AuditorContext } from './context.js';
import { applyAudit, formField } from '@convo/forms';
import { z } from 'zod';
import { AUDITOR_PROMPT } from './prompt.js';

/** Tool input: the seed's AuditResultSchema, `violations` nullable instead of optional (docs/seeds/004). */
export const AuditResultInput = z.object({
  passed: z.boolean(),
  violations: z.union([z.array(z.object({ type: z.string(), message: z.string(), severity: z.enum(['error', 'warning']) })), z.null()]),
  summary: z.string(),
});

export const auditResult = createTool({
  name: 'result',
  description: 'Return the audit of the whole interview and the application summary.',
  schema: AuditResultInput,
  execute(args, context: ToolContext<ApplicationDraft>) {
    const draft = context.draft;
    if (draft.state.audit !== null) return { result: failure('The audit was already recorded.') };
    applyAudit(draft, { passed: args.passed, violations: args.violations ?? [], summary: args.summary });
    return { result: success('Audit recorded.') };
  },
});

export function auditorContext(draft: ApplicationDraft): AuditorContext {
  const state = draft.state;
  return {
    agent: 'auditor',
    language: state.bootstrap.language === 'ja' ? 'ja' : 'en',
    // The interview proper: the greeter's bootstrap questions are not part of the application.
    messages: state.messages
      .filter((message) => message.agent !== 'greeter' && (message.role === 'assistant' || message.fieldId !== null))
      .map((message) => ({ role: message.role, text: message.text, fieldId: message.fieldId })),
    fields: state.fields.map((field) => {
      const def = formField(state, field.fieldId);
      return {
        fieldId: field.fieldId,
        label: def?.label ?? field.fieldId,
        intent: def?.intent ?? null,
        required: def?.required ?? false,
        status: field.status,
        value: field.value,
        needsReview: field.needsReview,
      };
    }),
    facts: (state.form?.facts ?? []).map((fact) => ({ formFieldId: fact.formFieldId, factKey: fact.factKey, fact: fact.fact })),
    prohibitedTopics: [...(state.form?.compliance?.prohibitedTopics ?? [])],
    volunteered: state.compliance.volunteered.map((entry) => ({ messageId: entry.messageId, topics: [...entry.topics] })),
  };
}

export const auditorAgent = createAgent<ApplicationDraft>({
  name: 'auditor',
  tools: [auditResult],
  instructions: () => AUDITOR_PROMPT,
  context: (draft) => auditorContext(draft),
  remainingTasks: (draft) => (draft.state.audit === null ? ['Return the audit using result'] : []),
  completion: (draft) => (draft.state.audit !== null ? { type: 'return' } : null),
  // The interview holds the applicant's words: it goes in the user message, not the system prompt.
  initialMessages: (draft) => [
    {
      role: 'user',
      content: `Audit this interview and summarise the application.\nInterview to audit:\n${JSON.stringify(auditorContext(draft))}`,
    },
  ],
});
