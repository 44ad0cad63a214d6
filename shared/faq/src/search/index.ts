import type { FaqDocument } from '@convo/contract';
import { type BaselineFields, createBaseline } from './baseline.js';
import { createEngine } from './engine.js';
import { combineSynonyms, customSynonyms, generalSynonyms } from './synonyms.js';
import { foldKana, loadAnalyzer } from '@convo/text';
import type { FaqSearchIndex } from './types.js';

/**
 * FAQ retrieval (docs/seeds/002): `createFaqIndex` is the engine the search and
 * dialog agents use; `createBm25Baseline` is plain BM25 for the evaluation
 * to compare against. Both load the shared analyzer (kuromoji dictionary,
 * about half a second, once per process) and then search synchronously.
 */
export type { FaqSearchIndex, SearchOptions } from './types.js';
export { parseSynonymGroups } from './synonyms.js';
export { DEFAULT_ENGINE_CONFIG, type EngineConfig } from './engine.js';

/** The full engine: BM25F over words, n-grams and readings, typo and synonym expansion, question rerank. */
export async function createFaqIndex(
  docs?: FaqDocument[],
  options: { synonymGroups?: readonly (readonly string[])[] } = {},
): Promise<FaqSearchIndex> {
  if (!options.synonymGroups?.length) return createEngine(docs);
  const analyzer = await loadAnalyzer();
  // A member triggers its group when it is one word as the engine analyses it; longer members are targets only.
  const keyOf = (member: string) => {
    const terms = analyzer.contentTerms(member);
    return terms.length === 1 ? foldKana(terms[0]!) : undefined;
  };
  return createEngine(docs, {}, combineSynonyms(customSynonyms(options.synonymGroups, keyOf), generalSynonyms()));
}

/** Plain BM25 over question + answer (or over the question alone), for evaluation only. */
export async function createBm25Baseline(docs?: FaqDocument[], fields?: BaselineFields): Promise<FaqSearchIndex> {
  return createBaseline(docs, fields);
}
