import { describe, expect, it } from 'vitest';
import { confidenceFrom, nullModel, nullModelStale, nullQueries } from '@convo/faq/internal/search/confidence';

describe('null queries (the chance level of a corpus)', () => {
  const entries = [
    { language: 'en' as const, words: ['refund', 'card'] },
    { language: 'en' as const, words: ['shipping'] },
    { language: 'en' as const, words: ['password', 'reset'] },
    { language: 'ja' as const, words: ['送料'] },
    { language: 'ja' as const, words: ['返品'] },
    { language: 'en' as const, words: [] },
  ];

  it('takes each word of a query from a different entry of one language', () => {
    const queries = nullQueries(entries, { count: 50, lengths: [2, 3], seed: 1 });
    expect(queries).toHaveLength(50);
    for (const { query, language } of queries) {
      const words = query.split(' ');
      const owners = words.map((word) => entries.findIndex((entry) => entry.words.includes(word)));
      expect(new Set(owners).size).toBe(words.length);
      for (const owner of owners) expect(entries[owner]!.language).toBe(language);
    }
    // Japanese has two entries, so its queries have two words however long they were asked to be.
    expect(queries.filter((q) => q.language === 'ja').every((q) => q.query.split(' ').length === 2)).toBe(true);
  });

  it('is the same draw for the same corpus, and none for a corpus of one entry', () => {
    expect(nullQueries(entries)).toEqual(nullQueries(entries));
    expect(nullQueries([{ language: 'en', words: ['only'] }])).toEqual([]);
  });

  it('keeps the median, and is drawn again when a twentieth of the corpus changed', () => {
    expect(nullModel([0.1, 0.9, 0.5], 3).median).toBe(0.5);
    const model = nullModel([0.5], 100);
    expect(nullModelStale(undefined, 0)).toBe(true);
    expect(nullModelStale(model, 5)).toBe(false);
    expect(nullModelStale(model, 6)).toBe(true);
  });
});

describe('confidenceFrom', () => {
  const base = { score: 1, chance: 1, coverage: 1, words: 3, unknown: 0, english: true };

  it('is a probability that grows with each piece of evidence', () => {
    const p = confidenceFrom(base);
    expect(p).toBeGreaterThan(0);
    expect(p).toBeLessThan(1);
    expect(confidenceFrom({ ...base, score: 2 })).toBeGreaterThan(p);
    expect(confidenceFrom({ ...base, coverage: 0.2 })).toBeLessThan(p);
    // The same score means less in a corpus where chance scores more.
    expect(confidenceFrom({ ...base, chance: 2 })).toBeLessThan(p);
    // Words no document holds in any form lower it in English only.
    expect(confidenceFrom({ ...base, unknown: 0.5 })).toBeLessThan(p);
    expect(confidenceFrom({ ...base, unknown: 0.5, english: false })).toBe(confidenceFrom({ ...base, english: false }));
  });

  it('is 0 without a score', () => {
    expect(confidenceFrom({ ...base, score: 0 })).toBe(0);
  });
});
