import type { Analyzer } from '../text/analyzer.js';
import { textFeatures } from './features.js';
import type { FuzzyMatcher } from './fuzzy.js';
import type { Concept, Lexicon } from './lexicon.js';
import type { Postings } from './postings.js';

/**
 * A query, analysed into what the engine scores. Each query word becomes a
 * slot: the word itself plus weaker alternatives (typo corrections, concept
 * synonyms). A document scores a slot by its best alternative only, so a
 * document that says both "refund" and "返金" is not paid twice for one idea.
 */

/** Terms a document must all hold (one for a word, several for a phrase synonym such as 代金引換), and their weight. */
export interface Alternative {
  terms: readonly string[];
  weight: number;
}

export interface WordSlot {
  /** The query word (or concept) this slot stands for. */
  label: string;
  alternatives: Alternative[];
  /** The slot's share of the word-channel normaliser. */
  idf: number;
  /** How much the slot counts: 1, less for an aspect word (aspects.ts) or a verb or adjective. */
  weight: number;
}

/** A query word and the synonyms it was expanded to (only those some document holds), for the search event. */
export interface Expansion {
  word: string;
  synonyms: string[];
}

export interface AnalyzedQuery {
  words: WordSlot[];
  expansions: Expansion[];
  /** Distinct n-grams. */
  grams: string[];
  /** Distinct reading tri-grams. */
  readings: string[];
}

export interface QueryExpansion {
  /** Weight of a word one and two edits away from an unknown query word. */
  fuzzyWeights: readonly [number, number];
  /** Weight of a synonym relative to the word that fired it. */
  synonymWeight: number;
  fuzzy: FuzzyMatcher | undefined;
  lexicon: Lexicon | undefined;
  /** Terms of aspect words (の条件, "policy") and the weight their slots get. */
  aspects: { terms: ReadonlySet<string>; weight: number };
  /** Whether noun compounds are words too (see features.ts). */
  compounds: boolean;
  /** Weight of a verb or adjective of the query relative to a noun (see EngineConfig). */
  predicateWeight: number;
}

/** How many corrections one unknown word may expand to. */
const MAX_CORRECTIONS = 3;

export function analyzeQuery(analyzer: Analyzer, text: string, words: Postings, expansion: QueryExpansion): AnalyzedQuery {
  const features = textFeatures(analyzer, text);
  // A compound no document holds adds nothing its parts do not: it is left out rather than counted as unmatched.
  const distinct = [...new Set(expansion.compounds ? [...features.words, ...features.compounds] : features.words)];
  const { lexicon, fuzzy } = expansion;
  const predicates = new Set(features.predicates);

  const conceptsOf = (w: string): readonly Concept[] => (lexicon && expansion.synonymWeight > 0 ? lexicon.conceptsOf(w) : []);
  const known = (terms: readonly string[]) => terms.every((t) => words.df(t) > 0);

  // Unknown words (no document holds them, nor any synonym of them) get typo corrections.
  const corrections = new Map<string, Alternative[]>();
  for (const w of distinct) {
    if (words.df(w) > 0 || !fuzzy || conceptsOf(w).some((c) => c.members.some((m) => known(m.words)))) continue;
    const near = fuzzy.near(w, MAX_CORRECTIONS).map((m) => ({ terms: [m.word], weight: expansion.fuzzyWeights[m.edits - 1] ?? 0 }));
    corrections.set(w, near.filter((a) => a.weight > 0));
  }

  const expansions: Expansion[] = [];
  const slots: WordSlot[] = distinct.map((w) => {
    const alternatives: Alternative[] = [];
    if (words.df(w) > 0) alternatives.push({ terms: [w], weight: 1 });
    alternatives.push(...(corrections.get(w) ?? []));
    // A word no document uses can only be honoured through its synonyms: they weigh more then.
    const synonymWeight = words.df(w) > 0 ? expansion.synonymWeight : Math.sqrt(expansion.synonymWeight);
    const fired = conceptsOf(w);
    for (const c of fired) alternatives.push(...synonyms(c, synonymWeight));
    const weight = (expansion.aspects.terms.has(w) ? expansion.aspects.weight : 1) * (predicates.has(w) ? expansion.predicateWeight : 1);
    const kept = strongest(alternatives, words);
    const used = fired.flatMap((c) => c.members.filter((m) => known(m.words)).map((m) => m.written));
    if (used.length > 0) expansions.push({ word: w, synonyms: [...new Set(used)] });
    return { label: w, alternatives: kept, idf: words.idf(w), weight };
  });

  return {
    words: slots,
    expansions,
    grams: [...new Set(features.grams)],
    readings: [...new Set(features.readings)],
  };
}

function synonyms(concept: Concept, weight: number): Alternative[] {
  return concept.members.map((m) => ({ terms: m.words, weight }));
}

export function meanIdf(terms: readonly string[], words: Postings): number {
  return terms.reduce((sum, t) => sum + words.idf(t), 0) / Math.max(1, terms.length);
}

/** One alternative per term list, at its highest weight, and only those some document could hold. */
function strongest(alternatives: Alternative[], words: Postings): Alternative[] {
  const byKey = new Map<string, Alternative>();
  for (const a of alternatives) {
    const key = a.terms.join(' ');
    if (a.weight > (byKey.get(key)?.weight ?? 0)) byKey.set(key, a);
  }
  return [...byKey.values()].filter((a) => a.terms.every((t) => words.df(t) > 0));
}
