// @ts-check
/**
 * The problem workbench page (docs/seeds/003, UI section): generates a
 * worksheet of ten problems and shows each as a card to edit, check, fix and
 * hand to the agent (workbench/card.js); validates the whole worksheet and
 * links its PDFs. It speaks only the workbench HTTP API (docs/api.md §5). The
 * worksheet's id goes into the address (`?worksheet=`), so a reload or a
 * shared link opens the same worksheet.
 */

import { ApiError, createClient } from '/lib/convo-client.js';
import { h } from './lib/dom.js';
import { ProblemCard } from './workbench/card.js';
import { formatScore, label, pickUiLanguage, relabel, tr } from './workbench/i18n.js';

/** @typedef {import('./workbench/i18n.js').Lang} Lang */
/** @typedef {import('./workbench/api.js').Worksheet} Worksheet */

/**
 * The workbench calls, same origin. A call the gateway shed (429/503) or, where it may be repeated, could not
 * answer is retried a few times, saying so meanwhile.
 */
const api = createClient({
  baseUrl: '',
  retry: {
    maxAttempts: 4,
    onRetry: (notice) => {
      const s = Math.ceil(notice.delayMs / 1000);
      announce(notice.error.status === 0 ? tr(lang, 'unreachable', { s }) : tr(lang, 'busy', { code: notice.error.code, s }));
    },
  },
}).workbench;
/** @type {Lang} */
let lang = pickUiLanguage(location.search, navigator.languages ?? [navigator.language]);
/** Asked for in the address or picked in the header: then a worksheet's language does not change the page's. */
let langChosen = new URLSearchParams(location.search).has('lang');
/** @type {Worksheet | null} */
let worksheet = null;
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
  generate: /** @type {HTMLButtonElement} */ (byId('generate-button')),
  worksheet: byId('worksheet'),
  worksheetTitle: byId('worksheet-title'),
  worksheetMeta: byId('worksheet-meta'),
  summary: byId('summary'),
  validate: /** @type {HTMLButtonElement} */ (byId('validate')),
  validation: byId('validation'),
  pdfQuestions: /** @type {HTMLAnchorElement} */ (byId('pdf-questions')),
  pdfAnswers: /** @type {HTMLAnchorElement} */ (byId('pdf-answers')),
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
    difficulty: /** @type {import('@convo/runtime/contract').Difficulty} */ (els.difficulty.value),
    language: /** @type {import('@convo/runtime/contract').WorkbenchLanguage} */ (els.worksheetLanguage.value),
    ...(topic === '' ? {} : { topic }),
  };
  els.generate.disabled = true;
  label(els.generate, lang, 'generating');
  announce(tr(lang, 'generating'));
  try {
    const created = await api.createWorksheet(body);
    hideAlert();
    await showWorksheet(created, 'generated');
  } catch (err) {
    if (err instanceof ApiError && err.code === 'unsupported_subject') {
      showAlert(tr(lang, 'unsupportedSubject', { message: err.message }));
      els.subject.focus();
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
 * Shows a worksheet's cards and checks every problem's consistency.
 * @param {Worksheet} sheet
 * @param {'generated' | 'loaded'} how
 */
async function showWorksheet(sheet, how) {
  worksheet = sheet;
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
    label(h('span'), lang, sheet.difficulty === 'easy' ? 'difficultyEasy' : sheet.difficulty === 'hard' ? 'difficultyHard' : 'difficultyNormal'),
    ' · ',
    label(h('span'), lang, sheet.language === 'ja' ? 'languageJa' : 'languageEn'),
    ...(sheet.topic ? [' · ', h('span', { lang: sheet.language, text: sheet.topic })] : []),
  );
  for (const [link, kind] of /** @type {const} */ ([
    [els.pdfQuestions, 'questions'],
    [els.pdfAnswers, 'answers'],
  ])) {
    link.href = api.pdfUrl(sheet.worksheetId, kind);
    link.download = `${sheet.worksheetId}-${kind}.pdf`;
  }
  els.validation.hidden = true;
  els.validation.replaceChildren();

  const contentLang = sheet.language;
  cards = sheet.problems.map(
    (problem) => new ProblemCard(problem, { api, lang: () => lang, contentLang, announce, onChecked: renderSummary }),
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
    while (next < current.length) {
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
  const sheet = worksheet;
  if (!sheet) return;
  els.validate.disabled = true;
  label(els.validate, lang, 'validating');
  try {
    const result = await api.validate(sheet.worksheetId);
    const valid = result.problems.filter((problem) => problem.isValid).length;
    const indexOf = new Map(sheet.problems.map((problem) => [problem.id, problem.index]));
    const invalid = result.problems.filter((problem) => !problem.isValid);
    els.validation.replaceChildren(
      label(h('p', { class: 'overall-score', 'data-testid': 'overall-score' }), lang, 'overallScore', { score: formatScore(result.overallScore) }),
      label(h('p'), lang, 'validSummary', { valid, total: result.problems.length }),
      h(
        'ul',
        { class: 'invalid-list', hidden: invalid.length === 0 },
        invalid.map((problem) =>
          h(
            'li',
            {},
            h('a', { href: `#wb-p${indexOf.get(problem.id) ?? ''}` }, label(h('span'), lang, 'problemN', { n: indexOf.get(problem.id) ?? '?' })),
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

// ---- address and start -------------------------------------------------

function updateAddress() {
  const query = new URLSearchParams(location.search);
  if (worksheet) query.set('worksheet', worksheet.worksheetId);
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
  try {
    await showWorksheet(await api.getWorksheet(id), 'loaded');
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) {
      showAlert(tr(lang, 'worksheetGone'));
      updateAddress();
    } else {
      showAlert(tr(lang, 'error', { message: messageOf(err) }));
    }
  }
}

void boot();
