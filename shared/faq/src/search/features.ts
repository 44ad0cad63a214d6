import type { FaqDocument } from '@convo/contract';
import { ENGLISH_STOP_WORDS, foldKana, normalize, type Analyzer, type Token } from '@convo/text';

/**
 * The three kinds of term the engine indexes, for documents and queries alike:
 *
 * - words: the analyzer's content-word bases (Japanese dictionary forms,
 *   English Porter stems), hiragana folded to katakana so ぎふと = ギフト.
 * - grams: character bi-grams of Japanese runs and boundary-padded tri-grams
 *   of Latin words (`#ship`…). They survive what word matching cannot: a
 *   compound split differently by kuromoji (領収書 → 領収 + 書), a typo, an
 *   unknown word. Bi-grams for Japanese because most Japanese words are two
 *   characters; tri-grams for English because bi-grams of Latin letters are
 *   too common to discriminate.
 * - readings: katakana tri-grams of the token readings (領収書 → リョウシュウショ),
 *   so a query written in kana (りょうしゅうしょ) meets the kanji text. Only
 *   for the question and tags: readings are a fallback and homophones make
 *   them noisy over long answers.
 */

export const FIELD = { question: 0, answer: 1, tags: 2 } as const;
export const FIELD_COUNT = 3;

export interface TextFeatures {
  words: string[];
  /** Noun compounds joined (see wordTerms); indexed with the words. */
  compounds: string[];
  /** The words that are verbs or adjectives (Japanese): what is done, not what it is done to. */
  predicates: string[];
  grams: string[];
  readings: string[];
  /** The content words as the analyzer writes them (Analyzer.contentTerms), not folded: words a query could be made of. */
  contentTerms: string[];
}

export interface DocFeatures {
  /** The question's content words (TextFeatures.contentTerms), for the confidence's null queries. */
  questionTerms: string[];
  /** Per field, in FIELD order. */
  words: string[][];
  compounds: string[][];
  grams: string[][];
  readings: string[][];
}

// Kana, kanji, 々〆 and the long vowel mark; not the middle dot ・, which separates words.
const JA_RUN = /[\u3041-\u3096\u309d\u309e\u30a1-\u30fa\u30fc-\u30fe\u3400-\u9fff\uf900-\ufaff\u3005\u3006]+/g;
const LATIN_WORD = /\p{Script=Latin}+/gu;

export function textFeatures(analyzer: Analyzer, text: string): TextFeatures {
  return featuresOfTokens(analyzer.tokens(text), text);
}

/** The features of a text already tokenized (a query's tokens serve its other spellings too, see query.ts). */
export function featuresOfTokens(tokens: readonly Token[], text: string): TextFeatures {
  const folded = foldKana(normalize(text));
  const { words, compounds } = wordTerms(tokens);
  return {
    words,
    compounds,
    predicates: tokens
      .filter((token) => token.content && (token.pos === '動詞' || token.pos === '形容詞'))
      .map((token) => foldKana(token.base)),
    grams: [...japaneseBigrams(folded), ...latinTrigrams(folded)],
    readings: readingTrigrams(tokens),
    contentTerms: tokens.filter((token) => token.content).map((token) => token.base),
  };
}

/**
 * Question words say what is asked about a topic: "where do I pay" and "when
 * do I pay" want different entries, and so do 「どこで」 and 「いつまで」. They
 * are stop words to the analyzer (every question has one), so they are kept
 * here as terms of their own, marked with this prefix, for the query to weigh
 * lightly (EngineConfig.intentWeight). The interrogatives of both languages,
 * a closed class of the grammar, not a list of domain words.
 */
export const INTENT_PREFIX = '?';
const INTERROGATIVES: ReadonlySet<string> = new Set([
  ...['where', 'when', 'why', 'how', 'who', 'which', 'what'],
  ...['どこ', 'いつ', 'なぜ', 'なんで', 'どう', 'どれ', 'どの', 'どちら', 'だれ', '誰', 'いくら', '何', 'なに'],
]);

/**
 * Content-word bases, then each run of two or more nouns joined as written
 * (保険 + 証 → 保険証, 被 + 保険 + 者 → 被保険者): IPADIC splits compounds, and
 * their suffixes (証, 料, 者, 院) are not content words on their own, so
 * without the joined form 保険証, 保険料 and 保険者 would all be just 保険.
 */
function wordTerms(tokens: readonly Token[]): { words: string[]; compounds: string[] } {
  const words: string[] = [];
  const compounds: string[] = [];
  let run: Token[] = [];
  const flush = () => {
    if (run.length > 1) compounds.push(foldKana(run.map((token) => token.surface).join('')));
    run = [];
  };
  for (const token of tokens) {
    if (token.content) words.push(foldKana(token.base));
    else if (INTERROGATIVES.has(token.surface) || INTERROGATIVES.has(token.base)) words.push(INTENT_PREFIX + foldKana(token.base));
    if (run.length > 0 && run.at(-1)!.run !== token.run) flush();
    if (
      token.script === 'ja' &&
      (token.pos === '名詞' || token.pos === '接頭詞') &&
      token.posDetail !== '非自立' &&
      token.posDetail !== '代名詞'
    )
      run.push(token);
    else flush();
  }
  flush();
  return { words, compounds };
}

export function docFeatures(analyzer: Analyzer, doc: FaqDocument): DocFeatures {
  const question = textFeatures(analyzer, doc.question);
  const answer = textFeatures(analyzer, doc.answer);
  // Facets are `key:value`; both halves are worth matching, as separate words.
  const tags = textFeatures(analyzer, doc.tags.map((tag) => tag.replace(/[:_/|=-]+/g, ' ')).join(' / '));
  return {
    questionTerms: question.contentTerms,
    words: [question.words, answer.words, tags.words],
    compounds: [question.compounds, answer.compounds, tags.compounds],
    grams: [question.grams, answer.grams, tags.grams],
    readings: [question.readings, [], tags.readings],
  };
}

/** Bi-grams inside each run of Japanese characters; a one-character run is its own term. */
export function japaneseBigrams(folded: string): string[] {
  const out: string[] = [];
  for (const run of folded.match(JA_RUN) ?? []) {
    if (run.length === 1) out.push(run);
    for (let i = 0; i + 2 <= run.length; i++) out.push(run.slice(i, i + 2));
  }
  return out;
}

/** Tri-grams of `#word#` for Latin words of three letters or more that are not stop words. */
export function latinTrigrams(folded: string): string[] {
  const out: string[] = [];
  for (const word of folded.match(LATIN_WORD) ?? []) {
    if (word.length < 3 || ENGLISH_STOP_WORDS.has(word)) continue;
    const padded = `#${word}#`;
    for (let i = 0; i + 3 <= padded.length; i++) out.push(padded.slice(i, i + 3));
  }
  return out;
}

/** Tri-grams of the readings of each run of Japanese tokens (punctuation, Latin and digits end a run). */
export function readingTrigrams(tokens: readonly Token[]): string[] {
  const out: string[] = [];
  let run = '';
  const flush = () => {
    if (run.length === 2) out.push(run);
    for (let i = 0; i + 3 <= run.length; i++) out.push(run.slice(i, i + 3));
    run = '';
  };
  for (const token of tokens) {
    if (token.script === 'ja' && token.pos !== '記号' && token.reading) run += token.reading;
    else flush();
  }
  flush();
  return out;
}
