import type { FaqDocument, FaqLanguage, SearchHit } from '@convo/contract';
import { detectLanguage, loadAnalyzer, type Analyzer } from '@convo/text';
import { createPostings } from './postings.js';
import { createDocSlots, indexOver, sameDocument, toHit } from './slots.js';
import type { FaqSearchIndex, SearchOptions } from './types.js';

/**
 * Plain BM25 (k1 = 1.2, b = 0.75), the yardstick the engine is evaluated
 * against: one field, question + answer; Japanese text as kuromoji base
 * forms (教えて → 教える; particles included, as a search server's default
 * kuromoji analysis keeps them), English as lowercase whitespace-separated
 * words with the punctuation at their edges cut off (otherwise "shipping?"
 * would never match "shipping"). No stemming, fuzzy matching, n-grams,
 * synonyms or rerank. It takes the same language preference as the engine,
 * so a comparison measures retrieval, not language handling.
 */
const K1 = 1.2;

/**
 * What the one field holds: question and answer (the classic baseline), or the
 * question alone, the strong baseline of FAQ retrieval: a user's question is
 * most like the FAQ's question, and answer text can drown it.
 */
export type BaselineFields = 'question+answer' | 'question';
const OTHER_LANGUAGE_FACTOR = 0.5;

export async function createBaseline(docs: FaqDocument[] = [], fields: BaselineFields = 'question+answer'): Promise<FaqSearchIndex> {
  const analyzer = await loadAnalyzer();
  const index = buildBaseline(analyzer, fields);
  index.upsert(docs);
  return index;
}

function buildBaseline(analyzer: Analyzer, fields: BaselineFields): FaqSearchIndex {
  const slots = createDocSlots();
  const postings = createPostings({ weights: [1], b: [0.75], k1: K1 });

  const tokenize = (text: string, language: FaqLanguage): string[] =>
    language === 'ja'
      ? analyzer
          .tokens(text)
          .filter((token) => token.pos !== '記号')
          .map((token) => token.base)
      : text
          .toLowerCase()
          .split(/\s+/)
          // (The trailing run from its start, the lookbehind: tried from each mark of a long row, it was quadratic.)
          .map((word) => word.replace(/^[^\p{L}\p{N}]+|(?<![^\p{L}\p{N}])[^\p{L}\p{N}]+$/gu, ''))
          .filter((word) => word.length > 0);

  const upsert = (docs: FaqDocument[]) => {
    for (const doc of docs) {
      const current = slots.get(doc.id);
      if (current && sameDocument(current, doc)) continue;
      const { slot, previous } = slots.put(doc);
      if (previous !== undefined) postings.remove(previous);
      postings.add(slot, [tokenize(fields === 'question' ? doc.question : `${doc.question}\n${doc.answer}`, doc.language)]);
    }
    compactIfSparse();
  };

  const remove = (ids: string[]) => {
    for (const id of ids) {
      const slot = slots.drop(id);
      if (slot !== undefined) postings.remove(slot);
    }
    compactIfSparse();
  };

  const compactIfSparse = () => {
    const remap = slots.compact();
    if (remap) postings.compact(remap);
  };

  const search = (query: string, opts: SearchOptions): SearchHit[] => {
    const topK = Math.floor(opts.topK);
    if (!(topK > 0) || slots.size === 0) return [];
    const detected = detectLanguage(query);
    const preferred = !opts.language || opts.language === 'auto' ? detected : opts.language;
    const scores = new Map<number, number>();
    const scanSlots = new Int32Array(slots.end);
    const scanSats = new Float64Array(slots.end);
    for (const term of new Set(tokenize(query, detected))) {
      const idf = postings.idf(term);
      const scanned = postings.scan(term, scanSlots, scanSats);
      for (let i = 0; i < scanned; i++) scores.set(scanSlots[i]!, (scores.get(scanSlots[i]!) ?? 0) + idf * scanSats[i]! * (K1 + 1));
    }
    const hits = [...scores].map(([slot, score]) => {
      const doc = slots.doc(slot)!;
      const factor = doc.language === preferred ? 1 : OTHER_LANGUAGE_FACTOR;
      return { doc, score: Math.round(score * factor * 1e6) / 1e6 };
    });
    hits.sort((a, b) => b.score - a.score || (a.doc.id < b.doc.id ? -1 : a.doc.id > b.doc.id ? 1 : 0));
    return hits
      .filter((hit) => hit.score > 0)
      .slice(0, topK)
      .map(({ doc, score }) => toHit(doc, score));
  };

  return indexOver(slots, { upsert, remove, search });
}
