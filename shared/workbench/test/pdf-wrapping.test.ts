import { describe, expect, it } from 'vitest';
import { wrappable } from '@convo/workbench/internal/pdf';

/**
 * A worksheet's long unbreakable runs get invisible break opportunities before
 * layout (pdfkit re-measured the rest of an over-long word for every line: an
 * 8,000-character run took 40 s); ordinary text is left as it is.
 */
describe('wrappable', () => {
  it('leaves ordinary text alone: words, Japanese sentences, short runs', () => {
    for (const text of [
      'Convert 2.75 L to mL.',
      '次の計算をしなさい。答えは既約分数で答えなさい。'.repeat(3),
      'x'.repeat(48),
      'https://example.com/a/b',
    ])
      expect(wrappable(text)).toBe(text);
  });

  it('puts a zero-width space into runs the line-breaking rules cannot break, at most 48 characters apart', () => {
    for (const run of ['0'.repeat(8000), 'ー'.repeat(8000), '。'.repeat(500), 'a'.repeat(100)]) {
      const out = wrappable(run);
      expect(out.replaceAll('\u200B', '')).toBe(run);
      expect(Math.max(...out.split('\u200B').map((piece) => piece.length))).toBeLessThanOrEqual(48);
    }
  });

  it('never splits a surrogate pair', () => {
    const out = wrappable('𝐀'.repeat(100));
    expect(out).toContain('\u200B');
    for (const piece of out.split('\u200B')) expect(piece).toMatch(/^(?:𝐀)+$/u);
  });
});
