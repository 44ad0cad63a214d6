import type { FaqDocument, SearchHit } from '@convo/contract';
import type { HitEvidence } from './confidence.js';

/**
 * `language` states which language's FAQ the caller prefers: 'ja' / 'en'
 * explicitly, 'auto' (the default) the query's own language by
 * `detectLanguage`. Documents of the other language are scored down, not
 * filtered out, so they still come back when nothing in the preferred
 * language matches.
 */
export interface SearchOptions {
  topK: number;
  language?: 'ja' | 'en' | 'auto';
}

/** A document analysed for an index (`prepare`), not yet in it: what `upsertPrepared` adds. */
export interface PreparedDocument {
  readonly doc: FaqDocument;
  readonly features: unknown;
}

/** An FAQ index that can change while it serves queries. */
export interface FaqSearchIndex {
  readonly size: number;
  /** Adds or replaces documents by id; analyses only these documents. */
  upsert(docs: FaqDocument[]): void;
  /**
   * The two halves of `upsert`, for a caller that analyses a large change a
   * slice at a time and keeps serving the index as it was meanwhile:
   * `prepare` is the analysis (the cost), `upsertPrepared` puts prepared
   * documents in at once (cheap). Absent where an index has no such split.
   */
  prepare?(doc: FaqDocument): PreparedDocument;
  upsertPrepared?(prepared: PreparedDocument[]): void;
  /** Unknown ids are ignored. */
  remove(ids: string[]): void;
  has(id: string): boolean;
  get(id: string): FaqDocument | undefined;
  /** Best first, at most `topK`, only scores > 0; equal scores by id. Empty for a query with nothing to match. */
  search(query: string, opts: SearchOptions): SearchHit[];
  /**
   * How sure `best`, this index's best hit for `query`, is to answer it: a
   * calibrated probability in [0, 1] (confidence.ts), 0 without a hit;
   * absent for indexes that do not calibrate (the evaluation's baselines).
   */
  confidence?(query: string, best: SearchHit | undefined): number;
  /**
   * Draws the corpus's chance level now, if the corpus changed enough since it
   * was last drawn (confidence.ts), so that the first search after a change
   * does not pay for it; the corpus replica calls it after each sync.
   */
  calibrate?(): void;
  /** What `confidence` is computed from (for the evaluation and debugging); undefined without a hit. */
  evidence?(query: string, best: SearchHit | undefined): HitEvidence | undefined;
  /** The synonyms `query` is expanded to (query word → synonyms some document holds); absent where nothing is expanded. */
  expansions?(query: string): { word: string; synonyms: string[] }[];
}
