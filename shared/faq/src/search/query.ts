import { stemmer } from 'stemmer';
import { checkTextBudget, foldKana, type Analyzer, type Token } from '@convo/text';
import { featuresOfTokens, INTENT_PREFIX } from './features.js';
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
  /** Weight of a question word (where, いつ; see features.ts) relative to a noun; 0 ignores them. */
  intentWeight: number;
  /** Whether a word is a word of its language (a general dictionary's); such a word is never "corrected" into another. */
  isWord?: (word: string) => boolean;
}

/** How many corrections one unknown word may expand to. */
const MAX_CORRECTIONS = 3;

export function analyzeQuery(analyzer: Analyzer, text: string, words: Postings, expansion: QueryExpansion): AnalyzedQuery {
  const tokens = analyzer.tokens(text);
  const features = featuresOfTokens(tokens, text);
  // A compound no document holds adds nothing its parts do not: it is left out rather than counted as unmatched.
  const distinct = [...new Set(expansion.compounds ? [...features.words, ...features.compounds] : features.words)];
  const { lexicon, fuzzy } = expansion;
  const predicates = new Set(features.predicates);

  const conceptsOf = (word: string): readonly Concept[] => (lexicon && expansion.synonymWeight > 0 ? lexicon.conceptsOf(word) : []);
  const known = (terms: readonly string[]) => terms.every((term) => words.df(term) > 0);

  // Unknown words (no document holds them, nor any synonym of them) get typo corrections, unless they are words
  // of the language: "bake" asks about baking, not about "take", however close the spelling.
  const corrections = new Map<string, Alternative[]>();
  for (const word of distinct) {
    checkTextBudget();
    if (words.df(word) > 0 || !fuzzy || expansion.isWord?.(word)) continue;
    if (conceptsOf(word).some((concept) => concept.members.some((member) => known(member.words)))) continue;
    const near = fuzzy
      .near(word, MAX_CORRECTIONS)
      .map((match) => ({ terms: [match.word], weight: expansion.fuzzyWeights[match.edits - 1] ?? 0 }));
    corrections.set(
      word,
      near.filter((alternative) => alternative.weight > 0),
    );
  }

  const spellings = otherSpellings(tokens, words);
  const expansions: Expansion[] = [];
  const slots: WordSlot[] = distinct.map((word) => {
    checkTextBudget();
    const alternatives: Alternative[] = [];
    if (words.df(word) > 0) alternatives.push({ terms: [word], weight: 1 });
    alternatives.push(...(spellings.get(word) ?? []));
    alternatives.push(...(corrections.get(word) ?? []));
    // A word no document uses can only be honoured through its synonyms: they weigh more then.
    const synonymWeight = words.df(word) > 0 ? expansion.synonymWeight : Math.sqrt(expansion.synonymWeight);
    const fired = conceptsOf(word);
    for (const concept of fired) alternatives.push(...synonyms(concept, synonymWeight));
    const weight = word.startsWith(INTENT_PREFIX)
      ? expansion.intentWeight
      : (expansion.aspects.terms.has(word) ? expansion.aspects.weight : 1) * (predicates.has(word) ? expansion.predicateWeight : 1);
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

/** The shortest part a word written together is split into ("lostproperty" → lost + property; not "a" + …). */
const MIN_PART = 3;
/** The longest word tried as two written together: longer than any two words, and a hostile 16,000-letter "word" is not split 16,000 ways. */
const MAX_SPLIT_LENGTH = 32;

/**
 * Words as users write them, where the corpus writes them the other way: a
 * compound written apart or hyphenated ("push chair", "e-mail", "top up")
 * that the corpus writes as one word, and one written together
 * ("lostproperty", "daypass") that the corpus writes as two. Learned from the
 * corpus's own vocabulary, not a list: two adjacent Latin words of the query
 * whose join is a corpus word give that word as an alternative to each; an
 * unknown word that splits into two corpus words gives the pair, as a phrase.
 * Japanese compounds are IPADIC's and the n-grams' (features.ts).
 */
function otherSpellings(tokens: readonly Token[], words: Postings): Map<string, Alternative[]> {
  const found = new Map<string, Alternative[]>();
  const add = (word: string, alternative: Alternative) => found.set(word, [...(found.get(word) ?? []), alternative]);
  // The analyzer's own base for an English word (its surface is already normalised and lower-case).
  const stem = (surface: string) => stemmer(surface);
  const latin = tokens.filter((token) => token.script === 'latin');
  for (let i = 0; i + 1 < latin.length; i++) {
    checkTextBudget();
    const [first, second] = [latin[i]!, latin[i + 1]!];
    const joined = stem(first.surface + second.surface);
    if (words.df(joined) === 0 || joined === first.base || joined === second.base) continue;
    for (const part of [first, second]) if (part.content) add(foldKana(part.base), { terms: [joined], weight: 1 });
  }
  for (const token of latin) {
    checkTextBudget();
    const length = token.surface.length;
    if (!token.content || words.df(token.base) > 0 || length < 2 * MIN_PART || length > MAX_SPLIT_LENGTH) continue;
    // The split whose rarer part is commonest in the corpus: "daypass" → day + pass rather than a rare fragment.
    let best: { terms: string[]; df: number } | undefined;
    for (let cut = MIN_PART; cut <= token.surface.length - MIN_PART; cut++) {
      const terms = [stem(token.surface.slice(0, cut)), stem(token.surface.slice(cut))];
      const df = Math.min(words.df(terms[0]!), words.df(terms[1]!));
      if (df > 0 && (!best || df > best.df)) best = { terms, df };
    }
    if (best) add(token.base, { terms: best.terms, weight: 1 });
  }
  return found;
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
