import nlp from 'compromise';
import { describe, expect, it } from 'vitest';
import { numbersWithOffsets } from '@convo/forms/internal/nlu/numbers';

type Match = {
  text: string;
  offset?: { start: number; length: number };
  terms: Array<{ text: string; offset?: { start: number; length: number } }>;
};
// What the callers read of an offset: its start and length (compromise also gives a term index, which none reads).
const shape = (matches: Match[]) =>
  matches.map((match) => ({
    text: match.text,
    offset: match.offset && [match.offset.start, match.offset.length],
    terms: match.terms.map((term) => [term.text, term.offset?.start, term.offset?.length]),
  }));

describe('numbersWithOffsets', () => {
  it.each([
    'I have 2 cats and 3 dogs, 猫が2匹います。',
    'two and a half hours, then five thirty. Twenty-one guests, $40 each.',
    'first, 3rd, a dozen, zero, 1,200 and nought',
    'no numbers here',
  ])('gives what compromise gives with its own offsets: %s', (text) => {
    const own = nlp(text).numbers().json({ offset: true }) as Match[];
    const doc = nlp(text);
    expect(shape(numbersWithOffsets<Match>(doc, doc.numbers()))).toEqual(shape(own));
  });
});
