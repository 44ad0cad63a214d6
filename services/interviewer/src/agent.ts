import { type AgentDefinition, type AskGate, createAgent, createAskTool, createTool, failure, success } from '@convo/agent-kit';
import type { ToolContext } from '@convo/agent-kit';
import type { FormDraft } from '@convo/forms';
import {
  candidateFor,
  closeOutAtTurnBound,
  CLOSING_KEY,
  currentField,
  echoDue,
  factViews,
  type FieldView,
  formField,
  hasPassedCheck,
  markAsked,
  markReviewing,
  needsAudit,
  showsReading,
  SubtaskInput,
} from '@convo/forms';
import type { InterviewerContext } from './context.js';
import type { FormSessionView } from '@convo/contract';
import { INTERVIEWER_PROMPT } from './prompt.js';

/**
 * subtask(reviewer): hands a field's answers to the reviewer's own queue and
 * suspends this loop without holding a worker; the verdict comes back as this
 * call's result. Only the current field with an answer not yet reviewed, or
 * an earlier field the respondent's latest message corrects, can be reviewed:
 * an answer is reviewed exactly once, whatever the model does.
 */
export const subtask = createTool({
  name: 'subtask',
  description:
    "Run a sub-agent on its own queue and wait for its result. 'reviewer' checks the respondent's new answer against the field's facts; 'checker' vets a question before you ask it (required in application interviews).",
  schema: SubtaskInput,
  execute(args, context: ToolContext<FormDraft>) {
    const draft = context.draft;
    const ctx = interviewerContext(draft.state);
    const currentId = ctx.current?.fieldId ?? null;
    if (args.agent === 'checker') {
      if (draft.state.kind !== 'application') return { result: failure('Quick checks are only used in application interviews.') };
      if (!args.question || args.question.trim() === '') return { result: failure('Give the exact question to check in "question".') };
      if (args.field_id !== currentId)
        return { result: failure(`Only questions for the current field ${currentId ?? '(closing message)'} can be checked.`) };
      return { result: success('Checker started.'), control: { type: 'suspend', subAgent: 'checker' } };
    }
    if (ctx.correction && args.field_id === ctx.correction.fieldId) {
      return { result: success('Reviewer started.'), control: { type: 'suspend', subAgent: 'reviewer' } };
    }
    if (!ctx.current)
      return { result: failure('Every field is already resolved; there is nothing to review. Close the interview with ask.') };
    if (args.field_id !== currentId) {
      return { result: failure(`Only the current field ${currentId} can be reviewed, not ${args.field_id ?? 'null'}.`) };
    }
    if (!ctx.answerPending) return { result: failure(nothingToReview(ctx.current)) };
    markReviewing(draft, ctx.current.fieldId);
    return { result: success('Reviewer started.'), control: { type: 'suspend', subAgent: 'reviewer' } };
  },
});

/** Tells a model that asked for a review without a new answer what to do instead. */
function nothingToReview(cur: FieldView): string {
  if (!cur.asked) return `The respondent has not been asked about ${cur.fieldId} yet: ask about ${cur.label} with ask.`;
  const missing = cur.lastReview?.missing_facts ?? [];
  if (cur.lastReview && !cur.lastReview.passed) {
    return `The respondent's answer for ${cur.fieldId} was already reviewed and nothing new has arrived since. Ask a follow-up about ${missing.join('; ') || cur.label} with ask.`;
  }
  return `There is no new answer for ${cur.fieldId} since your last question: wait for the respondent (end your turn with ask if you have not asked yet).`;
}

/** ask for the interviewer: the message belongs to the current field, which becomes `interviewing`. */
const ask = createAskTool((draft: FormDraft, text: string): AskGate => {
  const cur = draft.state.status === 'active' ? currentField(draft.state) : null;
  const fieldId = cur?.field.fieldId ?? null;
  // Seed 001 invariant: no question reaches an applicant without a passed quick-check of that exact text.
  if (draft.state.kind === 'application' && !hasPassedCheck(draft.state, fieldId, text)) {
    return {
      refuse: `This exact message has not passed the quick check${fieldId ? ` for ${fieldId}` : ''}. Call subtask with agent "checker" and this text as question first.`,
    };
  }
  // docs/api.md#certainty: no value is taken without the respondent seeing it, whoever writes the message.
  const echo = echoDue(draft.state);
  if (echo && !showsReading(text, echo.shown)) {
    return {
      refuse:
        echo.mode === 'confirm'
          ? `The value read for ${echo.fieldId} is not certain: ask the respondent to confirm it, writing it exactly as “${echo.shown}”.`
          : `Acknowledge the value just stored for ${echo.fieldId} briefly before your next question, writing it exactly as “${echo.shown}”.`,
    };
  }
  if (cur) markAsked(draft, cur.field.fieldId);
  return { fieldId };
});

/** The interviewer with its bound on respondent turns per session (see form-flow.sessionTurnBound). */
export function createInterviewerAgent(opts: { maxSessionTurns: number; maxFollowUps?: number }): AgentDefinition<FormDraft> {
  return createAgent<FormDraft>({
    ...interviewerBase,
    prepare: (draft) => void closeOutAtTurnBound(draft, opts.maxSessionTurns, opts.maxFollowUps),
  });
}

const interviewerBase: AgentDefinition<FormDraft> = {
  name: 'interviewer',
  tools: [ask, subtask],
  instructions: () => INTERVIEWER_PROMPT,
  state: (draft) => `Current state:\n${JSON.stringify(interviewerContext(draft.state))}`,
  // The current field's whole exchange stays in the prompt, however long the conversation before it.
  pinned: (draft) => {
    const state = draft.state;
    const fieldId = state.status === 'active' ? (currentField(state)?.field.fieldId ?? null) : null;
    return (message) => fieldId !== null && message.fieldId === fieldId;
  },
  // Seed 000: a new answer (or a correction) always goes to the reviewer; no model call is needed to decide that.
  directCall: (draft) => {
    const ctx = interviewerContext(draft.state);
    const fieldId = ctx.correction?.fieldId ?? (ctx.answerPending ? ctx.current?.fieldId : null);
    return fieldId
      ? { name: 'subtask', arguments: JSON.stringify({ agent: 'reviewer', field_id: fieldId, question: null, note: null }) }
      : null;
  },
  context: (draft) => interviewerContext(draft.state),
  remainingTasks: (draft) => {
    const ctx = interviewerContext(draft.state);
    const check = ctx.kind === 'application' ? 'quick-check it with subtask (agent checker), then ' : '';
    if (ctx.correction)
      return [
        `Review the correction of ${ctx.correction.fieldId} using subtask with agent reviewer and field_id ${ctx.correction.fieldId}`,
      ];
    if (!ctx.current) return [`Tell the respondent the interview is complete: ${check}send it with ask`];
    if (ctx.answerPending) return [`Review the answer for ${ctx.current.fieldId} using subtask with agent reviewer`];
    const missing = ctx.current.lastReview && !ctx.current.lastReview.passed ? (ctx.current.lastReview.missing_facts ?? []) : [];
    if (missing.length > 0) return [`Ask a follow-up about ${missing.join('; ')}, ${check}send it with ask`];
    return [`Write a question about ${ctx.current.label}, ${check}send it with ask`];
  },
  // Text a model writes instead of calling ask is what it meant to say: sent through ask (and its checks), not dropped.
  textTool: (draft) => {
    const ctx = interviewerContext(draft.state);
    return ctx.answerPending || ctx.correction ? null : 'ask';
  },
  // Seed 001: an applicant sees only text that passed its quick-check, so nothing is shown while it is written.
  streamsAsk: (draft) => draft.state.kind !== 'application',
  // The interviewer's turn ends only through ask (seed: getNextAgent('interviewer') = null), except that an
  // application closed at the turn bound is audited first.
  completion: (draft) => (needsAudit(draft.state) && draft.state.loop === null ? { type: 'handoff', to: 'auditor' } : null),
};

export const interviewerAgent = createInterviewerAgent({ maxSessionTurns: 200 });

export function interviewerContext(state: FormSessionView): InterviewerContext {
  const cur = state.status === 'active' ? currentField(state) : null;
  const indexed = state.messages.map((message, i) => ({ m: message, i }));
  const fieldMsgs = (role: 'user' | 'assistant') =>
    cur ? indexed.filter((entry) => entry.m.role === role && entry.m.fieldId === cur.field.fieldId) : [];
  const lastUser = fieldMsgs('user').at(-1);
  const lastAsk = fieldMsgs('assistant').at(-1)?.i ?? -1;
  const reviewed = cur?.fieldState.reviewedMessageId ?? null;
  const answerPending =
    cur !== null && lastUser !== undefined && lastUser.i > lastAsk && lastUser.m.messageId !== reviewed && !lastUser.m.correction;
  const current: FieldView | null = cur
    ? {
        fieldId: cur.field.fieldId,
        label: cur.field.label,
        intent: cur.field.intent,
        required: cur.field.required,
        facts: factViews(cur.field, cur.facts),
        status: cur.fieldState.status,
        followUps: cur.fieldState.followUps,
        lastReview: cur.fieldState.lastReview,
        failedChecks: state.kind === 'application' ? (state.compliance.failedChecks[cur.field.fieldId] ?? 0) : 0,
        asked: lastAsk >= 0,
        finalAttempt: cur.fieldState.finalAttempt,
        candidate: lastAsk < 0 ? candidateFor(state, cur.field, cur.facts) : null,
      }
    : null;
  return {
    agent: 'interviewer',
    kind: state.kind,
    language: state.bootstrap.language === 'ja' ? 'ja' : 'en',
    formTitle: state.form?.title || null,
    sessionStatus: state.status,
    current,
    answerPending,
    firstQuestion: !state.messages.some((message) => message.role === 'assistant' && message.agent === 'interviewer'),
    correction: pendingCorrection(state),
    echo: echoDue(state),
    bootstrap: { country: state.bootstrap.country, timezone: state.bootstrap.timezone },
    closingFailedChecks: state.kind === 'application' ? (state.compliance.failedChecks[CLOSING_KEY] ?? 0) : 0,
    summary: state.fields.map((field) => ({
      fieldId: field.fieldId,
      label: formField(state, field.fieldId)?.label ?? field.fieldId,
      value: field.value,
      status: field.status,
      needsReview: field.needsReview,
    })),
  };
}

/** The latest message corrects a resolved field and has not been reviewed for it yet. */
function pendingCorrection(state: FormSessionView): { fieldId: string; label: string } | null {
  const last = state.messages.at(-1);
  if (!last || last.role !== 'user' || !last.correction || !last.fieldId) return null;
  const field = state.fields.find((candidate) => candidate.fieldId === last.fieldId);
  if (!field || field.reviewedMessageId === last.messageId) return null;
  return { fieldId: field.fieldId, label: formField(state, field.fieldId)?.label ?? field.fieldId };
}
