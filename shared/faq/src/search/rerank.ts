import type { AnalyzedQuery } from './query.js';

/**
 * Second stage: features of how well a candidate's *question* answers the
 * query, each in [0, 1]. First-stage BM25F adds evidence up over all fields;
 * these look at the question alone, because an FAQ whose question says what
 * the user asked is the right answer far more often than one whose long
 * answer happens to mention the same words.
 */

export interface QuestionFeatures {
  /** Word terms of the question, in order. */
  words: readonly string[];
  /** Distinct n-grams of the question. */
  gramCount: number;
  /** Whether the question holds this n-gram (looked up in the index rather than stored per document). */
  hasGram(gram: string): boolean;
}

export interface RerankWeights {
  /** idf-weighted share of the query's word slots the question contains. */
  coverage: number;
  /** Dice overlap of query and question n-grams: the question reads like the query. */
  dice: number;
  /** Matched query words close together in the question. */
  proximity: number;
}

export interface RerankFeatures {
  coverage: number;
  dice: number;
  proximity: number;
}

/** Scores candidates' questions against one query; the query side is prepared once. */
export function questionScorer(query: AnalyzedQuery): (question: QuestionFeatures) => RerankFeatures {
  // Term → the query slots it can stand for (a term may serve several slots).
  const slotsOf = new Map<string, number[]>();
  query.words.forEach((slot, index) => {
    for (const alternative of slot.alternatives)
      for (const term of alternative.terms) slotsOf.set(term, [...(slotsOf.get(term) ?? []), index]);
  });
  return (question) => ({
    coverage: coverage(query, question.words),
    dice: dice(query.grams, question),
    proximity: proximity(question.words.map((word) => slotsOf.get(word)?.[0] ?? -1)),
  });
}

export function rerankBonus(features: RerankFeatures, weights: RerankWeights): number {
  return weights.coverage * features.coverage + weights.dice * features.dice + weights.proximity * features.proximity;
}

/** The idf-weighted share of the query's word slots `words` holds, each at its best alternative's weight. */
export function coverage(query: AnalyzedQuery, words: readonly string[]): number {
  let total = 0;
  let covered = 0;
  const present = new Set(words);
  for (const slot of query.words) {
    total += slot.idf * slot.weight;
    let best = 0;
    for (const alternative of slot.alternatives)
      if (alternative.weight > best && alternative.terms.every((term) => present.has(term))) best = alternative.weight;
    covered += best * slot.idf * slot.weight;
  }
  return total > 0 ? covered / total : 0;
}

function dice(queryGrams: readonly string[], question: QuestionFeatures): number {
  if (queryGrams.length === 0 || question.gramCount === 0) return 0;
  let shared = 0;
  for (const gram of queryGrams) if (question.hasGram(gram)) shared++;
  return (2 * shared) / (queryGrams.length + question.gramCount);
}

/**
 * `slotAt[i]` is the query slot the question's i-th word matches, or −1.
 * Matched slots divided by the length of the shortest stretch of the question
 * holding one of each: 1 when they stand side by side, towards 0 when spread
 * out. 0 when fewer than two slots match (nothing to be close to).
 */
function proximity(slotAt: readonly number[]): number {
  const matched = new Set(slotAt.filter((slot) => slot >= 0)).size;
  if (matched < 2) return 0;
  // Sliding window over positions: the shortest window that contains every matched slot.
  const counts = new Map<number, number>();
  let inWindow = 0;
  let shortest = Infinity;
  let left = 0;
  for (let right = 0; right < slotAt.length; right++) {
    const slot = slotAt[right]!;
    if (slot >= 0) {
      counts.set(slot, (counts.get(slot) ?? 0) + 1);
      if (counts.get(slot) === 1) inWindow++;
    }
    while (inWindow === matched) {
      shortest = Math.min(shortest, right - left + 1);
      const leftSlot = slotAt[left]!;
      if (leftSlot >= 0) {
        counts.set(leftSlot, counts.get(leftSlot)! - 1);
        if (counts.get(leftSlot) === 0) inWindow--;
      }
      left++;
    }
  }
  return matched / shortest;
}
