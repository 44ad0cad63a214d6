// @ts-check
/** A few lines of DOM building; text always goes in as text, never as HTML. */

/**
 * @typedef {string | number | Node | null | undefined | false} Child
 */

/**
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, string | boolean | number | undefined | null>} [attrs] `class`, `text`, aria-*, data-* and properties
 * @param {...(Child | Child[])} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === 'class') el.className = String(value);
    else if (name === 'text') el.textContent = String(value);
    else if (name.startsWith('aria-') || name.startsWith('data-') || name === 'role' || name === 'lang' || name === 'for') {
      el.setAttribute(name, String(value));
    } else if (value === true) el.setAttribute(name, '');
    else el.setAttribute(name, String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/**
 * Japanese text gets `lang="ja"` so the browser picks Japanese glyph forms and line breaking.
 * @param {string} text
 * @returns {'ja' | undefined}
 */
export function langOf(text) {
  return /[\u3040-\u30ff\u3400-\u9fff\uff66-\uff9f]/u.test(text) ? 'ja' : undefined;
}
