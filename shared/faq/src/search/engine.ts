import type { FaqDocument, FaqLanguage, SearchHit } from '@convo/contract';
import { detectLanguage, loadAnalyzer, withinTextBudget, type Analyzer } from '@convo/text';
import { aspectTerms } from './aspects.js';
import {
  confidenceFrom,
  DEFAULT_NULL_QUERIES,
  type HitEvidence,
  nullModel,
  nullModelStale,
  nullQueries,
  type NullModel,
} from './confidence.js';
import { docFeatures, FIELD, INTENT_PREFIX } from './features.js';
import { createFuzzyMatcher, type FuzzyMatcher } from './fuzzy.js';
import { compileLexicon } from './lexicon.js';
import { generalSynonyms, type SynonymSource } from './synonyms.js';
import { createPostings, type Bm25fParams, type Postings } from './postings.js';
import { analyzeQuery, type AnalyzedQuery, type WordSlot } from './query.js';
import { coverage, questionScorer, rerankBonus, type RerankWeights } from './rerank.js';
import { createDocSlots, indexOver, sameDocument, toHit } from './slots.js';
import type { FaqSearchIndex, PreparedDocument, SearchOptions } from './types.js';

/**
 * The FAQ search engine. Two stages:
 *
 * 1. Recall and first score: three BM25F channels (words, n-grams, readings;
 *    see features.ts), each normalised by what a perfect match of the query
 *    would score in it, so a channel's score is roughly "the idf-weighted
 *    share of the query this document matches", in [0, 1). The first-stage
 *    score is their weighted sum, plus a small share for the words typical of
 *    the best of these documents (pseudo-relevance feedback), which reaches
 *    long answers that say the same thing in other words.
 * 2. Rerank of the best `depth` candidates: first-stage score plus a bonus
 *    for how well the *question* matches (rerank.ts), so
 *    `score = languageFactor × (first + rerankWeight × bonus)`.
 *
 * Scores are therefore comparable within a query and roughly across queries
 * (a score near the sum of the weights means the query is matched fully in
 * the question; below ~0.1 is a weak, partial match).
 */
export interface EngineConfig {
  /** Weight of each channel in the first-stage score. */
  channels: { word: number; gram: number; reading: number };
  /** BM25F field weights and length normalisation, in FIELD order (question, answer, tags). */
  fields: Bm25fParams;
  /** Words one and two edits from an unknown query word; [0, 0] turns typo tolerance off. */
  fuzzyWeights: readonly [number, number];
  /** Synonyms (Sudachi, WordNet, the deployment's own), relative to the word that fired them; 0 turns expansion off. */
  synonymWeight: number;
  /** Weight of an aspect word of the query (の条件, "policy"; see aspects.ts); 1 treats them as any word. */
  aspectWeight: number;
  /**
   * Weight of a Japanese verb or adjective of the query (もらえる, 払う, 安い)
   * relative to a noun: they say what is done, and an FAQ's titles share them
   * across topics (…はもらえますか), so at full weight a title with the same
   * verb outranks the entry about the thing asked for.
   */
  predicateWeight: number;
  /**
   * Weight of a question word of the query (where, when, how, どこ, いつ; see
   * features.ts) relative to a noun: weak evidence of what is asked about the
   * topic; 0 ignores them, as stop words.
   */
  intentWeight: number;
  /** Noun compounds (保険証, 被保険者) are words too, next to their parts (see features.ts). */
  compounds: boolean;
  /** Candidates the second stage reorders, and how much its bonus weighs; weight 0 turns it off. */
  rerank: { depth: number; weight: number; features: RerankWeights };
  /**
   * Score factor for documents not in the preferred language: a preference,
   * not a filter, so a query still finds the other language's FAQ when its
   * own language has nothing (or much worse).
   */
  otherLanguageFactor: number;
  /**
   * N-grams and readings held by more than this share of documents are left
   * out of queries: they are the particles and endings of every answer
   * (ます, して, #the), cost the most to scan and carry almost no idf.
   */
  maxGramDocShare: number;
  /**
   * Pseudo-relevance feedback (RM3-style): the `terms` words most typical of
   * the `docs` best first-stage documents are added to the query at `weight`
   * of the query's own words; weight 0 turns it off.
   */
  feedback: { docs: number; terms: number; weight: number };
}

export const DEFAULT_ENGINE_CONFIG: EngineConfig = {
  channels: { word: 1, gram: 0.5, reading: 0.25 },
  fields: { weights: [3, 1, 1.5], b: [0.75, 0.75, 0.5], k1: 1.2 },
  fuzzyWeights: [0.7, 0.45],
  synonymWeight: 0.5,
  aspectWeight: 0.5,
  predicateWeight: 0.5,
  intentWeight: 0.25,
  compounds: true,
  rerank: { depth: 50, weight: 0.5, features: { coverage: 0.5, dice: 0.35, proximity: 0.15 } },
  otherLanguageFactor: 0.5,
  maxGramDocShare: 0.25,
  feedback: { docs: 5, terms: 10, weight: 0.1 },
};

/** The full engine, with `config` overrides (used by the bench to measure each part). */
export async function createEngine(
  docs: FaqDocument[] = [],
  overrides: Partial<EngineConfig> = {},
  synonyms: SynonymSource = generalSynonyms(),
): Promise<FaqSearchIndex> {
  const analyzer = await loadAnalyzer();
  const config: EngineConfig = { ...DEFAULT_ENGINE_CONFIG, ...overrides };
  const index = buildEngine(analyzer, config, synonyms);
  index.upsert(docs);
  return index;
}

function buildEngine(analyzer: Analyzer, config: EngineConfig, synonyms: SynonymSource): FaqSearchIndex {
  const slots = createDocSlots();
  const words = createPostings(config.fields);
  const grams = createPostings(config.fields);
  const readings = createPostings(config.fields);
  const channels = [words, grams, readings];
  /**
   * Per slot: the question's word terms in order and how many distinct n-grams
   * it has (for the rerank), and its content words as written (for the
   * confidence's null queries, kept so that drawing them tokenizes nothing).
   */
  let questions: ({ words: string[]; gramCount: number; terms: string[] } | undefined)[] = [];
  const lexicon = config.synonymWeight > 0 ? compileLexicon(analyzer, synonyms) : undefined;
  const aspects = { terms: aspectTerms(analyzer), weight: config.aspectWeight };
  let fuzzy: FuzzyMatcher | undefined;
  const fuzzyOn = config.fuzzyWeights.some((weight) => weight > 0);
  // The search agent asks for a query's expansions right after searching it: the analysis is kept for that one query,
  // and dropped whenever the corpus changes (corrections and synonyms depend on what documents hold).
  let last: { query: string; analysed: AnalyzedQuery } | undefined;
  // Per-query scratch, sized to the slot range and reused: accumulated scores,
  // a slot's best alternative per document, and one posting list's scan.
  let scores = new Float64Array(0);
  let best = new Float64Array(0);
  let scanSlots = new Int32Array(0);
  let scanSats = new Float64Array(0);
  // The chance level of a score in this corpus (confidence.ts), drawn when first asked for and again after much changed.
  let chance: NullModel | undefined;
  let changedSinceChance = 0;

  // One document's analysis is one budgeted call: an uploaded text that slipped past the linear paths fails alone.
  const prepare = (doc: FaqDocument): PreparedDocument => ({ doc, features: withinTextBudget(() => docFeatures(analyzer, doc)) });

  const add = ({ doc, features }: { doc: FaqDocument; features: ReturnType<typeof docFeatures> }) => {
    const { slot, previous } = slots.put(doc);
    if (previous !== undefined) removeSlot(previous);
    const indexed = config.compounds
      ? features.words.map((fieldWords, field) => [...fieldWords, ...features.compounds[field]!])
      : features.words;
    words.add(slot, indexed);
    grams.add(slot, features.grams);
    readings.add(slot, features.readings);
    questions[slot] = {
      words: indexed[FIELD.question]!,
      gramCount: new Set(features.grams[FIELD.question]).size,
      terms: features.questionTerms,
    };
    changedSinceChance++;
  };

  const removeSlot = (slot: number) => {
    for (const channel of channels) channel.remove(slot);
    questions[slot] = undefined;
    changedSinceChance++;
  };

  const compactIfSparse = () => {
    const remap = slots.compact();
    if (!remap) return;
    for (const channel of channels) channel.compact(remap);
    const next: typeof questions = [];
    remap.forEach((to, from) => {
      if (to >= 0 && questions[from]) next[to] = questions[from];
    });
    questions = next;
  };

  const upsertPrepared = (prepared: PreparedDocument[]) => {
    for (const item of prepared) {
      const current = slots.get(item.doc.id);
      if (current && sameDocument(current, item.doc)) continue;
      add(item as { doc: FaqDocument; features: ReturnType<typeof docFeatures> });
    }
    fuzzy = undefined;
    last = undefined;
    compactIfSparse();
  };

  const upsert = (docs: FaqDocument[]) => {
    upsertPrepared(docs.filter((doc) => !sameDocumentHeld(doc)).map(prepare));
  };

  const sameDocumentHeld = (doc: FaqDocument) => {
    const current = slots.get(doc.id);
    return current !== undefined && sameDocument(current, doc);
  };

  const remove = (ids: string[]) => {
    for (const id of ids) {
      const slot = slots.drop(id);
      if (slot !== undefined) removeSlot(slot);
    }
    fuzzy = undefined;
    last = undefined;
    compactIfSparse();
  };

  const analyze = (query: string): AnalyzedQuery => {
    if (last?.query === query) return last.analysed;
    if (fuzzyOn && !fuzzy) fuzzy = createFuzzyMatcher([...words.vocabulary()]);
    const analysed = withinTextBudget(() =>
      analyzeQuery(analyzer, query, words, {
        fuzzy,
        lexicon,
        aspects,
        fuzzyWeights: config.fuzzyWeights,
        synonymWeight: config.synonymWeight,
        predicateWeight: config.predicateWeight,
        intentWeight: config.intentWeight,
        compounds: config.compounds,
        isWord: synonyms.isWord?.bind(synonyms),
      }),
    );
    last = { query, analysed };
    return analysed;
  };

  const search = (query: string, opts: SearchOptions): SearchHit[] => {
    const topK = Math.floor(opts.topK);
    if (!(topK > 0) || slots.size === 0) return [];
    const analyzed = analyze(query);
    if (scores.length < slots.end) {
      scores = new Float64Array(slots.end * 2);
      best = new Float64Array(slots.end * 2);
      scanSlots = new Int32Array(slots.end * 2);
      scanSats = new Float64Array(slots.end * 2);
    }
    const touched: number[] = [];
    const addScore = (slot: number, value: number) => {
      if (scores[slot] === 0) touched.push(slot);
      scores[slot]! += value;
    };
    try {
      scoreWords(analyzed, config.channels.word, addScore);
      scoreTerms(grams, analyzed.grams, config.channels.gram, addScore);
      scoreTerms(readings, analyzed.readings, config.channels.reading, addScore);
      if (config.feedback.weight > 0) scoreFeedback(analyzed, touched, addScore);
      return rank(analyzed, query, opts, topK, touched);
    } finally {
      for (const slot of touched) scores[slot] = 0;
    }
  };

  /**
   * Word channel: per slot, a document counts its best alternative only. A
   * phrase alternative counts for documents holding all its terms, at the
   * mean of their term scores.
   */
  const scoreWords = (analyzed: AnalyzedQuery, weight: number, addScore: (slot: number, value: number) => void) => {
    const norm = analyzed.words.reduce((sum, wordSlot) => sum + wordSlot.idf * wordSlot.weight, 0);
    if (weight === 0 || norm === 0) return;
    const hit: number[] = [];
    const offer = (doc: number, value: number) => {
      if (value <= best[doc]!) return;
      if (best[doc] === 0) hit.push(doc);
      best[doc] = value;
    };
    for (const slot of analyzed.words) {
      for (const alt of slot.alternatives) {
        if (alt.terms.length === 1) {
          const idf = words.idf(alt.terms[0]!);
          const count = words.scan(alt.terms[0]!, scanSlots, scanSats);
          for (let i = 0; i < count; i++) offer(scanSlots[i]!, alt.weight * idf * scanSats[i]!);
          continue;
        }
        const partial = new Map<number, { sum: number; count: number }>();
        for (const term of alt.terms) {
          const idf = words.idf(term);
          const count = words.scan(term, scanSlots, scanSats);
          for (let i = 0; i < count; i++) {
            const tally = partial.get(scanSlots[i]!) ?? { sum: 0, count: 0 };
            tally.sum += idf * scanSats[i]!;
            tally.count++;
            partial.set(scanSlots[i]!, tally);
          }
        }
        for (const [doc, tally] of partial) if (tally.count === alt.terms.length) offer(doc, (alt.weight * tally.sum) / tally.count);
      }
      for (const doc of hit) {
        addScore(doc, (weight * slot.weight * best[doc]!) / norm);
        best[doc] = 0;
      }
      hit.length = 0;
    }
  };

  /**
   * RM3's relevance model without its query interpolation (the query's own
   * words are already scored): P(w|R) = Σ_d score(d)·tf(w,d)/|d| over the best
   * first-stage documents, times idf so the words every answer uses
   * (手続き, please) do not lead; the strongest words not in the query are then
   * scored like a second, weaker query.
   */
  const scoreFeedback = (analyzed: AnalyzedQuery, touched: number[], addScore: (slot: number, value: number) => void) => {
    const { docs, terms, weight } = config.feedback;
    const cut = kthLargest(touched, docs);
    const top = touched
      .filter((slot) => scores[slot]! > 0 && scores[slot]! >= cut)
      .sort((a, b) => scores[b]! - scores[a]! || byId(a, b))
      .slice(0, docs);
    if (top.length === 0) return;
    const inQuery = new Set(analyzed.words.flatMap((slot) => slot.alternatives.flatMap((alternative) => alternative.terms)));
    const maxDf = Math.max(1, config.maxGramDocShare * words.size);
    const relevance = new Map<string, number>();
    for (const slot of top) {
      const doc = words.termsOf(slot);
      doc.terms.forEach((term, i) => {
        // A question word says what is asked, not what the entries are about: never an expansion.
        if (inQuery.has(term) || words.df(term) > maxDf || term.startsWith(INTENT_PREFIX)) return;
        relevance.set(term, (relevance.get(term) ?? 0) + (scores[slot]! * doc.counts[i]!) / Math.max(1, doc.length));
      });
    }
    const chosen = [...relevance]
      .map(([term, strength]) => ({ term, w: strength * words.idf(term) }))
      .sort((a, b) => b.w - a.w)
      .slice(0, terms);
    const norm = chosen.reduce((sum, expansion) => sum + expansion.w, 0);
    if (norm === 0) return;
    // The model is complete before any score moves, so the expansion is added straight in.
    for (const expansion of chosen) {
      const scale = (weight * expansion.w) / norm;
      const count = words.scan(expansion.term, scanSlots, scanSats);
      for (let i = 0; i < count; i++) addScore(scanSlots[i]!, scale * scanSats[i]!);
    }
  };

  const scoreTerms = (postings: Postings, terms: readonly string[], weight: number, addScore: (slot: number, value: number) => void) => {
    if (weight === 0) return;
    const maxDf = Math.max(1, config.maxGramDocShare * postings.size);
    const kept = terms.filter((term) => postings.df(term) > 0 && postings.df(term) <= maxDf);
    // Normalised by every query term that is not too common, matched or not, so
    // a document matching half of the query's n-grams scores about half.
    const norm = terms.filter((term) => postings.df(term) <= maxDf).reduce((sum, term) => sum + postings.idf(term), 0);
    if (norm === 0) return;
    for (const term of kept) {
      const scale = (weight * postings.idf(term)) / norm;
      const count = postings.scan(term, scanSlots, scanSats);
      for (let i = 0; i < count; i++) addScore(scanSlots[i]!, scale * scanSats[i]!);
    }
  };

  const rank = (analyzed: AnalyzedQuery, query: string, opts: SearchOptions, topK: number, touched: number[]): SearchHit[] => {
    const preferred: FaqLanguage = !opts.language || opts.language === 'auto' ? detectLanguage(query) : opts.language;
    const factor = (slot: number) => (slots.doc(slot)?.language === preferred ? 1 : config.otherLanguageFactor);
    const depth = config.rerank.weight > 0 ? Math.max(config.rerank.depth, topK) : 0;
    for (const slot of touched) scores[slot]! *= factor(slot);
    const cut = kthLargest(touched, Math.max(depth, topK));
    const first = touched.filter((slot) => scores[slot]! > 0 && scores[slot]! >= cut).map((slot) => ({ slot, score: scores[slot]! }));
    first.sort((a, b) => b.score - a.score || byId(a.slot, b.slot));
    const scoreQuestion = questionScorer(analyzed);
    for (const candidate of first.slice(0, depth)) {
      const question = { ...questions[candidate.slot]!, hasGram: (gram: string) => grams.inField(gram, candidate.slot, FIELD.question) };
      const bonus = rerankBonus(scoreQuestion(question), config.rerank.features);
      candidate.score += factor(candidate.slot) * config.rerank.weight * bonus;
    }
    const ranked = first.map((candidate) => ({ slot: candidate.slot, score: round(candidate.score) }));
    ranked.sort((a, b) => b.score - a.score || byId(a.slot, b.slot));
    return ranked.slice(0, topK).map(({ slot, score }) => toHit(slots.doc(slot)!, score));
  };

  /** Best scores of null queries (confidence.ts): words of different entries' questions, searched like a user's. */
  const chanceLevel = (): NullModel | undefined => {
    if (!nullModelStale(chance, changedSinceChance)) return chance;
    const entries: { id: string; language: FaqLanguage; words: string[] }[] = [];
    for (let slot = 0; slot < slots.end; slot++) {
      const doc = slots.doc(slot);
      if (doc) entries.push({ id: doc.id, language: doc.language, words: questions[slot]!.terms });
    }
    // In id order, so every replica draws the same queries whatever order it indexed the documents in.
    entries.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const best = nullQueries(entries, DEFAULT_NULL_QUERIES).map(
      (drawn) => search(drawn.query, { topK: 1, language: drawn.language })[0]?.score ?? 0,
    );
    chance = nullModel(best, slots.size);
    changedSinceChance = 0;
    return chance;
  };

  /**
   * How sure `best` (this index's best hit for `query`) is to answer it
   * (confidence.ts): its score against the corpus's chance level, and the
   * share of the query's words its document holds.
   */
  const evidence = (query: string, best: SearchHit | undefined): HitEvidence | undefined => {
    const slot = best ? slots.slotOf(best.id) : undefined;
    if (!best || slot === undefined) return undefined;
    const analyzed = analyze(query);
    // The share of the query no document holds in any form: a slot left without a single alternative.
    const mass = (word: WordSlot) => word.idf * word.weight;
    const total = analyzed.words.reduce((sum, word) => sum + mass(word), 0);
    const unknown = analyzed.words.reduce((sum, word) => sum + (word.alternatives.length === 0 ? mass(word) : 0), 0);
    return {
      score: best.score,
      chance: chanceLevel()?.median ?? 0,
      // The rerank's coverage of a question, over the whole document: the idf-weighted share of the query it holds.
      coverage: coverage(analyzed, words.termsOf(slot).terms),
      unknown: total > 0 ? unknown / total : 1,
      english: detectLanguage(query) === 'en',
      // Content words only: the model was fitted on them, and a question word says little about the topic.
      words: analyzed.words.filter((word) => !word.label.startsWith(INTENT_PREFIX)).length,
    };
  };

  const confidence = (query: string, best: SearchHit | undefined): number => {
    const found = evidence(query, best);
    return found ? confidenceFrom(found) : 0;
  };

  /**
   * The k-th largest score among `touched` (ties at the cut are all kept), so
   * only the candidates, not every touched document, become objects and get
   * sorted: a common word can touch thousands.
   */
  const kthLargest = (touched: number[], k: number): number => {
    if (touched.length <= k) return -Infinity;
    return select(
      Float64Array.from(touched, (slot) => scores[slot]!),
      touched.length - k,
    );
  };

  const byId = (a: number, b: number) => {
    const firstId = slots.doc(a)!.id;
    const secondId = slots.doc(b)!.id;
    return firstId < secondId ? -1 : firstId > secondId ? 1 : 0;
  };

  return indexOver(slots, {
    upsert,
    prepare,
    upsertPrepared,
    remove,
    search,
    expansions: (query) => analyze(query).expansions,
    confidence,
    evidence,
    calibrate: () => void chanceLevel(),
  });
}

/**
 * The value that would stand at `index` if `values` were sorted ascending
 * (Hoare's quickselect; reorders `values`). Linear on average, against the
 * n log n of a sort: a common word touches thousands of documents per query.
 */
export function select(values: Float64Array, index: number): number {
  let lo = 0;
  let hi = values.length - 1;
  while (lo < hi) {
    const pivot = values[(lo + hi) >> 1]!;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (values[i]! < pivot) i++;
      while (values[j]! > pivot) j--;
      if (i <= j) {
        const held = values[i]!;
        values[i++] = values[j]!;
        values[j--] = held;
      }
    }
    if (index <= j) hi = j;
    else if (index >= i) lo = i;
    else break;
  }
  return values[index]!;
}

/** Rounded so that equal scores reached by different float paths tie, and the id decides. */
function round(score: number): number {
  return Math.round(score * 1e6) / 1e6;
}
