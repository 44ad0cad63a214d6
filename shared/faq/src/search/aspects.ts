import { foldKana, type Analyzer } from '@convo/text';

/**
 * Aspect words: nouns that say *what about* a topic is asked (の条件, の方法,
 * "policy", "requirements") rather than the topic itself. People add them to
 * almost any question, but FAQ texts use them rarely, so their idf is high
 * and plain BM25 lets them outweigh the topic: "ギフト配送の条件" would rank
 * "送料無料になる条件" above the gift-delivery entries. Their query weight is
 * lowered (EngineConfig.aspectWeight), never to zero: "送料無料の条件" still
 * prefers the entry that speaks of conditions. This is a list of how
 * questions are phrased in each language, not of any corpus's vocabulary.
 */
const ASPECT_WORDS: readonly string[] = [
  '条件',
  '方法',
  '仕方',
  'やり方',
  '手順',
  '流れ',
  '可否',
  '有無',
  '詳細',
  '内容',
  '種類',
  '理由',
  'ルール',
  'ポリシー',
  '規定',
  '基準',
  '目安',
  'condition',
  'conditions',
  'requirement',
  'requirements',
  'method',
  'way',
  'process',
  'procedure',
  'steps',
  'policy',
  'policies',
  'rule',
  'rules',
  'option',
  'options',
  'detail',
  'details',
  'kind',
  'type',
  'reason',
];

const compiled = new WeakMap<Analyzer, ReadonlySet<string>>();

/** The aspect words as the index spells its terms (bases, stems, kana folded), once per analyzer. */
export function aspectTerms(analyzer: Analyzer): ReadonlySet<string> {
  let terms = compiled.get(analyzer);
  if (!terms) {
    terms = new Set(ASPECT_WORDS.flatMap((w) => analyzer.contentTerms(w).map(foldKana)));
    compiled.set(analyzer, terms);
  }
  return terms;
}
