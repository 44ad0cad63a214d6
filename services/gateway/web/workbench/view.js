// @ts-check
/**
 * Pieces of the workbench page that only build DOM from data: a field's value,
 * the before/after comparison, the quality table. Text always goes in as text.
 */

import { h } from '../lib/dom.js';
import { formatScore, label } from './i18n.js';

/** @typedef {import('./i18n.js').Lang} Lang */
/** @typedef {import('./i18n.js').Key} Key */
/** @typedef {import('./api.js').Problem} Problem */
/** @typedef {import('./api.js').QualityScore} QualityScore */

/** @type {Record<string, Key>} */
const FIELD_LABELS = {
  prompt: 'prompt',
  choices: 'choices',
  explanation: 'explanation',
  modelAnswer: 'modelAnswer',
  correctChoiceIndex: 'correctChoiceIndex',
  rubric: 'rubric',
};

/** The label key of a problem field; unknown fields show as they are named. @param {string} field */
export function fieldLabelKey(field) {
  return FIELD_LABELS[field] ?? null;
}

/**
 * An element showing the label of `field` (a known field's name in the page language).
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag @param {string} field @param {Lang} lang @param {Record<string, string | undefined>} [attrs]
 */
export function fieldLabel(tag, field, lang, attrs = {}) {
  const key = fieldLabelKey(field);
  const el = h(tag, attrs);
  if (key) label(el, lang, key);
  else el.textContent = field;
  return el;
}

/**
 * The choices as a list, the correct one marked in words (not only by color).
 * @param {string[]} choices @param {number | null} correct @param {Lang} lang @param {Lang} contentLang
 */
export function choiceList(choices, correct, lang, contentLang) {
  return h(
    'ol',
    { class: 'choice-list' },
    choices.map((choice, i) =>
      h(
        'li',
        { class: i === correct ? 'correct' : undefined, 'data-correct': i === correct ? 'true' : undefined },
        h('span', { class: 'choice-text', lang: contentLang, text: choice }),
        i === correct ? label(h('span', { class: 'badge ok correct-mark' }), lang, 'correct') : null,
      ),
    ),
  );
}

/**
 * One field's value for display: a choice list, the correct choice by number and text, or text.
 * @param {string} field
 * @param {unknown} value
 * @param {{ choices: string[] | null, correctChoiceIndex: number | null }} context the problem the value belongs to
 * @param {Lang} lang
 * @param {Lang} contentLang
 * @returns {HTMLElement}
 */
export function fieldValue(field, value, context, lang, contentLang) {
  if (field === 'choices' && Array.isArray(value)) {
    return choiceList(value.map(String), context.correctChoiceIndex, lang, contentLang);
  }
  if (field === 'correctChoiceIndex' && typeof value === 'number') {
    const text = context.choices?.[value];
    return h(
      'p',
      { class: 'value' },
      label(h('span'), lang, 'choiceN', { n: value + 1 }),
      text === undefined ? null : h('span', { lang: contentLang, text: `: ${text}` }),
    );
  }
  if (field === 'rubric' && Array.isArray(value)) {
    return h(
      'ul',
      { class: 'rubric', lang: contentLang },
      value.map((item) => h('li', { text: String(item) })),
    );
  }
  return h('p', { class: 'value', lang: contentLang, text: value === null || value === undefined ? '—' : String(value) });
}

/**
 * Changed sections side by side: one row per field, before on the left, after on the right.
 * @param {Array<{ field: string, before: unknown, after: unknown, beforeContext: Problem, afterContext: Problem }>} rows
 * @param {Lang} lang
 * @param {Lang} contentLang
 * @param {string} idPrefix
 */
export function comparison(rows, lang, contentLang, idPrefix) {
  return h(
    'div',
    { class: 'comparison', 'data-testid': 'comparison' },
    rows.map((row, i) => {
      const titleId = `${idPrefix}-cmp-${i}`;
      return h(
        'div',
        { class: 'compare-row', role: 'group', 'aria-labelledby': titleId, 'data-field': row.field },
        fieldLabel('h5', row.field, lang, { id: titleId }),
        h(
          'div',
          { class: 'compare-cols' },
          h(
            'div',
            { class: 'compare-col before', 'data-testid': 'before' },
            label(h('p', { class: 'compare-label' }), lang, 'before'),
            fieldValue(row.field, row.before, row.beforeContext, lang, contentLang),
          ),
          h(
            'div',
            { class: 'compare-col after', 'data-testid': 'after' },
            label(h('p', { class: 'compare-label' }), lang, 'after'),
            fieldValue(row.field, row.after, row.afterContext, lang, contentLang),
          ),
        ),
      );
    }),
  );
}

/** @type {Array<[keyof QualityScore['metrics'], Key]>} */
const METRICS = [
  ['clarity', 'metricClarity'],
  ['difficulty', 'metricDifficulty'],
  ['educationalValue', 'metricEducationalValue'],
  ['consistency', 'metricConsistency'],
];

/** @param {number} before @param {number} after */
function trend(before, after) {
  const delta = Math.round((after - before) * 100);
  return delta > 0 ? 'up' : delta < 0 ? 'down' : 'same';
}

/**
 * The quality score before → after, and the four metrics in a table.
 * @param {QualityScore} before @param {QualityScore} after @param {Lang} lang @param {string} idPrefix
 */
export function qualityComparison(before, after, lang, idPrefix) {
  return h(
    'div',
    { class: 'quality' },
    label(
      h('p', { class: `quality-overall trend-${trend(before.overallScore, after.overallScore)}`, 'data-testid': 'quality' }),
      lang,
      'qualityChange',
      { before: formatScore(before.overallScore), after: formatScore(after.overallScore) },
    ),
    h(
      'table',
      { class: 'metrics', id: `${idPrefix}-metrics` },
      label(h('caption', { class: 'visually-hidden' }), lang, 'quality'),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          label(h('th', { scope: 'col' }), lang, 'metric'),
          label(h('th', { scope: 'col' }), lang, 'before'),
          label(h('th', { scope: 'col' }), lang, 'after'),
        ),
      ),
      h(
        'tbody',
        {},
        METRICS.map(([metric, key]) =>
          h(
            'tr',
            { 'data-metric': metric },
            label(h('th', { scope: 'row' }), lang, key),
            h('td', { text: formatScore(before.metrics[metric]) }),
            h('td', { class: `trend-${trend(before.metrics[metric], after.metrics[metric])}`, text: formatScore(after.metrics[metric]) }),
          ),
        ),
      ),
    ),
  );
}
