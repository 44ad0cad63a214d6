import { auditTranscript, resolveTopics } from '@convo/forms';
import { call, callsOf, type Policy } from '@convo/agent-kit';
import { auditResult } from './agent.js';
import type { AuditorContext } from './context.js';

/** The offline auditor: compliance/audit's rules plus a warning for each prohibited topic the applicant volunteered. */
export const auditorPolicy: Policy = (req, tail) => {
  const ctx = req.context as AuditorContext;
  if (callsOf(tail, auditResult).some((outcome) => outcome.status === 'success')) return { text: 'Audited.' };
  const topics = resolveTopics(ctx.prohibitedTopics);
  const audit = auditTranscript({ language: ctx.language, messages: ctx.messages, fields: ctx.fields, facts: ctx.facts, topics });
  const labels = new Map(topics.map((topic) => [topic.id, topic.label.en]));
  const volunteered = ctx.volunteered.flatMap((report) =>
    report.topics.map((id) => ({
      type: 'prohibited_topic',
      severity: 'warning' as const,
      message: `the applicant volunteered information about ${labels.get(id) ?? id} (${report.messageId}); it was masked and not stored`,
    })),
  );
  return call(auditResult, { passed: audit.passed, violations: [...audit.violations, ...volunteered], summary: audit.summary });
};
