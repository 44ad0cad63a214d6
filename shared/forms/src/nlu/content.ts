import { loadAnalyzer, type Analyzer } from '@convo/text';
import { dictionaryMissing, preloadJapanese } from './japanese.js';
import { ENGLISH_COMMON_WORDS, ENGLISH_GENERIC_WORDS, ENGLISH_VAGUE_WORDS } from './english-words.js';
import { latinWords } from './text.js';

/**
 * Whether a free-text answer says something: the words in it that carry
 * content the question did not already contain. "A little", "yes, some",
 * 「少しあります」, 「色々やりました」, "I have some experience" (to a question
 * about experience) have none; "I handed out water at a marathon" does.
 *
 * Japanese is read with kuromoji (the project's morphological analyser):
 * nouns and independent verbs count, except light verbs (ある, する, やる…)
 * and dependent nouns (こと, 回); adverbs and quantities (少し, 多少, 色々)
 * never do. English words count unless they are function words, vague
 * quantities and hedges ("some", "little", "stuff"), or echo the question.
 */

let analyzer: Analyzer | null = null;
let loading: Promise<Analyzer> | null = null;

/**
 * Loads the Japanese dictionary once for every interview rule (this module's
 * analyser and japanese.ts's morphemes share it); until then Japanese is read
 * by script runs (kanji/katakana).
 */
export function preloadContentAnalyzer(): Promise<Analyzer> {
  loading ??= Promise.all([loadAnalyzer(), preloadJapanese()]).then(([loaded]) => (analyzer = loaded));
  return loading;
}

const LIGHT_VERBS = new Set([
  'ある',
  'いる',
  'する',
  'やる',
  'なる',
  'できる',
  'おる',
  'いたす',
  'くる',
  'いく',
  'みる',
  'もらう',
  'いただく',
  'くださる',
  '思う',
  '言う',
  '行う',
  'つもり',
]);
const COUNTING_NOUN_DETAILS = new Set(['非自立', '代名詞', '接尾', '数', '副詞可能', '特殊', '引用文字列']);

/** Content words of `answer` that do not appear in `echo` (the fact's and field's own words). */
export function contentWords(answer: string, echo: readonly string[]): string[] {
  const echoText = echo.join(' ').toLowerCase();
  const echoLatin = latinWords(echoText);
  const out: string[] = [];
  for (const word of latinWords(answer)) {
    // A code or a number ("104", "MC-2025-118734") is content: it is what an identifier question asks for.
    if (/\d/.test(word)) {
      if (!echoLatin.includes(word)) out.push(word);
      continue;
    }
    if (!/\p{L}/u.test(word) || word.length < 2) continue;
    if (ENGLISH_COMMON_WORDS.has(word) || ENGLISH_GENERIC_WORDS.has(word) || ENGLISH_VAGUE_WORDS.has(word)) continue;
    if (echoLatin.some((echoed) => sameStem(echoed, word))) continue;
    out.push(word);
  }
  for (const term of japaneseContent(answer)) if (!echoText.includes(term)) out.push(term);
  return out;
}

function japaneseContent(text: string): string[] {
  if (!/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u.test(text)) return [];
  if (!analyzer) {
    dictionaryMissing(loading !== null, preloadContentAnalyzer);
    return text.match(/[\p{Script=Han}\p{Script=Katakana}ー]{2,}/gu) ?? [];
  }
  const out: string[] = [];
  for (const token of analyzer.tokens(text)) {
    if (token.script !== 'ja') continue;
    const noun = token.pos === '名詞' && !COUNTING_NOUN_DETAILS.has(token.posDetail);
    const verb = token.pos === '動詞' && token.posDetail === '自立' && !LIGHT_VERBS.has(token.base);
    if ((noun || verb) && !/^[\p{Script=Hiragana}]$/u.test(token.surface)) out.push(token.base);
  }
  // 「あおぞら保育園」: a name in hiragana before the noun it names, which the dictionary breaks into fillers.
  for (const match of text.matchAll(/(?<![\p{Script=Hiragana}])[\p{Script=Hiragana}]{3,}(?=[\p{Script=Han}\p{Script=Katakana}])/gu)) {
    if (!/[をにがはでとのへもやか]$/u.test(match[0])) out.push(match[0]);
  }
  return out;
}

function sameStem(a: string, b: string): boolean {
  if (a === b) return true;
  const shorter = Math.min(a.length, b.length);
  if (shorter < 4) return false;
  let common = 0;
  while (common < shorter && a[common] === b[common]) common++;
  return common >= Math.min(5, shorter);
}
