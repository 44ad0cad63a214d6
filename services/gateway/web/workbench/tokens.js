// @ts-check
/**
 * A worksheet's tokens in this browser. The gateway answers them once, when
 * the worksheet is created (the edit token changes it, the share token reads
 * it); the page keeps them in localStorage under a key per worksheet id, so a
 * reload opens the same worksheet while the address carries only its id.
 *
 * A share link carries its token in the URL fragment (`#share=<token>`): a
 * fragment is never sent to a server, so it is not in any access log or
 * Referer; the page takes it once and removes it from the address.
 */

/** @typedef {{ editToken?: string, shareToken?: string }} WorksheetTokens */
/** What the tokens held allow: `edit` (the edit token) or `read` (the share token only). */
/** @typedef {'edit' | 'read'} Access */

const PREFIX = 'convo.workbench.tokens.';
const SHARE_PARAM = 'share';

/** Where the tokens stay when the browser keeps no localStorage (blocked or full): this page's life only. */
const inMemory = new Map();

/** @returns {Storage | null} */
function storage() {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/**
 * The tokens this browser holds for the worksheet (none: `{}`).
 * @param {string} worksheetId
 * @returns {WorksheetTokens}
 */
export function loadTokens(worksheetId) {
  let raw = inMemory.get(worksheetId) ?? null;
  try {
    raw = storage()?.getItem(PREFIX + worksheetId) ?? raw;
  } catch {
    // Unreadable storage: what this page kept in memory.
  }
  if (typeof raw !== 'string') return {};
  try {
    const parsed = /** @type {unknown} */ (JSON.parse(raw));
    if (typeof parsed !== 'object' || parsed === null) return {};
    const { editToken, shareToken } = /** @type {Record<string, unknown>} */ (parsed);
    return {
      ...(typeof editToken === 'string' && editToken !== '' ? { editToken } : {}),
      ...(typeof shareToken === 'string' && shareToken !== '' ? { shareToken } : {}),
    };
  } catch {
    return {};
  }
}

/**
 * Adds `tokens` to what is kept for the worksheet (a share token received later keeps the edit token).
 * @param {string} worksheetId
 * @param {WorksheetTokens} tokens
 * @returns {WorksheetTokens} all the worksheet's tokens now
 */
export function saveTokens(worksheetId, tokens) {
  const merged = { ...loadTokens(worksheetId), ...tokens };
  const raw = JSON.stringify(merged);
  inMemory.set(worksheetId, raw);
  try {
    storage()?.setItem(PREFIX + worksheetId, raw);
  } catch {
    // Storage refused (quota, privacy mode): the page keeps them in memory until it is closed.
  }
  return merged;
}

/** Forgets the worksheet's tokens (deleted, or gone from the server). @param {string} worksheetId */
export function forgetTokens(worksheetId) {
  inMemory.delete(worksheetId);
  try {
    storage()?.removeItem(PREFIX + worksheetId);
  } catch {
    // Nothing kept there.
  }
}

/** @param {WorksheetTokens} tokens @returns {{ token: string, access: Access } | null} the token calls use: the edit token when held */
export function tokenFor(tokens) {
  if (tokens.editToken) return { token: tokens.editToken, access: 'edit' };
  if (tokens.shareToken) return { token: tokens.shareToken, access: 'read' };
  return null;
}

/**
 * The share token of the address's fragment (`#share=<token>`), if any; the
 * fragment is removed from the visible address either way it is found.
 * @returns {string | null}
 */
export function takeShareFragment() {
  const hash = location.hash.replace(/^#/, '');
  if (hash === '') return null;
  const params = new URLSearchParams(hash);
  if (!params.has(SHARE_PARAM)) return null;
  const token = params.get(SHARE_PARAM) ?? '';
  params.delete(SHARE_PARAM);
  const rest = params.toString();
  history.replaceState(history.state, '', `${location.pathname}${location.search}${rest === '' ? '' : `#${rest}`}`);
  return token === '' ? null : token;
}

/**
 * The read-only link of a worksheet: its id in the query, the share token in the fragment.
 * @param {string} worksheetId
 * @param {string} shareToken
 */
export function shareLink(worksheetId, shareToken) {
  const url = new URL('workbench', location.href);
  url.search = new URLSearchParams({ worksheet: worksheetId }).toString();
  url.hash = new URLSearchParams({ [SHARE_PARAM]: shareToken }).toString();
  return url.href;
}
