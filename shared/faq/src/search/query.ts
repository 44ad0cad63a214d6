import { checkTextBudget, type Analyzer } from '@convo/text';
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

  const conceptsOf = (word: string): readonly Concept[] => (lexicon && expansion.synonymWeight > 0 ? lexicon.conceptsOf(word) : []);
  const known = (terms: readonly string[]) => terms.every((term) => words.df(term) > 0);

  // Unknown words (no document holds them, nor any synonym of them) get typo corrections.
  const corrections = new Map<string, Alternative[]>();
  for (const word of distinct) {
    checkTextBudget();
    if (words.df(word) > 0 || !fuzzy || conceptsOf(word).some((concept) => concept.members.some((member) => known(member.words)))) continue;
    const near = fuzzy
      .near(word, MAX_CORRECTIONS)
      .map((match) => ({ terms: [match.word], weight: expansion.fuzzyWeights[match.edits - 1] ?? 0 }));
    corrections.set(
      word,
      near.filter((alternative) => alternative.weight > 0),
    );
  }

  const expansions: Expansion[] = [];
  const slots: WordSlot[] = distinct.map((word) => {
    checkTextBudget();
    const alternatives: Alternative[] = [];
    if (words.df(word) > 0) alternatives.push({ terms: [word], weight: 1 });
    alternatives.push(...(corrections.get(word) ?? []));
    // A word no document uses can only be honoured through its synonyms: they weigh more then.
    const synonymWeight = words.df(word) > 0 ? expansion.synonymWeight : Math.sqrt(expansion.synonymWeight);
    const fired = conceptsOf(word);
    for (const concept of fired) alternatives.push(...synonyms(concept, synonymWeight));
    const weight =
      (expansion.aspects.terms.has(word) ? expansion.aspects.weight : 1) * (predicates.has(word) ? expansion.predicateWeight : 1);
    const kept = strongest(alternatives, words);
    const used = fired.flatMap((concept) => concept.members.filter((member) => known(member.words)).map((member) => member.written));
    if (used.length > 0) expansions.push({ word: word, synonyms: [...new Set(used)] });
    return { label: word, alternatives: kept, idf: words.idf(word), weight };
  });

  return {
    words: slots,
    expansions,
    grams: [...new Set(features.grams)],
    readings: [...new Set(features.readings)],
  };
}

function synonyms(concept: Concept, weight: number): Alternative[] {
  return concept.members.map((member) => ({ terms: member.words, weight }));
}

export function meanIdf(terms: readonly string[], words: Postings): number {
  return terms.reduce((sum, term) => sum + words.idf(term), 0) / Math.max(1, terms.length);
}

/** One alternative per term list, at its highest weight, and only those some document could hold. */
function strongest(alternatives: Alternative[], words: Postings): Alternative[] {
  const byKey = new Map<string, Alternative>();
  for (const alternative of alternatives) {
    const key = alternative.terms.join(' ');
    if (alternative.weight > (byKey.get(key)?.weight ?? 0)) byKey.set(key, alternative);
  }
  return [...byKey.values()].filter((alternative) => alternative.terms.every((term) => words.df(term) > 0));
}
