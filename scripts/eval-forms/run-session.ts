import type { CreateSessionInput } from '@convo/client';
import { SessionClient } from './client.js';
import { markSilentWrong, scoreField, type FieldScore } from './compare.js';
import type { EvalForm, Respondent, SetName, Style } from './data.js';
import { isPure, phrasingDefects } from './purity.js';
import { decide, type Sent, type Snapshot } from './respondent.js';

/** One simulated respondent through the running system, and the score of the session it leaves. */

export const LIMITS = { maxMessages: 60, maxWallMs: 120_000, turnTimeoutMs: 20_000 };

export interface SessionResult {
  set: SetName;
  formId: string;
  respondentId: string;
  style: Style;
  sessionLanguage: 'ja' | 'en';
  formLanguage: 'ja' | 'en';
  sessionId: string | null;
  /** awaiting_confirmation was reached. */
  completed: boolean;
  /** HTTP status of POST /submit, null when it was not called. */
  submitStatus: number | null;
  stuck: boolean;
  /** Why the conversation ended: finished, stuck (messages / time), stopped (status), error. */
  ended: string;
  turns: number;
  residenceMessages: number;
  correctionsUnsent: number;
  turnsFailed: number;
  turnsTimedOut: number;
  fields: FieldScore[];
  assistantMessages: number;
  pureMessages: number;
  impure: string[];
  /** Assistant messages with a phrasing defect (purity.ts, phrasingDefects), each with what is wrong. */
  illFormed: string[];
  /** The conversation as the final snapshot has it (reported with --json --details, dev only). */
  transcript: Array<{ role: string; fieldId: string | null; text: string }>;
  /** The system could not be talked to (session refused, HTTP error); the session scores as not completed. */
  error: string | null;
}

export async function runSession(
  base: string,
  form: EvalForm,
  respondent: Respondent,
  opts: { keep: boolean } = { keep: false },
): Promise<SessionResult> {
  const result = emptyResult(form, respondent);
  const kind = form.form.compliance !== undefined ? 'application' : 'form';
  let client: SessionClient;
  try {
    // The raw form goes as read: the gateway validates it, and a form it refuses is this session's error.
    client = await SessionClient.create(base, {
      kind,
      form: form.rawForm as CreateSessionInput['form'],
      // Relative dates ("next Monday") are read from the day the file's conversations take place.
      options: { language: respondent.sessionLanguage, ...(form.conversationDate ? { referenceDate: form.conversationDate } : {}) },
    });
  } catch (err) {
    return { ...result, ended: 'error', error: (err as Error).message, fields: scoreFields(respondent, undefined) };
  }
  result.sessionId = client.sessionId;
  try {
    await converse(client, form, respondent, result);
    const final = await client.snapshot();
    result.fields = scoreFields(respondent, final);
    scorePurity(final, respondent, result);
    result.transcript = final.messages.map((m) => ({ role: m.role, fieldId: m.fieldId ?? null, text: m.text }));
    markSilentWrong(result.fields, result.transcript);
  } catch (err) {
    result.error = (err as Error).message;
    result.ended = 'error';
    if (result.fields.length === 0) result.fields = scoreFields(respondent, undefined);
  } finally {
    client.close();
    // The session's data is the system's to keep only when asked: a shared system should not fill up with eval sessions.
    if (!opts.keep) await client.erase();
  }
  return result;
}

/** The respondent's loop: wait for the run to end, look at the snapshot, type the next message. */
async function converse(client: SessionClient, form: EvalForm, respondent: Respondent, result: SessionResult): Promise<void> {
  const started = Date.now();
  const sent: Sent[] = [];
  try {
    noteEnd(await client.waitTurnEnd(null, LIMITS.turnTimeoutMs), result);
    await talk(client, form, respondent, result, sent, started);
  } finally {
    // Counted even when the system stopped answering halfway: those turns were spent.
    result.turns = sent.length;
    result.residenceMessages = sent.filter((s) => s.reason === 'residence').length;
    result.correctionsUnsent = respondent.corrections.filter(
      (c) => !sent.some((s) => s.reason === 'correction' && s.text === c.message),
    ).length;
  }
}

async function talk(
  client: SessionClient,
  form: EvalForm,
  respondent: Respondent,
  result: SessionResult,
  sent: Sent[],
  started: number,
): Promise<void> {
  for (;;) {
    const snap = await client.snapshot();
    const action = decide(form.form, respondent, snap, sent);
    if (action.type === 'finish') {
      result.completed = true;
      result.ended = 'finished';
      result.submitStatus = await client.submit();
      break;
    }
    if (action.type === 'stop') {
      result.ended = action.why;
      break;
    }
    if (sent.length >= LIMITS.maxMessages || Date.now() - started >= LIMITS.maxWallMs) {
      result.stuck = true;
      result.ended = sent.length >= LIMITS.maxMessages ? `stuck: ${LIMITS.maxMessages} messages` : `stuck: ${LIMITS.maxWallMs / 1000} s`;
      break;
    }
    sent.push({ text: action.text, reason: action.reason, fieldId: action.fieldId });
    const turnId = await client.postTurn(action.text, `eval-${client.sessionId}-${sent.length}`);
    noteEnd(await client.waitTurnEnd(turnId, LIMITS.turnTimeoutMs), result);
  }
}

/** A failed or silent turn does not end the conversation: the next decision is made from the snapshot. */
function noteEnd(end: { type: string } | null, result: SessionResult): void {
  if (end === null) result.turnsTimedOut++;
  else if (end.type === 'turn.failed') result.turnsFailed++;
}

/** Every field with an expectation, scored against the final snapshot (unresolved when there is none). */
function scoreFields(respondent: Respondent, snap: Snapshot | undefined): FieldScore[] {
  return Object.entries(respondent.expected).map(([fieldId, exp]) =>
    scoreField(
      fieldId,
      exp,
      snap?.fields.find((f) => f.fieldId === fieldId),
    ),
  );
}

function scorePurity(snap: Snapshot, respondent: Respondent, result: SessionResult): void {
  const own = snap.messages.filter((m) => m.role === 'user').map((m) => m.text);
  for (const message of snap.messages) {
    if (message.role !== 'assistant') continue;
    result.assistantMessages++;
    if (isPure(message.text, respondent.sessionLanguage, own)) result.pureMessages++;
    else result.impure.push(message.text);
    const defects = phrasingDefects(message.text, respondent.sessionLanguage, own);
    if (defects.length > 0) result.illFormed.push(`${defects.join(', ')}: ${message.text}`);
  }
}

function emptyResult(form: EvalForm, respondent: Respondent): SessionResult {
  return {
    set: form.set,
    formId: form.id,
    respondentId: respondent.id,
    style: respondent.style,
    sessionLanguage: respondent.sessionLanguage,
    formLanguage: form.language,
    sessionId: null,
    completed: false,
    submitStatus: null,
    stuck: false,
    ended: '',
    turns: 0,
    residenceMessages: 0,
    correctionsUnsent: 0,
    turnsFailed: 0,
    turnsTimedOut: 0,
    fields: [],
    assistantMessages: 0,
    pureMessages: 0,
    impure: [],
    illFormed: [],
    transcript: [],
    error: null,
  };
}
