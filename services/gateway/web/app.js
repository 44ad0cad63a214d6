// @ts-check
/**
 * The chat page: picks a product, opens a session, sends turns and renders the
 * session's event stream (chat on the left, what the agents do on the right).
 * It speaks only the public contract (docs/api.md). The session id and token live in
 * sessionStorage, so a reload or a gateway restart resumes the same conversation.
 */

import { ApiError, createClient, newIdempotencyKey } from '/lib/convo-client.js';
import { h, langOf } from './lib/dom.js';
import { pickUiLanguage, STRINGS, t } from './lib/i18n.js';
import { renderPanel } from './lib/panel.js';
import { applyEvent, canSubmit, hasUserMessage, viewFromSnapshot } from './lib/session-view.js';

/** @typedef {import('./lib/session-view.js').SessionView} SessionView */
/** @typedef {import('./lib/session-view.js').SessionKind} SessionKind */
/** @typedef {import('./lib/i18n.js').UiLanguage} UiLanguage */
/** @typedef {import('/lib/convo-client.js').SampleForm} SampleForm */
/** @typedef {import('/lib/convo-client.js').RetryNotice} RetryNotice */
/** @typedef {import('/lib/convo-client.js').StreamState} StreamState */

/**
 * @typedef {object} PendingTurn
 * @property {string} key idempotency key, reused on every retry of this message
 * @property {string} text
 * @property {string | null} turnId set once the gateway accepted it (202)
 */

/**
 * @typedef {object} ActiveSession
 * @property {string} id
 * @property {string} token
 * @property {SessionView} view
 * @property {Map<string, PendingTurn>} pending
 * @property {import('/lib/convo-client.js').EventStream | null} stream
 */

const STORAGE_KEY = 'convo.session';
const FAQ_EXAMPLES = ['返品', 'ギフト包装はできますか？', 'How much is shipping to Asia?', 'Can I pay with PayPal?'];

/**
 * The contract, same origin. A shed call (429/503) and, where it may be repeated, an unreachable
 * gateway are retried until they go through, each wait shown with "Retry now".
 */
const api = createClient({ baseUrl: '', retry: { maxAttempts: Infinity, onRetry: (notice) => showRetry(notice) } });
/** @type {UiLanguage} */
let lang = pickUiLanguage(location.search, navigator.languages ?? [navigator.language]);
/** @type {SampleForm[]} */
let samples = [];
/** @type {ActiveSession | null} */
let session = null;
let renderQueued = false;

/** @template {HTMLElement} T @param {string} id @returns {T} */
const byId = (id) => /** @type {T} */ (document.getElementById(id));

const els = {
  uiLanguage: /** @type {HTMLSelectElement} */ (byId('ui-language')),
  newSession: byId('new-session'),
  connection: byId('connection'),
  connectionText: byId('connection-text'),
  reconnect: byId('reconnect'),
  setup: byId('setup'),
  setupForm: /** @type {HTMLFormElement} */ (byId('setup-form')),
  sample: /** @type {HTMLSelectElement} */ (byId('sample')),
  sampleRow: byId('sample-row'),
  conversationLanguage: /** @type {HTMLSelectElement} */ (byId('conversation-language')),
  start: /** @type {HTMLButtonElement} */ (byId('start')),
  workspace: byId('workspace'),
  notice: byId('notice'),
  noticeText: byId('notice-text'),
  noticeRetry: /** @type {HTMLButtonElement} */ (byId('notice-retry')),
  faqIntro: byId('faq-intro'),
  faqExamples: byId('faq-examples'),
  scroller: byId('scroller'),
  log: byId('log'),
  pending: byId('pending'),
  working: byId('working'),
  choices: byId('choices'),
  composer: /** @type {HTMLFormElement} */ (byId('composer')),
  message: /** @type {HTMLTextAreaElement} */ (byId('message')),
  send: /** @type {HTMLButtonElement} */ (byId('send')),
  panelDetails: /** @type {HTMLDetailsElement} */ (byId('panel-details')),
  panelBody: byId('panel-body'),
  submitArea: byId('submit-area'),
};

// ---- page language -------------------------------------------------------

function applyUiLanguage() {
  document.documentElement.lang = lang;
  document.title = t(lang, 'appTitle');
  els.uiLanguage.value = lang;
  for (const el of document.querySelectorAll('[data-i18n]')) {
    const key = /** @type {keyof typeof STRINGS.en} */ (el.getAttribute('data-i18n'));
    if (key in STRINGS[lang]) el.textContent = t(lang, key);
  }
  renderSamples();
  renderFaqExamples();
  scheduleRender();
}

els.uiLanguage.addEventListener('change', () => {
  lang = els.uiLanguage.value === 'ja' ? 'ja' : 'en';
  applyUiLanguage();
});

// ---- setup ---------------------------------------------------------------

/** @returns {SessionKind} */
function selectedProduct() {
  const checked = /** @type {HTMLInputElement | null} */ (els.setupForm.querySelector('input[name="product"]:checked'));
  const value = checked?.value;
  return value === 'application' || value === 'faq' ? value : 'form';
}

function renderSamples() {
  const kind = selectedProduct();
  els.sampleRow.hidden = kind === 'faq';
  const previous = els.sample.value;
  const matching = samples.filter((s) => s.kind === kind);
  els.sample.replaceChildren(...matching.map((s) => h('option', { value: s.id, lang: s.language, text: `${s.title} (${s.language})` })));
  const keep = matching.find((s) => s.id === previous) ?? matching.find((s) => s.language === lang) ?? matching[0];
  if (keep) els.sample.value = keep.id;
}

els.setupForm.addEventListener('change', (e) => {
  if (/** @type {HTMLInputElement} */ (e.target).name === 'product') renderSamples();
});

els.setupForm.addEventListener('submit', (e) => {
  e.preventDefault();
  void startSession();
});

async function startSession() {
  const kind = selectedProduct();
  const language = els.conversationLanguage.value;
  els.start.disabled = true;
  els.start.textContent = t(lang, 'starting');
  try {
    /** @type {{ kind: SessionKind, form?: unknown, options: { language: string } }} */
    const body = { kind, options: { language } };
    if (kind !== 'faq') body.form = await api.samples.get(els.sample.value);
    const created = await api.sessions.create(/** @type {import('/lib/convo-client.js').CreateSessionInput} */ (body));
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify({ id: created.sessionId, token: created.token }));
    await openSession(created.sessionId, created.token);
  } catch (err) {
    showError(err);
  } finally {
    els.start.disabled = false;
    els.start.textContent = t(lang, 'start');
  }
}

/**
 * Shows the workspace for a session and follows its stream from the first event:
 * a fresh connect replays the whole history, so a reload rebuilds everything.
 * @param {string} id @param {string} token
 */
async function openSession(id, token) {
  hideNotice();
  const view = viewFromSnapshot(await api.sessions.get(id, { token }));
  session = { id, token, view, pending: new Map(), stream: null };
  els.log.replaceChildren();
  els.setup.hidden = true;
  els.workspace.hidden = false;
  els.newSession.hidden = false;
  els.connection.hidden = false;
  // Phones show the panel folded under the chat; wide screens beside it, open.
  els.panelDetails.open = !matchMedia('(max-width: 760px)').matches;
  void follow(session);
  scheduleRender();
  els.message.focus();
}

/**
 * Applies the session's events as they come, from the first: the stream
 * reconnects by itself with Last-Event-ID (after the server's retry delay,
 * doubling to 15 s while attempts fail) and ends only when the session is
 * gone (401/404) or another one is opened.
 * @param {ActiveSession} current
 */
async function follow(current) {
  const stream = api.sessions.events(current.id, {
    token: current.token,
    onState: (state, detail) => renderConnection(state, detail.delayMs),
  });
  current.stream = stream;
  try {
    for await (const ev of stream) {
      if (applyEvent(current.view, ev)) scheduleRender();
    }
  } catch (err) {
    if (session !== current) return;
    if (err instanceof ApiError && (err.status === 401 || err.status === 404)) endSession(t(lang, 'sessionGone'));
    else showError(err);
  }
}

/** @param {string} reason */
function endSession(reason) {
  sessionStorage.removeItem(STORAGE_KEY);
  showNotice(reason, null);
}

els.newSession.addEventListener('click', () => {
  session?.stream?.close();
  session = null;
  sessionStorage.removeItem(STORAGE_KEY);
  hideNotice();
  els.workspace.hidden = true;
  els.setup.hidden = false;
  els.newSession.hidden = true;
  els.connection.hidden = true;
  /** @type {HTMLInputElement | null} */ (els.setupForm.querySelector('input[name="product"]:checked'))?.focus();
});

// ---- sending -------------------------------------------------------------

els.composer.addEventListener('submit', (e) => {
  e.preventDefault();
  const text = els.message.value.trim();
  if (text === '') return;
  els.message.value = '';
  void send(text);
});

els.message.addEventListener('keydown', (e) => {
  if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
    // isComposing: Enter that confirms a Japanese IME conversion must not send.
    e.preventDefault();
    els.composer.requestSubmit();
  }
});

/** @param {string} text */
async function send(text) {
  const current = session;
  if (!current) return;
  /** @type {PendingTurn} */
  const pending = { key: newIdempotencyKey(), text, turnId: null };
  current.pending.set(pending.key, pending);
  scheduleRender();
  try {
    const accepted = await api.sessions.postTurn(current.id, { message: text, idempotencyKey: pending.key }, { token: current.token });
    pending.turnId = accepted.turnId;
    hideNotice();
  } catch (err) {
    current.pending.delete(pending.key);
    if (els.message.value === '') els.message.value = text;
    showError(err);
  }
  scheduleRender();
}

async function submitAnswers() {
  const current = session;
  if (!current) return;
  try {
    const result = await api.sessions.submit(current.id, { token: current.token });
    current.view.status = 'submitted';
    current.view.collectedFields = result.collectedFields;
    hideNotice();
  } catch (err) {
    showError(err);
  }
  scheduleRender();
}

// ---- notices -------------------------------------------------------------

/** @type {(() => void) | null} */
let noticeAction = null;

/** @param {RetryNotice} notice */
function showRetry(notice) {
  const s = Math.ceil(notice.delayMs / 1000);
  const text = notice.error.status === 0 ? t(lang, 'unreachable', { s }) : t(lang, 'busy', { code: notice.error.code, s });
  showNotice(text, notice.retryNow);
}

/** @param {string} text @param {(() => void) | null} action */
function showNotice(text, action) {
  els.noticeText.textContent = text;
  noticeAction = action;
  els.noticeRetry.hidden = action === null;
  els.notice.hidden = false;
}

function hideNotice() {
  els.notice.hidden = true;
  noticeAction = null;
}

els.noticeRetry.addEventListener('click', () => {
  const action = noticeAction;
  hideNotice();
  action?.();
});

/** @param {unknown} err */
function showError(err) {
  showNotice(err instanceof Error ? err.message : String(err), null);
}

// ---- connection ----------------------------------------------------------

/** @param {StreamState} state @param {number} delayMs */
function renderConnection(state, delayMs) {
  els.connection.dataset.state = state;
  const text =
    state === 'open'
      ? t(lang, 'connOpen')
      : state === 'connecting'
        ? t(lang, 'connConnecting')
        : state === 'closed'
          ? t(lang, 'connClosed')
          : delayMs > 0
            ? t(lang, 'connReconnectingIn', { s: Math.ceil(delayMs / 1000) })
            : t(lang, 'connReconnecting');
  els.connectionText.textContent = text;
  els.reconnect.hidden = !(state === 'reconnecting' && delayMs > 0);
}

els.reconnect.addEventListener('click', () => session?.stream?.reconnectNow());

// ---- rendering -----------------------------------------------------------

function scheduleRender() {
  if (renderQueued) return;
  renderQueued = true;
  requestAnimationFrame(() => {
    renderQueued = false;
    render();
  });
}

function render() {
  if (!session) return;
  const { view } = session;
  const userSpoke = renderMessages(view);
  const userSending = renderPending(session);
  // The person's own message always brings the view down; replies only when they were reading the end.
  if (pinnedToEnd || userSpoke || userSending) scrollToEnd();
  renderChoices(view);
  els.faqIntro.hidden = !(view.kind === 'faq' && view.messages.length === 0);
  const busyAgent = view.activeTurn !== null ? (view.currentAgent ?? '') : '';
  els.working.textContent = busyAgent !== '' ? t(lang, 'thinking', { agent: busyAgent }) : '';
  const submitted = view.status === 'submitted';
  els.message.disabled = submitted;
  els.send.disabled = submitted;
  els.panelBody.replaceChildren(...renderPanel(view, lang));
  renderSubmit(view);
}

/**
 * @param {SessionView} view
 * @returns {boolean} whether a user message was added
 */
function renderMessages(view) {
  const current = new Set(view.messages.map((m) => m.messageId));
  // Text streamed for a message that never came (a failed or cancelled turn) is withdrawn from the page.
  for (const li of Array.from(els.log.querySelectorAll('li.streaming'))) {
    const id = /** @type {HTMLElement} */ (li).dataset.messageId;
    if (id && !current.has(id)) li.remove();
  }
  const shown = new Map(Array.from(els.log.children, (li) => [/** @type {HTMLElement} */ (li).dataset.messageId, li]));
  if (shown.size > view.messages.length) {
    // A resync replaced the history: draw it again.
    els.log.replaceChildren();
    shown.clear();
  }
  let userSpoke = false;
  for (const m of view.messages) {
    const existing = /** @type {HTMLElement | undefined} */ (shown.get(m.messageId));
    if (existing) {
      const textEl = /** @type {HTMLElement} */ (existing.querySelector('.text'));
      if (textEl.textContent !== m.text) textEl.textContent = m.text;
      existing.classList.toggle('streaming', m.streaming);
      continue;
    }
    const who = m.role === 'user' ? t(lang, 'you') : (m.agent ?? 'assistant');
    els.log.append(
      h(
        'li',
        {
          class: `msg ${m.role}${m.streaming ? ' streaming' : ''}`,
          'data-message-id': m.messageId,
          'data-role': m.role,
          lang: langOf(m.text),
        },
        h('span', { class: 'who', text: who }),
        h('span', { class: 'text', text: m.text }),
      ),
    );
    if (m.role === 'user') userSpoke = true;
  }
  if (view.lastFailure && !els.log.querySelector(`[data-failure="${CSS.escape(view.lastFailure.turnId)}"]`)) {
    els.log.append(
      h('li', {
        class: 'msg system',
        'data-failure': view.lastFailure.turnId,
        text: t(lang, 'turnFailed', { message: view.lastFailure.message }),
      }),
    );
  }
  return userSpoke;
}

/** Whether the reader is at the end of the conversation: then new messages, and a notice that takes room, keep it there. */
let pinnedToEnd = true;
const updatePinned = () => (pinnedToEnd = isNearBottom());
els.scroller.addEventListener('scroll', updatePinned, { passive: true });
window.addEventListener('scroll', updatePinned, { passive: true });
new ResizeObserver(() => {
  if (pinnedToEnd) scrollToEnd();
}).observe(els.scroller);

function scrollToEnd() {
  (els.pending.lastElementChild ?? els.log.lastElementChild)?.scrollIntoView({ block: 'end' });
}

/** Within 120 px of the end of the conversation (the chat scrolls inside itself on wide screens, the page on phones). */
function isNearBottom() {
  const box = els.scroller;
  if (box.scrollHeight > box.clientHeight) return box.scrollTop + box.clientHeight >= box.scrollHeight - 120;
  return window.innerHeight + window.scrollY >= document.body.scrollHeight - 120;
}

/**
 * @param {ActiveSession} current
 * @returns {boolean} whether a message the person just sent was added
 */
function renderPending(current) {
  const before = els.pending.children.length;
  for (const [key, p] of current.pending) if (p.turnId !== null && hasUserMessage(current.view, p.turnId)) current.pending.delete(key);
  els.pending.replaceChildren(
    ...Array.from(current.pending.values(), (p) => {
      const queued = p.turnId !== null ? current.view.queuedTurns[p.turnId] : undefined;
      const state = queued !== undefined && queued > 0 ? t(lang, 'queued', { n: queued }) : t(lang, 'sending');
      return h(
        'li',
        { class: 'msg user pending', lang: langOf(p.text) },
        h('span', { class: 'who', text: state }),
        h('span', { class: 'text', text: p.text }),
      );
    }),
  );
  return els.pending.children.length > before;
}

/**
 * Parts redrawn only when what they show changed (by a key of it): they hold
 * buttons, and redrawing on every event would drop a keyboard user's focus.
 * @type {Record<'choices' | 'submit', string>}
 */
const drawn = { choices: '', submit: '' };

/** A button that sends its own text as the person's message. @param {string} text */
function sendButton(text) {
  const button = h('button', { type: 'button', lang: langOf(text), text });
  button.addEventListener('click', () => void send(text));
  return button;
}

/** @param {SessionView} view */
function renderChoices(view) {
  const choices = view.clarify?.choices ?? [];
  const key = JSON.stringify(choices);
  if (drawn.choices === key) return;
  drawn.choices = key;
  const label = /** @type {HTMLElement} */ (els.choices.firstElementChild);
  els.choices.replaceChildren(label, ...choices.map(sendButton));
  els.choices.hidden = choices.length === 0;
}

function renderFaqExamples() {
  els.faqExamples.replaceChildren(...FAQ_EXAMPLES.map(sendButton));
}

/** @param {SessionView} view */
function renderSubmit(view) {
  const ready = canSubmit(view);
  const key = JSON.stringify([lang, view.kind, view.status, ready, view.status === 'submitted' ? view.collectedFields : null]);
  if (drawn.submit === key) return;
  drawn.submit = key;
  els.submitArea.replaceChildren(...(view.kind === 'faq' ? [] : [submitBox(view, ready)]));
}

/** @param {SessionView} view @param {boolean} ready */
function submitBox(view, ready) {
  if (view.status === 'submitted') {
    const labels = new Map(view.fields.map((f) => [f.fieldId, f.label]));
    return h(
      'section',
      { class: 'submit-box', 'aria-labelledby': 'collected-title' },
      h('p', { role: 'status', 'data-testid': 'submitted', text: t(lang, 'submitted') }),
      h('h3', { id: 'collected-title', text: t(lang, 'collected') }),
      h(
        'dl',
        { 'data-testid': 'collected' },
        Object.entries(view.collectedFields ?? {}).flatMap(([id, value]) => [
          h('dt', { lang: langOf(labels.get(id) ?? id), text: labels.get(id) ?? id }),
          h('dd', { lang: langOf(value), text: value }),
        ]),
      ),
    );
  }
  const button = h('button', {
    type: 'button',
    class: 'primary',
    id: 'submit',
    'aria-describedby': ready ? undefined : 'submit-hint',
    text: t(lang, 'submit'),
  });
  button.disabled = !ready;
  button.addEventListener('click', () => void submitAnswers());
  return h(
    'div',
    { class: 'submit-box' },
    button,
    ready ? null : h('p', { id: 'submit-hint', class: 'hint', text: t(lang, 'submitHint') }),
  );
}

// ---- boot ----------------------------------------------------------------

async function boot() {
  applyUiLanguage();
  try {
    samples = (await api.samples.list({ retry: { maxAttempts: 5 } })).forms;
  } catch (err) {
    showError(err);
  }
  renderSamples();
  const saved = readSaved();
  if (saved) {
    try {
      await openSession(saved.id, saved.token);
      return;
    } catch (err) {
      sessionStorage.removeItem(STORAGE_KEY);
      showError(err);
    }
  }
}

/** @returns {{ id: string, token: string } | null} */
function readSaved() {
  try {
    const saved = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? 'null');
    if (saved && typeof saved.id === 'string' && typeof saved.token === 'string') return saved;
  } catch {
    // A damaged entry starts over.
  }
  return null;
}

void boot();
