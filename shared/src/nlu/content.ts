import { loadAnalyzer, type Analyzer } from '../faq/text/analyzer.js';
import { preloadJapanese } from './japanese.js';
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
  loading ??= Promise.all([loadAnalyzer(), preloadJapanese()]).then(([a]) => (analyzer = a));
  return loading;
}

const LIGHT_VERBS = new Set(['ある', 'いる', 'する', 'やる', 'なる', 'できる', 'おる', 'いたす', 'くる', 'いく', 'みる', 'もらう', 'いただく', 'くださる', '思う', '言う', '行う', 'つもり']);
const COUNTING_NOUN_DETAILS = new Set(['非自立', '代名詞', '接尾', '数', '副詞可能', '特殊', '引用文字列']);

/** Content words of `answer` that do not appear in `echo` (the fact's and field's own words). */
export function contentWords(answer: string, echo: readonly string[]): string[] {
  const echoText = echo.join(' ').toLowerCase();
  const echoLatin = latinWords(echoText);
  const out: string[] = [];
  for (const w of latinWords(answer)) {
    // A code or a number ("104", "MC-2025-118734") is content: it is what an identifier question asks for.
    if (/\d/.test(w)) {
      if (!echoLatin.includes(w)) out.push(w);
      continue;
    }
    if (!/\p{L}/u.test(w) || w.length < 2) continue;
    if (ENGLISH_COMMON_WORDS.has(w) || ENGLISH_GENERIC_WORDS.has(w) || ENGLISH_VAGUE_WORDS.has(w)) continue;
    if (echoLatin.some((e) => sameStem(e, w))) continue;
    out.push(w);
  }
  for (const j of japaneseContent(answer)) if (!echoText.includes(j)) out.push(j);
  return out;
}

function japaneseContent(text: string): string[] {
  if (!/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u.test(text)) return [];
  if (!analyzer) return text.match(/[\p{Script=Han}\p{Script=Katakana}ー]{2,}/gu) ?? [];
  const out: string[] = [];
  for (const t of analyzer.tokens(text)) {
    if (t.script !== 'ja') continue;
    const noun = t.pos === '名詞' && !COUNTING_NOUN_DETAILS.has(t.posDetail);
    const verb = t.pos === '動詞' && t.posDetail === '自立' && !LIGHT_VERBS.has(t.base);
    if ((noun || verb) && !/^[\p{Script=Hiragana}]$/u.test(t.surface)) out.push(t.base);
  }
  // 「あおぞら保育園」: a name in hiragana before the noun it names, which the dictionary breaks into fillers.
  for (const m of text.matchAll(/(?<![\p{Script=Hiragana}])[\p{Script=Hiragana}]{3,}(?=[\p{Script=Han}\p{Script=Katakana}])/gu)) {
    if (!/[をにがはでとのへもやか]$/u.test(m[0])) out.push(m[0]);
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
