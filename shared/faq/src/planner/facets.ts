import type { SearchHit } from '@convo/contract';
import { normalize, type Analyzer } from '@convo/text';
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
  return hit.tags.filter((tag) => parseFacet(tag) === null);
}

export function closeHits(hits: SearchHit[]): SearchHit[] {
  const best = hits[0]?.score ?? 0;
  if (best <= 0) return [];
  return hits.filter((hit) => hit.score >= best * CLOSE_SCORE_RATIO).slice(0, MAX_CLOSE_HITS);
}

/** Every facet key seen in the hits, with its values in hit order. */
export function facetValues(hits: SearchHit[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const hit of hits) {
    for (const tag of hit.tags) {
      const facet = parseFacet(tag);
      if (!facet) continue;
      const values = out.get(facet.key) ?? [];
      if (!values.includes(facet.value)) values.push(facet.value);
      out.set(facet.key, values);
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
  const trimmed = value.normalize('NFKC').trim();
  if (/^[A-Z]{1,4}$/.test(trimmed)) return new RegExp(`(?<![\\p{L}\\p{N}])${trimmed}(?![\\p{L}\\p{N}])`, 'u').test(raw);
  const normalized = normalize(raw);
  const nv = normalize(trimmed);
  if (/^[\p{Script=Latin}\p{N}\s.'-]+$/u.test(nv)) {
    if (new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(nv)}(?![\\p{L}\\p{N}])`, 'u').test(normalized)) return true;
  } else if (normalized.includes(nv)) {
    return true;
  }
  const textBases = new Set(analyzer.contentTerms(normalized));
  return analyzer.contentTerms(nv).some((base) => textBases.has(base));
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
    const carriers = close.filter((hit) => hit.tags.some((tag) => parseFacet(tag)?.key === key));
    if (values.length < 2 || carriers.length * 2 < close.length) continue;
    if ((everywhere.get(key) ?? []).some(isMentioned)) continue;
    return { key, values };
  }
  return null;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
