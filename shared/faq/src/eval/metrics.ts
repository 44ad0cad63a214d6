/**
 * Ranking metrics for the FAQ retrieval evaluation (`npm run eval:faq`).
 * Pure functions over a ranked list of document ids and graded relevance
 * labels (`{ docId: grade }`, grade 2 = the answer, 1 = partially relevant;
 * a missing id or grade 0 = not relevant).
 *
 * Conventions, so numbers can be checked by hand:
 * - A ranked id that appears again lower in the list counts only once (its first
 *   position); later duplicates score nothing.
 * - "Relevant" means grade >= 1 unless a function says otherwise.
 * - Gains are linear in the grade (gain = grade: 2 or 1), discount is
 *   1 / log2(rank + 1) with ranks starting at 1.
 * - A query with no relevant label has no defined recall / nDCG: those
 *   functions return NaN, and `mean` refuses NaN, so the caller must filter.
 */

export type Qrels = Readonly<Record<string, number>>;

/** The ranking cut to the first `k` distinct ids (first occurrence wins). */
export function topKDistinct(ranked: readonly string[], k: number): string[] {
  if (!Number.isInteger(k) || k < 0) throw new RangeError(`k must be a non-negative integer, got ${k}`);
  const seen = new Set<string>();
  const out: string[] = [];
  for (const id of ranked) {
    if (out.length >= k) break;
    if (seen.has(id)) continue;
    seen.add(id);
    out.push(id);
  }
  return out;
}

function grade(relevant: Qrels, id: string): number {
  const relevance = relevant[id];
  return relevance !== undefined && Number.isFinite(relevance) && relevance > 0 ? relevance : 0;
}

/** Number of labelled documents with grade >= `minGrade`. */
export function countRelevant(relevant: Qrels, minGrade = 1): number {
  return Object.keys(relevant).filter((id) => grade(relevant, id) >= minGrade).length;
}

/**
 * Recall@k: the share of relevant documents (grade >= `minGrade`) found in the
 * first k distinct results. NaN when the query has none.
 */
export function recallAtK(ranked: readonly string[], relevant: Qrels, k: number, minGrade = 1): number {
  const total = countRelevant(relevant, minGrade);
  if (total === 0) return NaN;
  const found = topKDistinct(ranked, k).filter((id) => grade(relevant, id) >= minGrade).length;
  return found / total;
}

/** DCG@k = sum over ranks r = 1..k of grade(doc at r) / log2(r + 1). */
export function dcgAtK(ranked: readonly string[], relevant: Qrels, k: number): number {
  return topKDistinct(ranked, k).reduce((sum, id, i) => sum + grade(relevant, id) / Math.log2(i + 2), 0);
}

/** The DCG@k of the best possible ranking: the labelled grades, highest first. */
export function idealDcgAtK(relevant: Qrels, k: number): number {
  if (!Number.isInteger(k) || k < 0) throw new RangeError(`k must be a non-negative integer, got ${k}`);
  const grades = Object.keys(relevant)
    .map((id) => grade(relevant, id))
    .filter((relevance) => relevance > 0)
    .sort((a, b) => b - a)
    .slice(0, k);
  return grades.reduce((sum, relevance, i) => sum + relevance / Math.log2(i + 2), 0);
}

/** nDCG@k = DCG@k / ideal DCG@k, in [0, 1]. NaN when the query has no relevant label. */
export function ndcgAtK(ranked: readonly string[], relevant: Qrels, k: number): number {
  const ideal = idealDcgAtK(relevant, k);
  if (ideal === 0) return NaN;
  return dcgAtK(ranked, relevant, k) / ideal;
}

/**
 * Reciprocal rank: 1 / rank of the first of the first k distinct results whose
 * grade is >= `minGrade`, 0 when there is none. MRR is its mean over queries.
 */
export function reciprocalRank(ranked: readonly string[], relevant: Qrels, k: number, minGrade = 1): number {
  const firstHit = topKDistinct(ranked, k).findIndex((id) => grade(relevant, id) >= minGrade);
  return firstHit < 0 ? 0 : 1 / (firstHit + 1);
}

/** Arithmetic mean; NaN for an empty list. Throws on a NaN member (filter first). */
export function mean(values: readonly number[]): number {
  if (values.length === 0) return NaN;
  let sum = 0;
  for (const value of values) {
    if (Number.isNaN(value)) throw new RangeError('mean() got NaN: a query without relevant labels was not filtered out');
    sum += value;
  }
  return sum / values.length;
}

export interface QueryScores {
  recall: number;
  ndcg: number;
  /** Reciprocal rank of the first result with grade >= 1. */
  rr: number;
}

/** Recall@k, nDCG@k and the reciprocal rank (grade >= 1) of one query. */
export function scoreQuery(ranked: readonly string[], relevant: Qrels, k: number): QueryScores {
  return {
    recall: recallAtK(ranked, relevant, k),
    ndcg: ndcgAtK(ranked, relevant, k),
    rr: reciprocalRank(ranked, relevant, k),
  };
}

export interface MeanScores {
  n: number;
  recall: number;
  ndcg: number;
  mrr: number;
}

/** Macro-average of per-query scores (each query weighs the same). */
export function meanScores(scores: readonly QueryScores[]): MeanScores {
  return {
    n: scores.length,
    recall: mean(scores.map((score) => score.recall)),
    ndcg: mean(scores.map((score) => score.ndcg)),
    mrr: mean(scores.map((score) => score.rr)),
  };
}
