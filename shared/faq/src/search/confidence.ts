import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';

/**
 * How sure the engine is that its best hit answers a query: a probability,
 * calibrated, rather than a raw score.
 *
 * A raw score says how much of the query a document matches, but what counts
 * as a good match depends on the corpus: in a corpus whose long answers share
 * their vocabulary (every entry of a pension office says 年金 and 手続き) any
 * query of the corpus's words matches something well; in a corpus of short
 * answers a half match is already rare. So the engine first asks what a query
 * scores *by chance* in this corpus: it searches null queries made of the
 * corpus's own question words, each word from a different entry, so that no
 * entry was written to answer them, and keeps their median best score. That
 * needs no labelled data, so it is drawn for a new corpus as uploaded.
 *
 * The confidence is then a logistic model of the evidence about the best hit:
 * - its score relative to the corpus's chance level;
 * - the share of the query (its words weighted by idf) the hit's document
 *   holds at all: a query about a thing the corpus never mentions ("can we
 *   hire a tram for our wedding") is matched on its other words only;
 * - the number of query words (a long query's score is spread over more words);
 * - for an English query, the share of it that no document holds in any form
 *   (as written, joined or split, corrected, a synonym): after stemming and
 *   those, an English word the corpus never uses is mostly another subject
 *   ("lasagne", "wifi"). Not for Japanese, whose paraphrases are full of
 *   words a corpus does not use and whose n-grams still match them; fitted
 *   with it, the weight came out without a clear sign.
 * Its weights were fitted once, on the development parts of eleven FAQ sets
 * of both languages and many domains (answerable and out-of-domain questions;
 * a hit is right when it answers the question), and checked by leaving each
 * new set out in turn; they are not fitted per corpus. Over those queries it
 * is calibrated: of the hits given 0.4–0.6, about half were right, of those
 * above 0.8, 93 %. A search whose confidence is below `FAQ_ABSTAIN_BELOW`
 * abstains (docs/products/faq.md, "Answer or abstain").
 */

/** The evidence about one best hit that the confidence is computed from. */
export interface HitEvidence {
  /** The hit's score. */
  score: number;
  /** The corpus's chance level: the median best score of its null queries. */
  chance: number;
  /** Share of the query's idf-weighted words the hit's document holds (as written, a correction or a synonym), in [0, 1]. */
  coverage: number;
  /** Share of the query's idf-weighted words no document holds in any form (not as written, corrected or a synonym). */
  unknown: number;
  /** Whether the query is English (its unknown words count only then, see below). */
  english: boolean;
  /** Content words of the query. */
  words: number;
}

/** The logistic model's weights (see above). */
export const CONFIDENCE_WEIGHTS = { relativeScore: 2.339, coverage: 1.34, logWords: 0.778, unknownEnglish: -1.268, bias: -2.458 } as const;

/** The calibrated probability that the hit answers the query; 0 for no hit. */
export function confidenceFrom(evidence: HitEvidence, weights = CONFIDENCE_WEIGHTS): number {
  if (!(evidence.score > 0)) return 0;
  const relative = evidence.score / (evidence.chance > 0 ? evidence.chance : 1);
  const z =
    weights.bias +
    weights.relativeScore * relative +
    weights.coverage * evidence.coverage +
    weights.logWords * Math.log1p(evidence.words) +
    weights.unknownEnglish * (evidence.english ? evidence.unknown : 0);
  return Math.round((1 / (1 + Math.exp(-z))) * 1000) / 1000;
}

export interface NullModel {
  /** The median best score of the null queries. */
  readonly median: number;
  /** Documents in the corpus when it was built. */
  readonly corpusSize: number;
}

export interface NullQueryOptions {
  /** How many null queries to search. */
  count: number;
  /** Words per null query, each from a different entry (cycled through). */
  lengths: readonly number[];
  /** Seeds the draw, so that every replica computes the same model for the same corpus. */
  seed: number;
}

export const DEFAULT_NULL_QUERIES: NullQueryOptions = { count: 160, lengths: [2, 3, 2, 4], seed: 0x9e3779b9 };

/** A null query and the language it is searched in (its words come from entries of that language). */
export interface NullQuery {
  query: string;
  language: 'ja' | 'en';
}

/**
 * Null queries from the words of the corpus's questions: `entries[i]` is entry
 * i's language and content words. Each query's words come from different
 * entries of one language (a language is drawn as often as it has entries).
 * Entries without words are skipped; a language with fewer than two such
 * entries gives no null queries.
 */
export function nullQueries(
  entries: readonly { language: 'ja' | 'en'; words: readonly string[] }[],
  opts: NullQueryOptions = DEFAULT_NULL_QUERIES,
): NullQuery[] {
  const usable = entries.filter((entry) => entry.words.length > 0);
  const pools = (['ja', 'en'] as const)
    .map((language) => ({ language, entries: usable.filter((entry) => entry.language === language) }))
    .filter((pool) => pool.entries.length >= 2);
  const total = pools.reduce((sum, pool) => sum + pool.entries.length, 0);
  if (total === 0) return [];
  // Seeded, so that every replica draws the same queries for the same corpus.
  const rng = xoroshiro128plus(opts.seed ^ total);
  const below = (n: number) => uniformInt(rng, 0, n - 1);
  const queries: NullQuery[] = [];
  for (let i = 0; i < opts.count; i++) {
    let pick = below(total);
    const pool = pools.find((candidate) => (pick -= candidate.entries.length) < 0)!;
    const length = Math.min(opts.lengths[i % opts.lengths.length]!, pool.entries.length);
    const chosen = new Set<number>();
    while (chosen.size < length) chosen.add(below(pool.entries.length));
    const words = [...chosen].map((entry) => {
      const candidates = pool.entries[entry]!.words;
      return candidates[below(candidates.length)]!;
    });
    queries.push({ query: words.join(' '), language: pool.language });
  }
  return queries;
}

/** The chance level from the null queries' best scores: their median. */
export function nullModel(bestScores: readonly number[], corpusSize: number): NullModel {
  const sorted = Float64Array.from(bestScores).sort();
  return { median: sorted.length > 0 ? sorted[sorted.length >> 1]! : 0, corpusSize };
}

/**
 * Whether enough of the corpus changed since the model was drawn (`changed`
 * documents added, edited or removed, as a share of its size then) to draw
 * the null queries again. A few edits do not move the chance level; a new
 * corpus does.
 */
export function nullModelStale(model: NullModel | undefined, changed: number, tolerance = 0.05): boolean {
  if (!model) return true;
  return changed > tolerance * Math.max(1, model.corpusSize);
}
