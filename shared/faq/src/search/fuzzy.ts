import { distance } from 'fastest-levenshtein';

/**
 * Typo tolerance for query words the index has never seen ("shiping",
 * "refnd", "recieve"): the known words within a few edits, by Levenshtein
 * distance. Only Latin words and katakana loanwords qualify; kanji words and
 * numbers do not (one kanji apart is another word, 500 is not 800).
 */

const LATIN = /^[a-z]+$/;
const KATAKANA = /^[\u30a1-\u30fa\u30fc]+$/;

/**
 * Edits allowed for a word of this length. Latin: none under 4 letters (too
 * many real words are one letter apart), 1 up to 5, 2 from 6 (a swapped
 * pair, recieve/receive, is two Levenshtein edits). Katakana: 1 from 4, since
 * one kana is a whole syllable.
 */
export function maxEdits(word: string): number {
  if (LATIN.test(word)) return word.length < 4 ? 0 : word.length < 6 ? 1 : 2;
  if (KATAKANA.test(word)) return word.length < 4 ? 0 : 1;
  return 0;
}

export interface FuzzyMatch {
  word: string;
  edits: number;
}

export interface FuzzyMatcher {
  /** Up to `limit` known words near `word`, fewest edits first. */
  near(word: string, limit: number): FuzzyMatch[];
}

export function createFuzzyMatcher(words: Iterable<string>): FuzzyMatcher {
  // Bucketed by length: a word k edits away differs in length by at most k.
  const byLength = new Map<number, string[]>();
  for (const word of words) {
    if (!LATIN.test(word) && !KATAKANA.test(word)) continue;
    const bucket = byLength.get(word.length) ?? [];
    bucket.push(word);
    byLength.set(word.length, bucket);
  }
  const cache = new Map<string, FuzzyMatch[]>();

  const near = (word: string, limit: number): FuzzyMatch[] => {
    const key = `${limit}\u0000${word}`;
    const hit = cache.get(key);
    if (hit) return hit;
    const max = maxEdits(word);
    const latin = LATIN.test(word);
    const found: (FuzzyMatch & { firstSame: boolean })[] = [];
    for (let len = word.length - max; max > 0 && len <= word.length + max; len++) {
      for (const candidate of byLength.get(len) ?? []) {
        if (candidate === word || LATIN.test(candidate) !== latin) continue;
        const edits = distance(word, candidate);
        if (edits <= max) found.push({ word: candidate, edits, firstSame: candidate[0] === word[0] });
      }
    }
    // Typos rarely hit the first letter, so at equal distance those candidates go first.
    found.sort((a, b) => a.edits - b.edits || Number(b.firstSame) - Number(a.firstSame) || (a.word < b.word ? -1 : 1));
    const result = found.slice(0, limit).map(({ word: candidate, edits }) => ({ word: candidate, edits }));
    if (cache.size > 10_000) cache.clear();
    cache.set(key, result);
    return result;
  };

  return { near };
}
