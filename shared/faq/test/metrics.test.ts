import { describe, expect, it } from 'vitest';
import {
  countRelevant,
  dcgAtK,
  idealDcgAtK,
  mean,
  meanScores,
  ndcgAtK,
  recallAtK,
  reciprocalRank,
  scoreQuery,
  topKDistinct,
} from '@convo/faq';

// One worked example used throughout: a and c are answers (2), b is partial (1).
const labels = { a: 2, b: 1, c: 2 };
const ranked = ['a', 'x', 'b', 'y', 'c'];

describe('topKDistinct', () => {
  it('cuts at k and keeps only the first occurrence of an id', () => {
    expect(topKDistinct(['x', 'x', 'a', 'b'], 2)).toEqual(['x', 'a']);
    expect(topKDistinct(['a'], 10)).toEqual(['a']);
    expect(topKDistinct(['a', 'b'], 0)).toEqual([]);
  });
  it('rejects a negative or fractional k', () => {
    expect(() => topKDistinct(['a'], -1)).toThrow(RangeError);
    expect(() => topKDistinct(['a'], 1.5)).toThrow(RangeError);
  });
});

describe('recallAtK', () => {
  it('counts relevant (grade >= 1) docs found in the top k', () => {
    // top 3 = a, x, b: found a and b out of {a, b, c}
    expect(recallAtK(ranked, labels, 3)).toBeCloseTo(2 / 3, 12);
    expect(recallAtK(ranked, labels, 5)).toBe(1);
    expect(recallAtK(ranked, labels, 1)).toBeCloseTo(1 / 3, 12);
  });
  it('can count only answers (grade >= 2)', () => {
    // answers are a and c; top 3 has a only
    expect(recallAtK(ranked, labels, 3, 2)).toBe(0.5);
  });
  it('ignores grade-0 labels and does not double-count duplicates', () => {
    expect(countRelevant({ a: 0, b: 2 })).toBe(1);
    expect(recallAtK(['a', 'a', 'b'], { a: 0, b: 2 }, 3)).toBe(1);
    expect(recallAtK(['b', 'b', 'b'], { a: 1, b: 1 }, 3)).toBe(0.5);
  });
  it('is NaN for a query without relevant labels', () => {
    expect(recallAtK(['a'], {}, 10)).toBeNaN();
    expect(recallAtK(['a'], { a: 0 }, 10)).toBeNaN();
  });
});

describe('dcgAtK / idealDcgAtK / ndcgAtK', () => {
  it('DCG@3 = 2/log2(2) + 0/log2(3) + 1/log2(4) = 2.5', () => {
    expect(dcgAtK(ranked, labels, 3)).toBeCloseTo(2.5, 12);
  });
  it('DCG@5 adds c at rank 5: 2.5 + 2/log2(6)', () => {
    expect(dcgAtK(ranked, labels, 5)).toBeCloseTo(2.5 + 2 / Math.log2(6), 12);
    expect(dcgAtK(ranked, labels, 5)).toBeCloseTo(3.27371, 5);
  });
  it('ideal DCG sorts the labelled grades (2, 2, 1) and truncates at k', () => {
    expect(idealDcgAtK(labels, 3)).toBeCloseTo(2 + 2 / Math.log2(3) + 1 / 2, 12);
    expect(idealDcgAtK(labels, 3)).toBeCloseTo(3.76186, 5);
    expect(idealDcgAtK(labels, 1)).toBe(2);
    expect(idealDcgAtK(labels, 0)).toBe(0);
  });
  it('nDCG@3 = 2.5 / 3.76186 ≈ 0.664565', () => {
    expect(ndcgAtK(ranked, labels, 3)).toBeCloseTo(0.664565, 6);
  });
  it('is 1 for the ideal ranking and 0 when nothing relevant is retrieved', () => {
    expect(ndcgAtK(['c', 'a', 'b'], labels, 10)).toBeCloseTo(1, 12);
    expect(ndcgAtK(['a', 'c', 'b', 'z'], labels, 3)).toBeCloseTo(1, 12);
    expect(ndcgAtK(['x', 'y'], labels, 10)).toBe(0);
  });
  it('a single partial hit at rank 2 with one answer missed: (1/log2 3) / (2 + 1/log2 3)', () => {
    const grades = { ans: 2, part: 1 };
    const expected = 1 / Math.log2(3) / (2 + 1 / Math.log2(3));
    expect(ndcgAtK(['x', 'part'], grades, 10)).toBeCloseTo(expected, 12);
    expect(ndcgAtK(['x', 'part'], grades, 10)).toBeCloseTo(0.239812, 6);
  });
  it('counts a duplicated id once', () => {
    // distinct top 3 = x, a, b: 2/log2(3) + 1/log2(4)
    expect(dcgAtK(['x', 'x', 'a', 'b'], labels, 3)).toBeCloseTo(2 / Math.log2(3) + 0.5, 12);
  });
  it('is NaN without relevant labels', () => {
    expect(ndcgAtK(['a'], {}, 10)).toBeNaN();
  });
});

describe('reciprocalRank', () => {
  it('is 1/rank of the first result with grade >= 1', () => {
    expect(reciprocalRank(ranked, labels, 10)).toBe(1);
    expect(reciprocalRank(['x', 'b', 'a'], labels, 10)).toBe(0.5);
  });
  it('can require an answer (grade >= 2)', () => {
    expect(reciprocalRank(['x', 'b', 'a'], labels, 10, 2)).toBeCloseTo(1 / 3, 12);
  });
  it('is 0 when the first relevant result is beyond k or absent', () => {
    expect(reciprocalRank(['x', 'y', 'a'], labels, 2)).toBe(0);
    expect(reciprocalRank([], labels, 10)).toBe(0);
  });
  it('uses distinct ranks (a repeated miss does not push the hit down)', () => {
    expect(reciprocalRank(['x', 'x', 'a'], labels, 10)).toBe(0.5);
  });
});

describe('mean / scoreQuery / meanScores', () => {
  it('averages, NaN when empty, refuses NaN members', () => {
    expect(mean([1, 0, 0.5])).toBe(0.5);
    expect(mean([])).toBeNaN();
    expect(() => mean([1, NaN])).toThrow(RangeError);
  });
  it('macro-averages two queries by hand', () => {
    // q1: ranked a,x,b,y,c (k=3): recall 2/3, nDCG 2.5/3.76186 = 0.664565, RR 1
    // q2: ranked x,y,z (k=3), one answer: recall 0, nDCG 0, RR 0
    const s1 = scoreQuery(ranked, labels, 3);
    const s2 = scoreQuery(['x', 'y', 'z'], { a: 2 }, 3);
    expect(s1).toEqual({ recall: 2 / 3, ndcg: expect.closeTo(0.664565, 6), rr: 1 });
    expect(s2).toEqual({ recall: 0, ndcg: 0, rr: 0 });
    const averages = meanScores([s1, s2]);
    expect(averages.n).toBe(2);
    expect(averages.recall).toBeCloseTo(1 / 3, 12);
    expect(averages.ndcg).toBeCloseTo(0.664565 / 2, 6);
    expect(averages.mrr).toBe(0.5);
  });
});
