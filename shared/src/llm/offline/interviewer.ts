import type { InterviewerContext } from '../../agents/contexts.js';
import {
  alreadyCompleteText,
  bootstrapDoneText,
  completionText,
  followUpText,
  questionText,
  requiredStillMissingText,
} from '../../nlu/phrasing.js';
import { countryName } from '../../nlu/country.js';
import { ask, call, type Policy } from './protocol.js';

/**
 * The offline interviewer: review a pending answer, follow up on what the
 * reviewer found missing, otherwise ask the current field; close when done.
 */
export const interviewerPolicy: Policy = (req, tail) => {
  const ctx = req.context as InterviewerContext;
  const lang = ctx.language;
  const last = tail.at(-1);
  const cur = ctx.current;

  if (!cur) {
    const justFinished = last?.name === 'subtask';
    const summary = ctx.summary.map((s) => ({ label: s.label, value: s.value, status: s.status }));
    return ask(justFinished || ctx.sessionStatus === 'active' ? completionText(lang, summary) : alreadyCompleteText(lang));
  }
  if (last?.name === 'subtask' && last.status === 'success') {
    const out = last.result.reviewerAgentOutput as { outcome?: string; missing_facts?: string[]; feedback?: string } | undefined;
    if (out?.outcome === 'follow_up') {
      return ask(followUpText({ field: cur, missingFacts: out.missing_facts ?? [], feedback: out.feedback ?? null, language: lang }));
    }
    return ask(question(ctx));
  }
  if (ctx.answerPending && last?.name !== 'subtask') {
    return call('subtask', { agent: 'reviewer', field_id: cur.fieldId, note: null });
  }
  return ask(question(ctx));
};

function question(ctx: InterviewerContext): string {
  const cur = ctx.current!;
  const q = questionText({ field: cur, facts: cur.facts, language: ctx.language, isFirst: ctx.firstQuestion });
  if (ctx.reopened) return `${requiredStillMissingText(ctx.language, [cur.label])}\n${q}`;
  if (ctx.firstQuestion && ctx.bootstrap.country && ctx.bootstrap.timezone) {
    const country = countryName(ctx.bootstrap.country, ctx.language);
    return `${bootstrapDoneText(ctx.language, { country, timezone: ctx.bootstrap.timezone })}\n${q}`;
  }
  return q;
}
