// @ts-check
/**
 * What a client knows about one session, folded from the public event stream
 * (docs/api.md §3). DOM-free and dependency-free so the browser page and the
 * terminal client (`npm run chat`) share it: both render the same view.
 *
 * Events are applied at most once: an event whose id is not above the last one
 * applied is ignored, so a stream resumed after a dropped connection can never
 * duplicate a message even if the server or the transport replays one.
 */

/** @typedef {import('@convo/contract').SessionEvent} SessionEvent */
/** @typedef {import('@convo/contract').EventData<'audit'>} AuditResult */
/** @typedef {import('@convo/contract').EventData<'check'>} CheckResult */
/** @typedef {import('@convo/contract').EventData<'review'>} ReviewResult */
/** @typedef {import('@convo/contract').EventData<'search'>} SearchStep */
/** @typedef {import('@convo/contract').EventData<'answer'>} AnswerResult */
/** @typedef {import('@convo/contract').EventData<'plan'>} QueryPlan */
/** @typedef {'form' | 'application' | 'faq'} SessionKind */
/** @typedef {'active' | 'awaiting_confirmation' | 'submitted' | 'failed'} SessionStatus */
/** @typedef {'pending' | 'interviewing' | 'reviewing' | 'done' | 'skipped'} FieldStatus */

/**
 * @typedef {object} FieldView
 * @property {string} fieldId
 * @property {string} label
 * @property {boolean} required
 * @property {FieldStatus} status
 * @property {string | null} value
 * @property {number} followUps
 * @property {boolean} [needsReview] kept as the respondent gave it after the last follow-up, for a person to check
 */

/**
 * @typedef {object} MessageView
 * @property {string} messageId
 * @property {'user' | 'assistant'} role
 * @property {string | null} agent
 * @property {string} text
 * @property {string | null} turnId
 * @property {boolean} streaming true while only `message.delta` parts have arrived
 */

/**
 * @typedef {object} ClarifyView
 * @property {string[]} questions
 * @property {string[]} choices one-tap answers, from the planner's plan when it offered them
 */

/**
 * @typedef {object} SessionView
 * @property {SessionKind} kind
 * @property {number} lastEventId
 * @property {SessionStatus} status
 * @property {string | null} currentAgent
 * @property {string[]} agentTrail the latest hand-overs, oldest first (at most {@link TRAIL_LENGTH})
 * @property {{ language: string | null, country: string | null, timezone: string | null }} bootstrap
 * @property {FieldView[]} fields
 * @property {MessageView[]} messages
 * @property {ReviewResult[]} reviews newest last
 * @property {CheckResult[]} checks newest last
 * @property {AuditResult | null} audit
 * @property {QueryPlan | null} plan the latest FAQ plan
 * @property {SearchStep[]} searches the searches of the latest FAQ turn
 * @property {AnswerResult | null} answer the latest FAQ answer
 * @property {ClarifyView | null} clarify open clarifying questions, until the user answers
 * @property {string | null} activeTurn
 * @property {Record<string, number>} queuedTurns turnId → position
 * @property {boolean} awaitingUser
 * @property {{ turnId: string, code: string, message: string } | null} lastFailure
 * @property {Record<string, string> | null} collectedFields set by `session.completed`
 */

export const TRAIL_LENGTH = 4;

/**
 * @param {SessionKind} kind
 * @returns {SessionView}
 */
export function createView(kind) {
  return {
    kind,
    lastEventId: 0,
    status: 'active',
    currentAgent: null,
    agentTrail: [],
    bootstrap: { language: null, country: null, timezone: null },
    fields: [],
    messages: [],
    reviews: [],
    checks: [],
    audit: null,
    plan: null,
    searches: [],
    answer: null,
    clarify: null,
    activeTurn: null,
    queuedTurns: {},
    awaitingUser: false,
    lastFailure: null,
    collectedFields: null,
  };
}

/**
 * Takes what a snapshot (GET /v1/sessions/:id, or a `resync` event) says. Used
 * once before the stream starts, for the field labels, and on `resync`, where
 * the server no longer holds the events in between.
 * @param {SessionView} view
 * @param {Record<string, unknown>} snapshot
 */
export function applySnapshot(view, snapshot) {
  const s = /** @type {any} */ (snapshot);
  if (isKind(s.kind)) view.kind = s.kind;
  if (typeof s.status === 'string') view.status = /** @type {SessionStatus} */ (s.status);
  view.currentAgent = typeof s.currentAgent === 'string' ? s.currentAgent : null;
  if (s.bootstrap && typeof s.bootstrap === 'object') {
    view.bootstrap = {
      language: s.bootstrap.language ?? null,
      country: s.bootstrap.country ?? null,
      timezone: s.bootstrap.timezone ?? null,
    };
  }
  if (Array.isArray(s.fields)) {
    view.fields = s.fields.map((/** @type {any} */ f) => ({
      fieldId: String(f.fieldId),
      label: String(f.label ?? f.fieldId),
      required: f.required === true,
      status: f.status ?? 'pending',
      value: typeof f.value === 'string' ? f.value : null,
      followUps: typeof f.followUps === 'number' ? f.followUps : 0,
      needsReview: f.needsReview === true,
    }));
  }
  if (Array.isArray(s.messages)) {
    view.messages = s.messages.map((/** @type {any} */ m, /** @type {number} */ i) => ({
      messageId: typeof m.messageId === 'string' ? m.messageId : `snapshot-${i}`,
      role: m.role === 'user' ? 'user' : 'assistant',
      agent: m.agent ?? null,
      text: String(m.text ?? ''),
      turnId: null,
      streaming: false,
    }));
  }
  if (s.audit && typeof s.audit === 'object') view.audit = /** @type {AuditResult} */ (s.audit);
  if (s.collectedFields && typeof s.collectedFields === 'object' && view.status !== 'active') {
    view.collectedFields = /** @type {Record<string, string>} */ (s.collectedFields);
  }
  if (s.turn && typeof s.turn === 'object') view.activeTurn = s.turn.active ?? null;
  if (typeof s.lastEventId === 'number' && s.lastEventId > view.lastEventId) view.lastEventId = s.lastEventId;
}

/**
 * The view a client starts from before it follows the stream from the first
 * event: what the snapshot knows that events may never repeat (the kind, the
 * field labels and required flags, a greeter that has not handed over yet).
 * The history (messages, reviews, plans) is left to the replayed events.
 * @param {Record<string, unknown>} snapshot
 * @returns {SessionView}
 */
export function viewFromSnapshot(snapshot) {
  const { kind, status, currentAgent, fields, bootstrap } = snapshot;
  const view = createView(isKind(kind) ? kind : 'form');
  applySnapshot(view, { status, currentAgent, fields, bootstrap });
  return view;
}

/**
 * Folds one event into the view.
 * @param {SessionView} view
 * @param {SessionEvent} ev
 * @returns {boolean} false when the event was already applied (a replayed id) and was ignored
 */
export function applyEvent(view, ev) {
  // A delta is live only: it carries the id of the last stored event and is never replayed, so it moves no cursor.
  if (ev.type === 'message.delta') return applyDelta(view, ev.data);
  if (ev.id <= view.lastEventId) return false;
  view.lastEventId = ev.id;
  switch (ev.type) {
    case 'turn.started':
      view.activeTurn = ev.data.turnId;
      delete view.queuedTurns[ev.data.turnId];
      view.awaitingUser = false;
      view.lastFailure = null;
      break;
    case 'turn.queued':
      view.queuedTurns[ev.data.turnId] = ev.data.position;
      break;
    case 'turn.completed':
      dropStreamed(view, ev.data.turnId, null);
      if (view.activeTurn === ev.data.turnId) view.activeTurn = null;
      view.awaitingUser = ev.data.awaitingUserResponse;
      break;
    case 'message.discarded':
      dropStreamed(view, ev.data.turnId, ev.data.messageIds);
      break;
    case 'turn.failed':
      dropStreamed(view, ev.data.turnId, null);
      if (view.activeTurn === ev.data.turnId) view.activeTurn = null;
      view.lastFailure = { turnId: ev.data.turnId, code: ev.data.error.code, message: ev.data.error.message };
      view.awaitingUser = true;
      break;
    case 'resync':
      applySnapshot(view, ev.data.snapshot);
      view.lastEventId = Math.max(view.lastEventId, ev.id);
      break;
    case 'message':
      upsertMessage(view, ev.data);
      // The greeter's first words come before any hand-over: whoever speaks is at work.
      if (ev.data.role === 'assistant' && ev.data.agent !== null) view.currentAgent = ev.data.agent;
      // The user answered: the open clarifying choices are spent.
      if (ev.data.role === 'user') view.clarify = null;
      break;
    case 'agent.changed':
      view.currentAgent = ev.data.to;
      view.agentTrail = [...view.agentTrail, ev.data.to].slice(-TRAIL_LENGTH);
      break;
    case 'state.changed':
      applyStateChange(view, ev.data.type, ev.data.payload);
      break;
    case 'review':
      view.reviews.push(ev.data);
      break;
    case 'check':
      view.checks.push(ev.data);
      break;
    case 'audit':
      view.audit = ev.data;
      break;
    case 'plan':
      view.plan = ev.data;
      view.searches = [];
      view.answer = null;
      view.clarify = ev.data.needsClarification ? { questions: ev.data.clarifyingQuestions ?? [], choices: planChoices(ev.data) } : null;
      break;
    case 'search':
      view.searches.push(ev.data);
      break;
    case 'answer':
      view.answer = ev.data;
      break;
    case 'clarify':
      view.clarify = { questions: ev.data.questions, choices: view.clarify?.choices ?? planChoices(view.plan) };
      break;
    case 'session.completed':
      view.collectedFields = ev.data.collectedFields;
      if (ev.data.audit && typeof ev.data.audit === 'object') view.audit = /** @type {AuditResult} */ (ev.data.audit);
      if (view.status === 'active') view.status = 'awaiting_confirmation';
      break;
  }
  return true;
}

/**
 * Text of an assistant message while it is written: `offset` says where the
 * delta starts (a restarted generation overwrites), without it the delta is
 * appended. A message already delivered whole ignores late deltas.
 * @param {SessionView} view
 * @param {import('@convo/contract').EventData<'message.delta'>} data
 * @returns {boolean}
 */
function applyDelta(view, data) {
  const existing = view.messages.find((m) => m.messageId === data.messageId);
  if (existing && !existing.streaming) return false;
  if (existing) {
    const keep = typeof data.offset === 'number' ? existing.text.slice(0, data.offset) : existing.text;
    existing.text = keep + data.delta;
    return true;
  }
  view.messages.push({
    messageId: data.messageId,
    role: 'assistant',
    agent: view.currentAgent,
    text: data.delta,
    turnId: data.turnId ?? view.activeTurn,
    streaming: true,
  });
  return true;
}

/**
 * Withdraws streamed text that never became a message: the ids a
 * `message.discarded` names, or (at the end of a turn) every message of the
 * turn still only streamed.
 * @param {SessionView} view
 * @param {string} turnId
 * @param {string[] | null} messageIds
 */
function dropStreamed(view, turnId, messageIds) {
  view.messages = view.messages.filter((m) => !(m.streaming && (messageIds ? messageIds.includes(m.messageId) : m.turnId === turnId)));
}

/**
 * @param {SessionView} view
 * @param {import('@convo/contract').EventData<'message'>} data
 */
function upsertMessage(view, data) {
  const existing = view.messages.find((m) => m.messageId === data.messageId);
  if (existing) {
    // The full text supersedes whatever deltas streamed before it.
    existing.text = data.text;
    existing.streaming = false;
    existing.agent = data.agent;
    existing.turnId = data.turnId;
    return;
  }
  view.messages.push({ ...data, streaming: false });
}

/**
 * @param {SessionView} view
 * @param {string} type
 * @param {Record<string, unknown>} payload
 */
function applyStateChange(view, type, payload) {
  const p = /** @type {any} */ (payload);
  switch (type) {
    case 'SET_LANGUAGE':
      view.bootstrap.language = p.language ?? null;
      break;
    case 'SET_COUNTRY':
      view.bootstrap.country = p.country ?? null;
      break;
    case 'SET_TIMEZONE':
      view.bootstrap.timezone = p.timezone ?? null;
      break;
    case 'PLAN_CREATED': {
      if (!Array.isArray(p.fields)) break;
      // The architect's order becomes the display order; fields keep what they already hold.
      const byId = new Map(view.fields.map((f) => [f.fieldId, f]));
      /** @type {FieldView[]} */
      const planned = p.fields.map((/** @type {any} */ f) => {
        const id = String(f.field_id ?? f.fieldId);
        const known = byId.get(id);
        byId.delete(id);
        return {
          fieldId: id,
          label: String(f.label ?? known?.label ?? id),
          required: typeof f.required === 'boolean' ? f.required : (known?.required ?? false),
          status: known?.status ?? 'pending',
          value: known?.value ?? null,
          followUps: known?.followUps ?? 0,
        };
      });
      view.fields = [...planned, ...byId.values()];
      break;
    }
    case 'FIELD_STATUS': {
      const field = fieldOf(view, p.fieldId);
      if (typeof p.status === 'string') field.status = /** @type {FieldStatus} */ (p.status);
      if (typeof p.followUps === 'number') field.followUps = p.followUps;
      if (typeof p.needsReview === 'boolean') field.needsReview = p.needsReview;
      else if (p.reason === 'corrected') field.needsReview = false;
      break;
    }
    case 'FIELD_VALUE':
      fieldOf(view, p.fieldId).value = typeof p.value === 'string' ? p.value : null;
      break;
  }
}

/**
 * The field with this id, created when an event names one the view has not seen
 * (a client that started without a snapshot).
 * @param {SessionView} view
 * @param {unknown} fieldId
 * @returns {FieldView}
 */
function fieldOf(view, fieldId) {
  const id = String(fieldId);
  let field = view.fields.find((f) => f.fieldId === id);
  if (!field) {
    field = { fieldId: id, label: id, required: false, status: 'pending', value: null, followUps: 0 };
    view.fields.push(field);
  }
  return field;
}

/**
 * The planner's one-tap choices, where it offered them (`raw.choices`).
 * @param {QueryPlan | null} plan
 * @returns {string[]}
 */
function planChoices(plan) {
  const choices = /** @type {any} */ (plan?.raw)?.choices;
  return Array.isArray(choices) ? choices.filter((c) => typeof c === 'string' && c.trim() !== '') : [];
}

/**
 * @param {unknown} kind
 * @returns {kind is SessionKind}
 */
function isKind(kind) {
  return kind === 'form' || kind === 'application' || kind === 'faq';
}

/**
 * Whether the respondent can confirm now: every required field is done and,
 * for applications, the audit has run (the same rule the server enforces with 409).
 * @param {SessionView} view
 */
export function canSubmit(view) {
  if (view.kind === 'faq' || view.status === 'submitted') return false;
  if (view.status === 'awaiting_confirmation') return true;
  const required = view.fields.filter((f) => f.required);
  if (required.length === 0 || required.some((f) => f.status !== 'done')) return false;
  return view.kind === 'form' || view.audit !== null;
}

/**
 * @param {SessionView} view
 * @returns {{ done: number, total: number, requiredDone: number, required: number }}
 */
export function fieldProgress(view) {
  const settled = (/** @type {FieldView} */ f) => f.status === 'done' || f.status === 'skipped';
  const required = view.fields.filter((f) => f.required);
  return {
    done: view.fields.filter(settled).length,
    total: view.fields.length,
    requiredDone: required.filter((f) => f.status === 'done').length,
    required: required.length,
  };
}

/**
 * The FAQ answer's sources with their titles, from the search hits of the same turn.
 * @param {SessionView} view
 * @returns {{ id: string, title: string }[]}
 */
export function answerSources(view) {
  if (!view.answer) return [];
  const titles = new Map();
  for (const s of view.searches) for (const h of s.hits) titles.set(h.id, h.title);
  return view.answer.sources.map((id) => ({ id, title: titles.get(id) ?? id }));
}

/**
 * Whether a user message for this turn is already in the view (the page drops
 * its "sending…" placeholder then).
 * @param {SessionView} view
 * @param {string} turnId
 */
export function hasUserMessage(view, turnId) {
  return view.messages.some((m) => m.role === 'user' && m.turnId === turnId);
}
