// @ts-check
/**
 * The problem workbench page (docs/seeds/003, UI section): generates a
 * worksheet of ten problems and shows each as a card to edit, check, fix and
 * hand to the agent (workbench/card.js); validates the whole worksheet and
 * offers its PDFs. It speaks only the workbench HTTP API (docs/api.md §5).
 *
 * A worksheet belongs to whoever holds its edit token; its share token reads
 * it. Both are answered once, at creation, and kept in this browser
 * (workbench/tokens.js); every call sends the worksheet's token in the
 * Authorization header. The address carries only the worksheet's id
 * (`?worksheet=`), so a reload opens the same worksheet; a share link adds
 * `#share=<token>`, which the page takes and removes from the address, and
 * opens the worksheet read-only.
 */

import { ApiError, createClient } from '/lib/convo-client.js';
import { h } from './lib/dom.js';
import { ProblemCard } from './workbench/card.js';
import { formatScore, label, pickUiLanguage, relabel, tr } from './workbench/i18n.js';
import { forgetTokens, loadTokens, saveTokens, shareLink, takeShareFragment, tokenFor } from './workbench/tokens.js';

/** @typedef {import('./workbench/i18n.js').Lang} Lang */
/** @typedef {import('./workbench/api.js').Worksheet} Worksheet */
/** @typedef {import('./workbench/api.js').WorkbenchApi} WorkbenchApi */
/** @typedef {import('./workbench/tokens.js').WorksheetTokens} WorksheetTokens */
/** @typedef {import('./workbench/tokens.js').Access} Access */

/**
 * The worksheet shown, with the calls that carry its token.
 * @typedef {object} Opened
 * @property {Worksheet} sheet
 * @property {WorkbenchApi} api
 * @property {Access} access
 * @property {string | null} shareToken
 */

// Before anything else reads the address: a share link's token leaves it at once.
const sharedToken = takeShareFragment();

/**
 * The gateway's calls, same origin, with no token (a worksheet's calls are `withToken`). A call the gateway
 * shed (429/503) or, where it may be repeated, could not answer is retried a few times, saying so meanwhile.
 */
const client = createClient({
  baseUrl: '',
  retry: {
    maxAttempts: 4,
    onRetry: (notice) => {
      const s = Math.ceil(notice.delayMs / 1000);
      announce(notice.error.status === 0 ? tr(lang, 'unreachable', { s }) : tr(lang, 'busy', { code: notice.error.code, s }));
    },
  },
});
/** @type {Lang} */
let lang = pickUiLanguage(location.search, navigator.languages ?? [navigator.language]);
/** Asked for in the address or picked in the header: then a worksheet's language does not change the page's. */
let langChosen = new URLSearchParams(location.search).has('lang');
/** @type {Opened | null} */
let opened = null;
/** @type {ProblemCard[]} */
let cards = [];

/** @template {HTMLElement} T @param {string} id @returns {T} */
const byId = (id) => /** @type {T} */ (document.getElementById(id));

const els = {
  uiLanguage: /** @type {HTMLSelectElement} */ (byId('ui-language')),
  chatLink: /** @type {HTMLAnchorElement} */ (byId('chat-link')),
  alert: byId('alert'),
  alertText: byId('alert-text'),
  form: /** @type {HTMLFormElement} */ (byId('generate-form')),
  subject: /** @type {HTMLInputElement} */ (byId('subject')),
  difficulty: /** @type {HTMLSelectElement} */ (byId('difficulty')),
  worksheetLanguage: /** @type {HTMLSelectElement} */ (byId('worksheet-language')),
  topic: /** @type {HTMLInputElement} */ (byId('topic')),
  generateTitle: byId('generate-title'),
  generate: /** @type {HTMLButtonElement} */ (byId('generate-button')),
  worksheet: byId('worksheet'),
  worksheetTitle: byId('worksheet-title'),
  worksheetMeta: byId('worksheet-meta'),
  summary: byId('summary'),
  readOnlyNotice: byId('readonly-notice'),
  validate: /** @type {HTMLButtonElement} */ (byId('validate')),
  validation: byId('validation'),
  pdfQuestions: /** @type {HTMLButtonElement} */ (byId('pdf-questions')),
  pdfAnswers: /** @type {HTMLButtonElement} */ (byId('pdf-answers')),
  share: /** @type {HTMLButtonElement} */ (byId('share')),
  sharePanel: byId('share-panel'),
  shareLink: /** @type {HTMLInputElement} */ (byId('share-link')),
  deleteWorksheet: /** @type {HTMLButtonElement} */ (byId('delete-worksheet')),
  problems: byId('problems'),
  status: byId('status'),
};

// ---- page language -------------------------------------------------------

function applyUiLanguage() {
  document.documentElement.lang = lang;
  document.title = tr(lang, 'appTitle');
  els.uiLanguage.value = lang;
  els.chatLink.href = `/?lang=${lang}`;
  relabel(document, lang);
}

els.uiLanguage.addEventListener('change', () => {
  lang = els.uiLanguage.value === 'ja' ? 'ja' : 'en';
  langChosen = true;
  applyUiLanguage();
  updateAddress();
});

// ---- status and errors -------------------------------------------------

/** @param {string} text */
function announce(text) {
  els.status.textContent = text;
}

/** @param {string} text */
function showAlert(text) {
  els.alertText.textContent = text;
  els.alert.hidden = false;
}

function hideAlert() {
  els.alert.hidden = true;
  els.alertText.textContent = '';
}

/** @param {unknown} err */
const messageOf = (err) => (err instanceof Error ? err.message : String(err));

// ---- generating ----------------------------------------------------------

els.form.addEventListener('submit', (e) => {
  e.preventDefault();
  void generate();
});

async function generate() {
  const topic = els.topic.value.trim();
  const body = {
    subject: els.subject.value.trim(),
    difficulty: /** @type {import('@convo/contract').Difficulty} */ (els.difficulty.value),
    language: /** @type {import('@convo/contract').WorkbenchLanguage} */ (els.worksheetLanguage.value),
    ...(topic === '' ? {} : { topic }),
  };
  els.generate.disabled = true;
  label(els.generate, lang, 'generating');
  announce(tr(lang, 'generating'));
  try {
    const { editToken, shareToken, ...sheet } = await client.workbench.createWorksheet(body);
    // Shown once: kept now, or the worksheet is lost to this page.
    const tokens = saveTokens(sheet.worksheetId, { editToken, shareToken });
    hideAlert();
    await showWorksheet(sheet, 'generated', tokens);
  } catch (err) {
    if (err instanceof ApiError && (err.code === 'unsupported_subject' || err.code === 'unsupported_topic')) {
      // The message says why and what is offered, in the worksheet's language.
      showAlert(tr(lang, 'unsupportedSubject', { message: err.message }));
      (err.code === 'unsupported_topic' ? els.topic : els.subject).focus();
    } else {
      showAlert(tr(lang, 'error', { message: messageOf(err) }));
    }
    announce('');
  } finally {
    els.generate.disabled = false;
    label(els.generate, lang, 'generate');
  }
}

/**
 * The worksheet's calls with the token held for it (the edit token when there is one).
 * @param {WorksheetTokens} tokens
 * @returns {{ api: WorkbenchApi, access: Access } | null}
 */
function callsWith(tokens) {
  const use = tokenFor(tokens);
  return use ? { api: client.withToken(use.token).workbench, access: use.access } : null;
}

/**
 * Shows a worksheet's cards, read-only unless the edit token is held, and checks every problem's consistency.
 * @param {Worksheet} sheet
 * @param {'generated' | 'loaded'} how
 * @param {WorksheetTokens} tokens
 */
async function showWorksheet(sheet, how, tokens) {
  const calls = callsWith(tokens);
  if (!calls) throw new Error(`no token for ${sheet.worksheetId}`);
  opened = { sheet, api: calls.api, access: calls.access, shareToken: tokens.shareToken ?? null };
  const readOnly = calls.access === 'read';
  document.body.dataset.access = calls.access;
  els.readOnlyNotice.hidden = !readOnly;
  els.deleteWorksheet.hidden = readOnly;
  els.share.hidden = opened.shareToken === null;
  hideSharePanel();
  if (!langChosen && sheet.language !== lang) {
    // The page follows the worksheet's language unless a language was asked for.
    lang = sheet.language;
    applyUiLanguage();
  }
  if (how === 'loaded') {
    // The form offers another worksheet like the one opened.
    els.subject.value = sheet.subject;
    els.difficulty.value = sheet.difficulty;
    els.worksheetLanguage.value = sheet.language;
    els.topic.value = sheet.topic ?? '';
  }
  els.worksheet.hidden = false;
  els.worksheetTitle.textContent = sheet.title;
  els.worksheetTitle.lang = sheet.language;
  els.worksheetMeta.replaceChildren(
    h('span', { lang: sheet.language, text: sheet.subject }),
    ' · ',
    label(
      h('span'),
      lang,
      sheet.difficulty === 'easy' ? 'difficultyEasy' : sheet.difficulty === 'hard' ? 'difficultyHard' : 'difficultyNormal',
    ),
    ' · ',
    label(h('span'), lang, sheet.language === 'ja' ? 'languageJa' : 'languageEn'),
    ...(sheet.topic ? [' · ', h('span', { lang: sheet.language, text: sheet.topic })] : []),
  );
  els.validation.hidden = true;
  els.validation.replaceChildren();

  const contentLang = sheet.language;
  cards = sheet.problems.map(
    (problem) => new ProblemCard(problem, { api: calls.api, lang: () => lang, contentLang, announce, onChecked: renderSummary, readOnly }),
  );
  els.problems.replaceChildren(...cards.map((card) => h('li', { class: 'problem-item' }, card.root)));
  renderSummary();
  updateAddress();
  announce(tr(lang, how, { title: sheet.title, n: sheet.problems.length }));
  els.worksheetTitle.focus();
  await checkAll();
}

/** Checks every card, three at a time, then says how many are consistent. */
async function checkAll() {
  const current = cards;
  let next = 0;
  const worker = async () => {
    while (next < current.length && current === cards) {
      const card = current[next++];
      if (card) await card.check(false);
    }
  };
  await Promise.all([worker(), worker(), worker()]);
  if (current !== cards) return;
  const ok = current.filter((card) => card.state === 'ok').length;
  announce(tr(lang, 'allChecked', { ok, total: current.length }));
}

function renderSummary() {
  const count = (/** @type {string} */ state) => cards.filter((card) => card.state === state).length;
  label(els.summary, lang, 'summaryCounts', { ok: count('ok'), warn: count('warn'), bad: count('bad') });
}

// ---- the whole worksheet -------------------------------------------------

els.validate.addEventListener('click', () => void validate());

async function validate() {
  const current = opened;
  if (!current) return;
  const sheet = current.sheet;
  els.validate.disabled = true;
  label(els.validate, lang, 'validating');
  try {
    const result = await current.api.validate(sheet.worksheetId);
    const valid = result.problems.filter((problem) => problem.isValid).length;
    const indexOf = new Map(sheet.problems.map((problem) => [problem.id, problem.index]));
    const invalid = result.problems.filter((problem) => !problem.isValid);
    els.validation.replaceChildren(
      label(h('p', { class: 'overall-score', 'data-testid': 'overall-score' }), lang, 'overallScore', {
        score: formatScore(result.overallScore),
      }),
      label(h('p'), lang, 'validSummary', { valid, total: result.problems.length }),
      h(
        'ul',
        { class: 'invalid-list', hidden: invalid.length === 0 },
        invalid.map((problem) =>
          h(
            'li',
            {},
            h(
              'a',
              { href: `#wb-p${indexOf.get(problem.id) ?? ''}` },
              label(h('span'), lang, 'problemN', { n: indexOf.get(problem.id) ?? '?' }),
            ),
            ': ',
            h('span', { lang: sheet.language, text: problem.issues.join(' / ') }),
          ),
        ),
      ),
    );
    els.validation.hidden = false;
    announce(tr(lang, 'validated', { score: formatScore(result.overallScore) }));
  } catch (err) {
    showAlert(tr(lang, 'error', { message: messageOf(err) }));
  } finally {
    els.validate.disabled = false;
    label(els.validate, lang, 'validate');
  }
}

// ---- PDFs ----------------------------------------------------------------

for (const [button, kind] of /** @type {const} */ ([
  [els.pdfQuestions, 'questions'],
  [els.pdfAnswers, 'answers'],
])) {
  button.addEventListener('click', () => void downloadPdf(button, kind));
}

/**
 * Fetches the sheet with the worksheet's token (a plain link cannot send it) and hands it to the browser as a
 * download of a Blob URL, named `<worksheetId>-<sheet>.pdf`.
 * @param {HTMLButtonElement} button
 * @param {'questions' | 'answers'} kind
 */
async function downloadPdf(button, kind) {
  const current = opened;
  // Busy, not disabled: a disabled button would lose the keyboard focus.
  if (!current || button.getAttribute('aria-busy') === 'true') return;
  const name = `${current.sheet.worksheetId}-${kind}.pdf`;
  button.setAttribute('aria-busy', 'true');
  announce(tr(lang, 'pdfPreparing'));
  try {
    const bytes = await current.api.pdf(current.sheet.worksheetId, kind);
    // The client answers a Uint8Array of its own ArrayBuffer (never a shared one), which Blob takes.
    const url = URL.createObjectURL(new Blob([/** @type {Uint8Array<ArrayBuffer>} */ (bytes)], { type: 'application/pdf' }));
    const link = h('a', { href: url, download: name, hidden: true });
    document.body.append(link);
    link.click();
    link.remove();
    // Revoked later, not at once: the browser reads the Blob after the click returns.
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
    announce(tr(lang, 'pdfReady', { name }));
  } catch (err) {
    showAlert(tr(lang, 'error', { message: messageOf(err) }));
    announce('');
  } finally {
    button.removeAttribute('aria-busy');
  }
}

// ---- sharing and deleting ------------------------------------------------

els.share.addEventListener('click', () => void share());

/** Shows the read-only link (the share token in its fragment) and copies it where the browser lets the page. */
async function share() {
  const current = opened;
  if (!current?.shareToken) return;
  const link = shareLink(current.sheet.worksheetId, current.shareToken);
  els.shareLink.value = link;
  els.sharePanel.hidden = false;
  els.share.setAttribute('aria-expanded', 'true');
  els.shareLink.select();
  try {
    await navigator.clipboard.writeText(link);
    announce(tr(lang, 'shareCopied'));
  } catch {
    // No clipboard (an insecure origin, a refused permission): the link is there to copy by hand.
    announce(tr(lang, 'shareShown'));
  }
}

function hideSharePanel() {
  els.sharePanel.hidden = true;
  els.shareLink.value = '';
  els.share.setAttribute('aria-expanded', 'false');
}

els.deleteWorksheet.addEventListener('click', () => void deleteWorksheet());

/** Deletes the worksheet (edit token, after a confirm), forgets its tokens and goes back to the empty form. */
async function deleteWorksheet() {
  const current = opened;
  if (!current || current.access !== 'edit') return;
  const { worksheetId, title } = current.sheet;
  if (!confirm(tr(lang, 'deleteConfirm', { title }))) return;
  els.deleteWorksheet.disabled = true;
  label(els.deleteWorksheet, lang, 'deleting');
  try {
    await current.api.deleteWorksheet(worksheetId);
    hideAlert();
    closeWorksheet(worksheetId);
    announce(tr(lang, 'deleted', { title }));
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) {
      closeWorksheet(worksheetId);
      showAlert(tr(lang, 'worksheetGone'));
    } else {
      showAlert(tr(lang, 'error', { message: messageOf(err) }));
    }
  } finally {
    els.deleteWorksheet.disabled = false;
    label(els.deleteWorksheet, lang, 'deleteWorksheet');
  }
}

/**
 * The worksheet is gone (deleted, or unknown to the server): its tokens are forgotten and the page shows the
 * empty form.
 * @param {string} worksheetId
 */
function closeWorksheet(worksheetId) {
  forgetTokens(worksheetId);
  opened = null;
  cards = [];
  els.problems.replaceChildren();
  els.validation.replaceChildren();
  hideSharePanel();
  els.worksheet.hidden = true;
  delete document.body.dataset.access;
  els.form.reset();
  els.worksheetLanguage.value = lang;
  updateAddress();
  els.generateTitle.focus();
}

// ---- address and start -------------------------------------------------

/** The address names the worksheet shown by its id only: never a token. */
function updateAddress() {
  const query = new URLSearchParams(location.search);
  if (opened) query.set('worksheet', opened.sheet.worksheetId);
  else query.delete('worksheet');
  if (langChosen) query.set('lang', lang);
  const search = query.toString();
  history.replaceState(null, '', `${location.pathname}${search === '' ? '' : `?${search}`}${location.hash}`);
}

async function boot() {
  applyUiLanguage();
  els.worksheetLanguage.value = lang;
  const id = new URLSearchParams(location.search).get('worksheet');
  if (!id) return;
  // A share link's token joins what this browser holds; an edit token held already still wins.
  const tokens = sharedToken ? saveTokens(id, { shareToken: sharedToken }) : loadTokens(id);
  const calls = callsWith(tokens);
  if (!calls) {
    showAlert(tr(lang, 'noToken'));
    return;
  }
  try {
    await showWorksheet(await calls.api.getWorksheet(id), 'loaded', tokens);
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) {
      // Gone (deleted, expired), or a token that is not this worksheet's: either way it opens no more.
      forgetTokens(id);
      showAlert(tr(lang, 'worksheetGone'));
      updateAddress();
    } else if (err instanceof ApiError && err.status === 401) {
      showAlert(tr(lang, 'noToken'));
    } else {
      showAlert(tr(lang, 'error', { message: messageOf(err) }));
    }
  }
}

void boot();
