import { foldKana, type Analyzer } from '@convo/text';
import type { SynonymSource } from './synonyms.js';

/**
 * Query expansion by synonyms (see synonyms.ts for where they come from). A
 * query word fires the synonym groups it belongs to; each group's members are
 * run through the same analysis as documents the first time a query fires it,
 * and become weaker alternatives of the word's slot (query.ts), so a document
 * that says the word itself is not outscored by one that says a synonym.
 */
export interface Concept {
  /** What a fired group expands the query to: each other member as written (for the search event) and as its words (a phrase needs all). */
  members: readonly { written: string; words: readonly string[] }[];
}

export interface Lexicon {
  /** The concepts a query word (an analysed term) fires. */
  conceptsOf(word: string): readonly Concept[];
}

/** A lexicon over `source`, each word's concepts analysed once and kept (the dictionaries are large; queries reuse words). */
export function compileLexicon(analyzer: Analyzer, source: SynonymSource): Lexicon {
  const cache = new Map<string, readonly Concept[]>();
  return {
    conceptsOf(word) {
      const hit = cache.get(word);
      if (hit) return hit;
      const concepts = source.groupsOf(word).map((group) => ({
        members: group
          .map((written) => ({ written, words: memberWords(analyzer, written) }))
          .filter(
            (m): m is { written: string; words: string[] } => m.words !== undefined && !(m.words.length === 1 && m.words[0] === word),
          ),
      }));
      if (cache.size > 50_000) cache.clear();
      cache.set(word, concepts);
      return concepts;
    },
  };
}

/**
 * A member's content words, as documents are analysed, or undefined when it
 * is no usable target: one whose first or last token carries no meaning would
 * shrink to a word it does not mean on its own ("sign up" → sign). Function
 * words inside are fine ("give back", "call off"). A Japanese compound shrunk
 * only by a prefix or suffix (領収書 → 領収, お届け → 届け) is still a target:
 * documents shrink the same way.
 */
function memberWords(analyzer: Analyzer, member: string): string[] | undefined {
  const tokens = analyzer.tokens(member).filter((t) => t.pos !== '記号');
  const words = [...new Set(tokens.filter((t) => t.content).map((t) => foldKana(t.base)))];
  if (words.length === 0) return undefined;
  if (tokens[0]!.content && tokens.at(-1)!.content) return words;
  const affixOnly = tokens.every((t) => t.content || t.pos === '接頭詞' || t.posDetail === '接尾' || /^[おご御]$/.test(t.surface));
  return affixOnly ? words : undefined;
}
