// @ts-check
/** The side panel: what the agents are doing, drawn from the session view alone. */

import { h, langOf } from './dom.js';
import { t } from './i18n.js';
import { answerSources, fieldProgress } from './session-view.js';

/** @typedef {import('./session-view.js').SessionView} SessionView */
/** @typedef {import('./i18n.js').UiLanguage} UiLanguage */
/** @typedef {import('./i18n.js').MessageKey} MessageKey */

/** @type {Record<string, MessageKey>} */
const STATUS_KEYS = {
  active: 'statusActive',
  awaiting_confirmation: 'statusAwaiting',
  submitted: 'statusSubmitted',
  failed: 'statusFailed',
};

/** @type {Record<string, MessageKey>} */
const FIELD_STATUS_KEYS = {
  pending: 'fieldPending',
  interviewing: 'fieldInterviewing',
  reviewing: 'fieldReviewing',
  done: 'fieldDone',
  skipped: 'fieldSkipped',
};

const MAX_REVIEWS = 6;

/**
 * @param {SessionView} view
 * @param {UiLanguage} lang
 * @returns {HTMLElement[]}
 */
export function renderPanel(view, lang) {
  const sections = [renderStatus(view, lang)];
  if (view.kind !== 'faq') sections.push(renderFields(view, lang), renderReviews(view, lang));
  if (view.kind === 'application') sections.push(renderCompliance(view, lang));
  if (view.kind === 'faq') sections.push(renderFaq(view, lang));
  return sections;
}

/** @param {SessionView} view @param {UiLanguage} lang */
function renderStatus(view, lang) {
  const b = view.bootstrap;
  const settings = [b.language, b.country, b.timezone].filter(Boolean).join(' · ') || t(lang, 'none');
  return h(
    'section',
    { 'aria-label': t(lang, 'status') },
    h(
      'dl',
      {},
      h('dt', { text: t(lang, 'status') }),
      h('dd', { 'data-testid': 'session-status', text: t(lang, STATUS_KEYS[view.status] ?? 'statusActive') }),
      h('dt', { text: t(lang, 'currentAgent') }),
      h(
        'dd',
        {},
        h('strong', { 'data-testid': 'current-agent', text: view.currentAgent ?? t(lang, 'none') }),
        view.agentTrail.length > 1 ? h('span', { class: 'agent-trail', text: ` (${view.agentTrail.join(' → ')})` }) : null,
      ),
      view.kind === 'faq' ? null : h('dt', { text: t(lang, 'settings') }),
      view.kind === 'faq' ? null : h('dd', { 'data-testid': 'bootstrap', text: settings }),
    ),
  );
}

/** @param {SessionView} view @param {UiLanguage} lang */
function renderFields(view, lang) {
  const p = fieldProgress(view);
  return h(
    'section',
    { 'aria-labelledby': 'fields-title' },
    h('h3', { id: 'fields-title', text: t(lang, 'fields') }),
    h('p', {
      class: 'muted',
      'data-testid': 'field-progress',
      text: t(lang, 'fieldProgress', { done: p.requiredDone, required: p.required }),
    }),
    h('progress', { class: 'progress', max: Math.max(1, p.required), value: p.requiredDone, 'aria-labelledby': 'fields-title' }),
    h(
      'table',
      { 'data-testid': 'fields' },
      h('caption', { class: 'visually-hidden', text: t(lang, 'fields') }),
      h('thead', {}, h('tr', {}, h('th', { scope: 'col', text: t(lang, 'field') }), h('th', { scope: 'col', text: t(lang, 'status') }))),
      h(
        'tbody',
        {},
        view.fields.map((f) =>
          h(
            'tr',
            { 'data-field': f.fieldId },
            h(
              'td',
              {},
              h('span', { lang: langOf(f.label), text: f.label }),
              ' ',
              h('span', { class: 'muted', text: `(${t(lang, f.required ? 'required' : 'optional')})` }),
              f.value !== null ? h('div', { class: 'value', lang: langOf(f.value), 'data-testid': 'field-value', text: f.value }) : null,
            ),
            h(
              'td',
              {},
              h('span', {
                class: `badge ${f.status}`,
                'data-testid': 'field-status',
                text: t(lang, FIELD_STATUS_KEYS[f.status] ?? 'fieldPending'),
              }),
              f.followUps > 0 ? h('div', { class: 'muted', text: t(lang, 'followUps', { n: f.followUps }) }) : null,
              f.needsReview ? h('div', { class: 'muted', 'data-testid': 'needs-review', text: t(lang, 'needsReview') }) : null,
            ),
          ),
        ),
      ),
    ),
  );
}

/** @param {SessionView} view @param {UiLanguage} lang */
function renderReviews(view, lang) {
  const labels = new Map(view.fields.map((f) => [f.fieldId, f.label]));
  const latest = view.reviews.slice(-MAX_REVIEWS).reverse();
  return h(
    'section',
    { 'aria-labelledby': 'reviews-title' },
    h('h3', { id: 'reviews-title', text: t(lang, 'reviews') }),
    listOrNone(lang, 'reviews', latest, (r) => [
      h('span', { class: `badge ${r.passed ? 'ok' : 'warning'}`, text: t(lang, r.passed ? 'passed' : 'notPassed') }),
      ' ',
      h('span', { lang: langOf(labels.get(r.fieldId) ?? ''), text: labels.get(r.fieldId) ?? r.fieldId }),
      r.missingFacts.length > 0
        ? h(
            'div',
            { class: 'muted' },
            `${t(lang, 'missing')}: `,
            h('span', { lang: langOf(r.missingFacts.join()), text: r.missingFacts.join(', ') }),
          )
        : null,
      r.feedback ? h('div', { class: 'muted', lang: langOf(r.feedback), text: r.feedback }) : null,
    ]),
  );
}

/** @param {SessionView} view @param {UiLanguage} lang */
function renderCompliance(view, lang) {
  const passed = view.checks.filter((c) => c.passed).length;
  const violations = view.checks.flatMap((c) => c.violations).slice(-6);
  const audit = view.audit;
  return h(
    'section',
    { 'aria-labelledby': 'compliance-title' },
    h('h3', { id: 'compliance-title', text: t(lang, 'compliance') }),
    h('p', { class: 'muted', 'data-testid': 'checks', text: t(lang, 'checksPassed', { passed, total: view.checks.length }) }),
    violations.length > 0
      ? h(
          'ul',
          {},
          violations.map((v) =>
            h('li', {}, h('span', { class: 'badge warning', text: v.type }), ' ', h('span', { lang: langOf(v.message), text: v.message })),
          ),
        )
      : null,
    h('h3', { id: 'audit-title', text: t(lang, 'audit') }),
    audit === null
      ? h('p', { class: 'muted', text: t(lang, 'auditPending') })
      : h(
          'div',
          { 'data-testid': 'audit' },
          h('span', { class: `badge ${audit.passed ? 'ok' : 'bad'}`, text: t(lang, audit.passed ? 'passed' : 'notPassed') }),
          ' ',
          h('span', { lang: langOf(audit.summary), text: audit.summary }),
          audit.violations.length > 0
            ? h(
                'ul',
                {},
                audit.violations.map((v) =>
                  h(
                    'li',
                    {},
                    h('span', { class: `badge ${v.severity}`, text: `${v.severity} · ${v.type}` }),
                    ' ',
                    h('span', { lang: langOf(v.message), text: v.message }),
                  ),
                ),
              )
            : null,
        ),
  );
}

/** @param {SessionView} view @param {UiLanguage} lang */
function renderFaq(view, lang) {
  const plan = view.plan;
  const planner = /** @type {any} */ (plan?.raw)?.planner;
  const sources = answerSources(view);
  return h(
    'section',
    { 'aria-labelledby': 'plan-title' },
    h('h3', { id: 'plan-title', text: t(lang, 'faqPlan') }),
    plan === null
      ? h('p', { class: 'muted', text: t(lang, 'none') })
      : h(
          'div',
          { 'data-testid': 'plan' },
          h('p', {
            class: 'muted',
            text: `${typeof planner === 'string' ? `${planner} · ` : ''}${t(lang, 'confidence')}: ${plan.confidence ?? '—'}`,
          }),
          h(
            'ol',
            {},
            plan.steps.map((s) => {
              const step = /** @type {any} */ (s);
              const detail = typeof step.query === 'string' ? step.query : (step.description ?? '');
              return h('li', {}, h('span', { class: 'badge', text: step.type }), ' ', h('span', { lang: langOf(detail), text: detail }));
            }),
          ),
        ),
    h('h3', { id: 'hits-title', text: t(lang, 'searchHits') }),
    listOrNone(
      lang,
      'search-hits',
      view.searches.flatMap((s) => s.hits),
      (hit) => [h('span', { lang: langOf(hit.title), text: hit.title }), ' ', h('span', { class: 'muted', text: hit.score.toFixed(2) })],
    ),
    h('h3', { id: 'sources-title', text: t(lang, 'sources') }),
    listOrNone(lang, 'sources', sources, (s) => [
      h('span', { lang: langOf(s.title), text: s.title }),
      ' ',
      h('span', { class: 'muted', text: `[${s.id}]` }),
    ]),
  );
}

/**
 * One `<li>` per item, or a muted dash when there is none.
 * @template T
 * @param {UiLanguage} lang
 * @param {string} testId
 * @param {T[]} items
 * @param {(item: T) => import('./dom.js').Child[]} content
 */
function listOrNone(lang, testId, items, content) {
  if (items.length === 0) return h('p', { class: 'muted', text: t(lang, 'none') });
  return h(
    'ul',
    { 'data-testid': testId },
    items.map((item) => h('li', {}, ...content(item))),
  );
}
