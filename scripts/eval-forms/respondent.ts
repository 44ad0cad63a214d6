import { nfkc, shownForms, valueMatches, type SnapshotField } from './compare.js';
import type { Respondent } from './data.js';

/**
 * The simulated respondent's decision: given the session snapshot after a
 * turn ended and what this respondent has sent so far, what do they type next?
 * Pure (no I/O), so every rule can be unit-tested on a hand-written form.
 */

export interface SnapshotMessage {
  role: string;
  agent?: string | null;
  text: string;
  fieldId?: string | null;
}

/** The parts of GET /v1/sessions/:id the respondent looks at. */
export interface Snapshot {
  status: string;
  currentAgent?: string | null;
  bootstrap?: { language?: string | null; country?: string | null; timezone?: string | null } | null;
  fields: SnapshotField[];
  messages: SnapshotMessage[];
}

/** What the respondent knows of the form: the words of each field, to tell its vocabulary from their answers. */
export interface FormView {
  /** `id` is what facts point at (`formFieldId`); `fieldId` is what the session reports. */
  fields: Array<{ id?: string; fieldId: string; label: string; intent?: string | null }>;
  facts: Array<{ formFieldId: string; fact: string; doneCriteria?: string; questioningHints?: string | null; options?: string[] }>;
}

export type SendReason = 'residence' | 'answer' | 'correction' | 'confirm';

export interface Sent {
  text: string;
  reason: SendReason;
  fieldId: string | null;
}

export type Action =
  | { type: 'finish' }
  | { type: 'stop'; why: string }
  | { type: 'send'; text: string; reason: SendReason; fieldId: string | null; correction?: number };

const CONFIRM = { en: "Yes, that's right.", ja: 'はい、そうです。' } as const;
const UNKNOWN = { en: "I'm not sure", ja: 'わかりません' } as const;
const RESOLVED = new Set(['done', 'skipped', 'needs_review']);
const ASKING = ['interviewing', 'reviewing'];

/**
 * The next move, in order: finish at awaiting_confirmation (after any
 * correction still due); residence while the
 * bootstrap is not through; a due correction (volunteered before the next
 * answer, as people do); a plain confirmation of an echoed value; else the
 * scripted reply for the asked field.
 */
export function decide(form: FormView, respondent: Respondent, snap: Snapshot, sent: readonly Sent[]): Action {
  if (snap.status === 'awaiting_confirmation') {
    // A correction due after the last field is still made: the summary is what arrives after it, and people fix
    // what they see there before they confirm.
    const due = dueCorrection(respondent, snap, sent);
    if (due === null) return { type: 'finish' };
    const pendingCorrection = respondent.corrections[due]!;
    return { type: 'send', text: pendingCorrection.message, reason: 'correction', fieldId: pendingCorrection.field, correction: due };
  }
  if (snap.status === 'submitted' || snap.status === 'failed') return { type: 'stop', why: `session ${snap.status}` };
  const asked = askedField(snap);
  if (needsResidence(snap, asked)) return { type: 'send', text: respondent.residence, reason: 'residence', fieldId: null };
  const fieldId = asked ?? nextUnresolved(snap);
  const correction = dueCorrection(respondent, snap, sent);
  if (correction !== null) {
    const pendingCorrection = respondent.corrections[correction]!;
    return { type: 'send', text: pendingCorrection.message, reason: 'correction', fieldId: pendingCorrection.field, correction };
  }
  if (fieldId === null) return { type: 'send', text: UNKNOWN[respondent.sessionLanguage], reason: 'answer', fieldId: null };
  // "Just to check: …?" with the reading shown (the snapshot's toConfirm, as a client shows it): yes when it is what they
  // meant; otherwise they answer again, as people correct a misreading.
  const reading = snap.fields.find((f) => f.fieldId === fieldId)?.toConfirm;
  if (reading) {
    const expected = respondent.expected[fieldId];
    const prev = sent.at(-1);
    const justConfirmed = prev?.reason === 'confirm' && prev.fieldId === fieldId;
    if (expected && !justConfirmed && valueMatches(expected, reading))
      return { type: 'send', text: CONFIRM[respondent.sessionLanguage], reason: 'confirm', fieldId };
    return { type: 'send', text: replyFor(respondent, fieldId, sent), reason: 'answer', fieldId };
  }
  if (isConfirmationRequest(form, respondent, snap, sent, fieldId)) {
    return { type: 'send', text: CONFIRM[respondent.sessionLanguage], reason: 'confirm', fieldId };
  }
  return { type: 'send', text: replyFor(respondent, fieldId, sent), reason: 'answer', fieldId };
}

/**
 * The greeter is still talking, or the bootstrap lacks the country or zone
 * while no field is being asked. (With a field asked, the interview has gone on
 * without a country, which the system may decide; answering residence to a
 * field question would only make the respondent look confused.)
 */
export function needsResidence(snap: Snapshot, asked: string | null): boolean {
  if (snap.currentAgent === 'greeter') return true;
  const bootstrap = snap.bootstrap;
  const incomplete = !bootstrap?.country || !bootstrap?.timezone;
  return incomplete && asked === null;
}

/** The field in `interviewing` (or `reviewing`), else the field of the latest assistant message when messages carry one. */
export function askedField(snap: Snapshot): string | null {
  for (const status of ASKING) {
    const field = snap.fields.find((x) => x.status === status);
    if (field) return field.fieldId;
  }
  const last = lastAssistant(snap);
  return last?.fieldId ?? null;
}

/** No field is marked as asked: a person would answer the next open item of the form. */
function nextUnresolved(snap: Snapshot): string | null {
  return snap.fields.find((f) => !RESOLVED.has(f.status))?.fieldId ?? null;
}

export function lastAssistant(snap: Snapshot): SnapshotMessage | undefined {
  for (let i = snap.messages.length - 1; i >= 0; i--) if (snap.messages[i]!.role === 'assistant') return snap.messages[i];
  return undefined;
}

/** The first correction not yet sent whose `afterField` is resolved (done or skipped). */
export function dueCorrection(respondent: Respondent, snap: Snapshot, sent: readonly Sent[]): number | null {
  const sentTexts = new Set(sent.filter((s) => s.reason === 'correction').map((s) => s.text));
  for (const [index, correction] of respondent.corrections.entries()) {
    if (sentTexts.has(correction.message)) continue;
    const after = snap.fields.find((f) => f.fieldId === correction.afterField);
    if (after && (after.status === 'done' || after.status === 'skipped')) return index;
  }
  return null;
}

/** replies[fieldId][timesAnswered], timesAnswered = how often this field was already answered; the last reply repeats. */
export function replyFor(respondent: Respondent, fieldId: string, sent: readonly Sent[]): string {
  const replies = respondent.replies[fieldId];
  if (!replies || replies.length === 0) return UNKNOWN[respondent.sessionLanguage];
  const timesAnswered = sent.filter((s) => s.reason === 'answer' && s.fieldId === fieldId).length;
  return replies[Math.min(timesAnswered, replies.length - 1)]!;
}

const fold = (s: string): string => nfkc(s).toLowerCase();

/**
 * The last assistant message echoes a value this respondent already gave for
 * the field: it contains the field's canonical value, or a piece (≥ 4
 * characters) of their earlier messages that is also in their first reply to
 * this field. Guards keep a re-ask from passing as a confirmation: the piece
 * must not be the form's own wording nor something the assistant had already
 * said before, a list of the field's options is a question, and one
 * confirmation per request is enough (a second one would loop).
 */
export function isConfirmationRequest(
  form: FormView,
  respondent: Respondent,
  snap: Snapshot,
  sent: readonly Sent[],
  fieldId: string,
): boolean {
  const last = lastAssistant(snap);
  if (!last) return false;
  const prev = sent.at(-1);
  if (prev?.reason === 'confirm' && prev.fieldId === fieldId) return false;
  // A value of another field read back ("Got it: “…”." before the next question) is about that field, not this one.
  const others = snap.fields.filter((f) => f.fieldId !== fieldId && f.value).flatMap((f) => shownForms(f.value!));
  const text = others.reduce((rest, value) => rest.split(value).join(' '), fold(last.text));
  const vocab = fold(fieldWords(form, fieldId));
  if (listsOptions(form, fieldId, text)) return false;
  const earlierMsgs = sent.map((s) => fold(s.text));
  const firstReply = fold(respondent.replies[fieldId]?.[0] ?? '');
  // A value they gave: an answer to this field, a correction of it, or words of their first reply said earlier.
  const gave =
    sent.some((s) => (s.reason === 'answer' || s.reason === 'correction') && s.fieldId === fieldId) ||
    sharesWindow(firstReply, earlierMsgs);
  if (!gave) return false;
  const value = respondent.expected[fieldId]?.value;
  // (As the interview shows it: 13:00–15:00 for 13:00/15:00, 「はい」 for yes.)
  if (value !== undefined && !vocab.includes(fold(value)) && shownForms(value).some((form) => containsValue(text, form))) return true;
  const said = earlierAssistant(snap).map(fold);
  return windows(firstReply).some(
    (w) => text.includes(w) && earlierMsgs.some((m) => m.includes(w)) && !vocab.includes(w) && !said.some((m) => m.includes(w)),
  );
}

/** 4-character windows with a letter or digit and no whitespace: the smallest piece that counts as "theirs". */
export function windows(text: string, size = 4): string[] {
  const out = new Set<string>();
  const cs = [...text];
  for (let i = 0; i + size <= cs.length; i++) {
    const piece = cs.slice(i, i + size).join('');
    if (!/\s/.test(piece) && /[\p{L}\p{N}]/u.test(piece)) out.add(piece);
  }
  return [...out];
}

function sharesWindow(reply: string, msgs: readonly string[]): boolean {
  return windows(reply).some((w) => msgs.some((m) => m.includes(w)));
}

/** A short Latin value ("M", "XL") must stand as its own word; anything else may occur anywhere. */
function containsValue(text: string, value: string): boolean {
  if (value.length >= 4 || !/^[a-z0-9]+$/.test(value)) return text.includes(value);
  return new RegExp(`(?<![a-z0-9])${value}(?![a-z0-9])`).test(text);
}

/** Two or more of the field's listed options in one message: that is the question, not an echo. */
function listsOptions(form: FormView, fieldId: string, text: string): boolean {
  const options = factsOf(form, fieldId).flatMap((k) => k.options ?? []);
  return options.filter((o) => containsValue(text, fold(o))).length >= 2;
}

function factsOf(form: FormView, fieldId: string): FormView['facts'] {
  const ids = new Set(form.fields.filter((f) => f.fieldId === fieldId).map((f) => f.id ?? f.fieldId));
  return form.facts.filter((k) => ids.has(k.formFieldId));
}

/** The form's own wording of a field: label, intent, facts, criteria, hints, options. */
export function fieldWords(form: FormView, fieldId: string): string {
  const field = form.fields.find((x) => x.fieldId === fieldId);
  const facts = factsOf(form, fieldId);
  return [field?.label, field?.intent, ...facts.flatMap((k) => [k.fact, k.doneCriteria, k.questioningHints, ...(k.options ?? [])])]
    .filter((x): x is string => typeof x === 'string')
    .join('\n');
}

/** Assistant messages before the last one. */
function earlierAssistant(snap: Snapshot): string[] {
  const all = snap.messages.filter((m) => m.role === 'assistant');
  return all.slice(0, -1).map((m) => m.text);
}
