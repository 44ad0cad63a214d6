import type { SearchHit } from '../../schemas/faq.js';
import { normalize, type Analyzer } from '../text/analyzer.js';
import type { Term } from './terms.js';

/**
 * Facets are tags written `key:value` (地域:北海道, region:Europe). When the
 * hits that answer a question equally well differ only in a facet the user
 * did not name, the answer depends on it: that is what the planner asks about.
 */

/** Hits scoring at least this share of the best one answer the query about as well as it does. */
export const CLOSE_SCORE_RATIO = 0.6;
/** How many of the close hits the rules look at; the rest add noise, not candidates. */
const MAX_CLOSE_HITS = 6;

export type Facet = { key: string; value: string };

export function parseFacet(tag: string): Facet | null {
  const at = tag.indexOf(':');
  if (at <= 0 || at === tag.length - 1) return null;
  return { key: tag.slice(0, at).trim(), value: tag.slice(at + 1).trim() };
}

/** Tags that are not facets: what a hit is about (送料, returns). */
export function topicalTags(hit: SearchHit): string[] {
  return hit.tags.filter((t) => parseFacet(t) === null);
}

export function closeHits(hits: SearchHit[]): SearchHit[] {
  const best = hits[0]?.score ?? 0;
  if (best <= 0) return [];
  return hits.filter((h) => h.score >= best * CLOSE_SCORE_RATIO).slice(0, MAX_CLOSE_HITS);
}

/** Every facet key seen in the hits, with its values in hit order. */
export function facetValues(hits: SearchHit[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const hit of hits) {
    for (const tag of hit.tags) {
      const f = parseFacet(tag);
      if (!f) continue;
      const values = out.get(f.key) ?? [];
      if (!values.includes(f.value)) values.push(f.value);
      out.set(f.key, values);
    }
  }
  return out;
}

/**
 * Whether `text` names a facet value. Short all-capital values (US, EU) are
 * matched case-sensitively as whole words so "tell us" is not the US; a
 * value of several words (沖縄・離島) is named by any of its terms (沖縄).
 */
export function mentionsValue(analyzer: Analyzer, text: string, value: string): boolean {
  const raw = text.normalize('NFKC');
  const v = value.normalize('NFKC').trim();
  if (/^[A-Z]{1,4}$/.test(v)) return new RegExp(`(?<![\\p{L}\\p{N}])${v}(?![\\p{L}\\p{N}])`, 'u').test(raw);
  const t = normalize(raw);
  const nv = normalize(v);
  if (/^[\p{Script=Latin}\p{N}\s.'-]+$/u.test(nv)) {
    if (new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(nv)}(?![\\p{L}\\p{N}])`, 'u').test(t)) return true;
  } else if (t.includes(nv)) {
    return true;
  }
  const textBases = new Set(analyzer.contentTerms(t));
  return analyzer.contentTerms(nv).some((b) => textBases.has(b));
}

/** Whether a term is (part of) a facet value, so it says "where", not "what". */
export function termIsValue(analyzer: Analyzer, term: Term, value: string): boolean {
  return mentionsValue(analyzer, term.text, value);
}

export type FacetAmbiguity = { key: string; values: string[] };

/**
 * The facet the best answers split on, when the query names none of its
 * values. A facet counts only when most close hits carry it: a stray
 * tagged hit among untagged ones does not make the question depend on it.
 */
export function findFacetAmbiguity(hits: SearchHit[], isMentioned: (value: string) => boolean): FacetAmbiguity | null {
  const close = closeHits(hits);
  if (close.length === 0) return null;
  const everywhere = facetValues(hits);
  // Keys in the order the close hits carry them; the best hit need not carry one (a general entry like "free shipping" may rank first).
  for (const [key, values] of facetValues(close)) {
    const carriers = close.filter((h) => h.tags.some((t) => parseFacet(t)?.key === key));
    if (values.length < 2 || carriers.length * 2 < close.length) continue;
    if ((everywhere.get(key) ?? []).some(isMentioned)) continue;
    return { key, values };
  }
  return null;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
