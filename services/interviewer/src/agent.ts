import { createAskTool } from '@convo/shared/agents/ask-tool';
import { conversationMessages, createAgent } from '@convo/shared/agents/agent';
import type { FieldView, InterviewerContext } from '@convo/shared/agents/contexts';
import type { SessionDraft } from '@convo/shared/agents/draft';
import { createTool, failure, success } from '@convo/shared/agents/tool';
import { answersForField, currentField, formField, markAsked, markReviewing } from '@convo/shared/domain/form-flow';
import type { SessionState } from '@convo/shared/schemas/session';
import { z } from 'zod';
import { INTERVIEWER_PROMPT } from './prompt.js';

export const SubtaskInput = z.object({
  agent: z.enum(['reviewer']).describe('The sub-agent to run.'),
  field_id: z.string().describe('The field the respondent just answered (must be the current field).'),
  note: z.union([z.string(), z.null()]).describe('Anything the reviewer should know, or null.'),
});

/**
 * subtask(reviewer): hands the current field's answers to the reviewer's own
 * queue and suspends this loop without holding a worker; the verdict comes
 * back as this call's result. Only the current field can be reviewed.
 */
const subtask = createTool({
  name: 'subtask',
  description: "Run a sub-agent. Use agent 'reviewer' after the respondent answered, to check the answer against the field's facts.",
  schema: SubtaskInput,
  execute(args, { draft }) {
    const cur = currentField(draft.state);
    if (!cur) return { result: failure('Every field is already resolved; there is nothing to review.') };
    if (args.field_id !== cur.field.fieldId) {
      return { result: failure(`Only the current field ${cur.field.fieldId} can be reviewed, not ${args.field_id}.`) };
    }
    if (answersForField(draft.state, cur.field.fieldId).length === 0) {
      return { result: failure(`The respondent has not answered ${cur.field.fieldId} yet: ask first.`) };
    }
    markReviewing(draft, cur.field.fieldId);
    return { result: success('Reviewer started.'), control: { type: 'suspend', subAgent: args.agent } };
  },
});

/** ask for the interviewer: the message belongs to the current field, which becomes `interviewing`. */
const ask = createAskTool((draft: SessionDraft) => {
  const cur = currentField(draft.state);
  if (!cur || draft.state.status !== 'active') return null;
  markAsked(draft, cur.field.fieldId);
  return cur.field.fieldId;
});

export const interviewerAgent = createAgent({
  name: 'interviewer',
  tools: [ask, subtask],
  instructions: (draft) => `${INTERVIEWER_PROMPT}\n\nCurrent state:\n${JSON.stringify(interviewerContext(draft.state))}`,
  context: (draft) => interviewerContext(draft.state),
  remainingTasks: (draft) => {
    const ctx = interviewerContext(draft.state);
    if (!ctx.current) return ['Tell the respondent the form is complete using ask'];
    if (ctx.answerPending) return [`Review the answer for ${ctx.current.fieldId} using subtask with agent reviewer`];
    return [`Ask about ${ctx.current.label} using ask`];
  },
  // The interviewer's turn ends only through ask (seed: getNextAgent('interviewer') = null).
  completion: () => null,
  initialMessages: (draft) => conversationMessages(draft),
});

export function interviewerContext(state: SessionState): InterviewerContext {
  const cur = state.status === 'active' ? currentField(state) : null;
  const fieldMsgs = (role: 'user' | 'assistant') =>
    cur ? state.messages.map((m, i) => ({ m, i })).filter((x) => x.m.role === role && x.m.fieldId === cur.field.fieldId) : [];
  const lastUser = fieldMsgs('user').at(-1)?.i ?? -1;
  const lastAsk = fieldMsgs('assistant').at(-1)?.i ?? -1;
  const current: FieldView | null = cur
    ? {
        fieldId: cur.field.fieldId,
        label: cur.field.label,
        intent: cur.field.intent,
        required: cur.field.required,
        facts: cur.facts.map((k) => ({ factKey: k.factKey, fact: k.fact, doneCriteria: k.doneCriteria, questioningHints: k.questioningHints })),
        status: cur.fieldState.status,
        followUps: cur.fieldState.followUps,
        lastReview: cur.fieldState.lastReview,
      }
    : null;
  return {
    agent: 'interviewer',
    language: state.bootstrap.language === 'ja' ? 'ja' : 'en',
    formTitle: state.form?.title || null,
    sessionStatus: state.status,
    current,
    answerPending: cur !== null && lastUser > lastAsk,
    firstQuestion: !state.messages.some((m) => m.role === 'assistant' && m.agent === 'interviewer'),
    reopened: cur !== null && cur.field.required && cur.fieldState.status === 'pending' && lastAsk >= 0,
    bootstrap: { country: state.bootstrap.country, timezone: state.bootstrap.timezone },
    summary: state.fields.map((f) => ({
      fieldId: f.fieldId,
      label: formField(state, f.fieldId)?.label ?? f.fieldId,
      value: f.value,
      status: f.status,
    })),
  };
}
