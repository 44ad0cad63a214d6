import { normalize, type Analyzer, type Token } from '@convo/text';
import type { PlanLanguage } from './types.js';

/**
 * How the planner reads one message: its search terms as written (for queries
 * people can read), and the conversational signals the rules look at —
 * follow-up markers, references back (それ, that), question words. Word lists
 * here are language phrasing, never corpus vocabulary.
 */

/**
 * A search term: `text` as written (suffixes kept: 領収書, not 領収), `base` for
 * matching. `noun` is false for Japanese verbs and adjectives (届く); English
 * words have no part of speech here and count as nouns.
 */
export type Term = { text: string; base: string; noun: boolean };

export type MessageAnalysis = {
  /** Normalised, leading follow-up markers removed. */
  text: string;
  /** Tokens of `text`, with punctuation kept as `pos: 'punct'` tokens (the analyzer drops it, the compound rule needs it). */
  tokens: Token[];
  terms: Term[];
  /** Starts like a follow-up (じゃあ, あと, what about…) or ends like one (…も, too). */
  followupMarker: boolean;
  /** Points back at something already said: それ, その, that, it. */
  reference: boolean;
  /** Asks with a question word (いつ, いくら, how, when…). */
  interrogative: boolean;
};

const JA_LEADING_MARKER =
  /^(?:じゃあ|じゃ|それでは|それなら|それと|それから|では|だったら|あと|ついでに|ちなみに|ところで|また)(?:[、,]\s*|\s*)/;
const EN_LEADING_MARKER = /^(?:and|also|plus|what about|how about)\b[,\s]*/;
// (From the first space before the marker, the lookbehind: tried from each space of a long run, it was quadratic.)
const EN_TRAILING_MARKER = /(?<!\s)\s*\b(?:too|as well|also)\s*([?.!]*)$/;

// Words that carry the request, not its subject: searching for them finds nothing useful.
const FILLERS: ReadonlySet<string> = new Set([
  '質問',
  '相談',
  '情報',
  '内容',
  '詳細',
  '詳しい',
  'まとめる',
  '全部',
  '両方',
  'それぞれ',
  '具体',
  '簡単',
  '分かる',
  'わかる',
  '件',
  'help',
  'question',
  'questions',
  'info',
  'information',
  'anything',
  'something',
  'thing',
  'things',
  'hi',
  'hello',
  'hey',
  'thanks',
  'thank',
  'much',
  'many',
  'detail',
  'details',
  'explain',
  'summary',
  'summarize',
  'both',
  'everything',
]);

const INTERROGATIVES: ReadonlySet<string> = new Set([
  'いくら',
  'いつ',
  'どこ',
  '何',
  'なに',
  'なぜ',
  'どう',
  'どれ',
  'どちら',
  'どの',
  'どのくらい',
  'どれくらい',
  'how',
  'when',
  'where',
  'why',
  'what',
  'which',
  'who',
]);

const EN_REFERENCES: ReadonlySet<string> = new Set(['it', 'that', 'this', 'those', 'these', 'they', 'them', 'its']);

const BREAK = /([、,;!?。&])/;

/** The analyzer's tokens with punctuation kept as tokens of pos 'punct'. */
export function plannerTokens(analyzer: Analyzer, text: string): Token[] {
  const out: Token[] = [];
  for (const piece of normalize(text).split(BREAK)) {
    if (piece === '') continue;
    if (BREAK.test(piece)) out.push({ surface: piece, base: piece, pos: 'punct', posDetail: '', content: false, script: 'latin' });
    else out.push(...analyzer.tokens(piece));
  }
  return out;
}

/** Content tokens as search terms: suffixes and prefixes stay on their noun, fillers and question words go. */
export function termsFromTokens(tokens: Token[]): Term[] {
  const out: Term[] = [];
  let prefix = '';
  let lastPushed = -2;
  tokens.forEach((token, i) => {
    if (token.pos === '接頭詞') {
      prefix += token.surface;
      return;
    }
    if (token.pos === '名詞' && token.posDetail === '接尾' && lastPushed === i - 1) {
      const last = out[out.length - 1];
      if (last) last.text += token.surface;
      lastPushed = i;
      return;
    }
    if (token.content && !FILLERS.has(token.base) && !FILLERS.has(token.surface) && !INTERROGATIVES.has(token.surface)) {
      out.push({ text: prefix + token.surface, base: token.base, noun: token.script !== 'ja' || token.pos === '名詞' });
      lastPushed = i;
    }
    prefix = '';
  });
  return out;
}

export function termsOf(analyzer: Analyzer, text: string): Term[] {
  return termsFromTokens(plannerTokens(analyzer, text));
}

/** Reads a message for the rules; `language` decides which markers apply. */
export function analyzeMessage(analyzer: Analyzer, message: string, language: PlanLanguage): MessageAnalysis {
  let text = normalize(message);
  let followupMarker = false;
  const leading = language === 'ja' ? JA_LEADING_MARKER : EN_LEADING_MARKER;
  // Loop: "and what about…" carries two markers.
  for (let match = text.match(leading); match && match[0].length < text.length; match = text.match(leading)) {
    text = text.slice(match[0].length);
    followupMarker = true;
  }
  if (language === 'en' && EN_TRAILING_MARKER.test(text)) {
    text = text.replace(EN_TRAILING_MARKER, '$1');
    followupMarker = true;
  }
  // "how long", "how soon": the word after "how" is part of the question word, not a subject.
  const tokens = plannerTokens(analyzer, text).map((token, i, all) =>
    all[i - 1]?.surface === 'how' ? { ...token, content: false } : token,
  );
  // 「…も」 right after a noun: "返品ポリシーも知りたい" adds to what was asked before.
  if (tokens.some((token, i) => token.surface === 'も' && token.pos === '助詞' && tokens[i - 1]?.pos === '名詞')) followupMarker = true;
  return {
    text,
    tokens,
    terms: termsFromTokens(tokens),
    followupMarker,
    reference: tokens.some(isReference),
    interrogative: tokens.some((token) => INTERROGATIVES.has(token.surface) || INTERROGATIVES.has(token.base)),
  };
}

function isReference(token: Token): boolean {
  if (token.script === 'latin') return EN_REFERENCES.has(token.surface);
  // ko-so-a words (それ, その, これ, あちら) point back; the do-words (どれ, どの) ask instead.
  return (token.posDetail === '代名詞' || token.pos === '連体詞') && /^[そこあ]/.test(token.surface);
}

/** Terms in order, each base once. */
export function uniqueTerms(terms: Term[]): Term[] {
  const seen = new Set<string>();
  return terms.filter((term) => (seen.has(term.base) ? false : (seen.add(term.base), true)));
}

/** A query people can read and the search engine re-analyses: the terms as written, space-joined. */
export function queryOf(terms: Term[]): string {
  return uniqueTerms(terms)
    .map((term) => term.text)
    .join(' ');
}
