import { stemmer } from 'stemmer';
import { checkTextBudget } from './budget.js';
import { loadKuromojiTokenizer } from './kuromoji-dictionary.js';
import { tokenizeInPieces } from './pieces.js';

/**
 * Text analysis shared by the FAQ search engine and the planner: one
 * normalisation (NFKC folds full/half-width forms, lowercase, katakana long
 * vowel and iteration marks kept), Japanese morphological analysis with
 * kuromoji (IPADIC ships inside its npm package), and English words with
 * Porter stems.
 */

export type Script = 'ja' | 'latin' | 'digit';

export type Token = {
  /** As written, after normalisation. */
  surface: string;
  /** Dictionary form for Japanese (教えて → 教える), Porter stem for English (returns → return). */
  base: string;
  /** kuromoji's part of speech (名詞, 動詞, 助詞…), or 'word' / 'number' for Latin script. */
  pos: string;
  /** kuromoji's sub-category (一般, 固有名詞, 非自立…) or ''. */
  posDetail: string;
  /** Content words carry meaning for search: nouns, verbs, adjectives, numbers; not particles, auxiliaries or stop words. */
  content: boolean;
  script: Script;
  /**
   * Katakana reading of a Japanese token (領収書 → リョウシュウ + ショ, ぎふと → ギフト),
   * absent for Latin and digits. Lets search match kana-written queries against kanji text.
   */
  reading?: string;
  /** Which run of one script (split at spaces and punctuation) the token came from: tokens of different runs were not adjacent. */
  run?: number;
};

export interface Analyzer {
  tokens(text: string): Token[];
  /** The bases of the content tokens, in order (duplicates kept). */
  contentTerms(text: string): string[];
}

/** NFKC (ｶﾀｶﾅ → カタカナ, ＡＢＣ１２３ → ABC123), lowercase, one space between words. */
export function normalize(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
}

/** Hiragana → katakana (ぎふと → ギフト): the two scripts spell the same sounds, and readings are katakana. */
export function foldKana(text: string): string {
  return text.replace(/[\u3041-\u3096\u309d\u309e]/g, (kana) => String.fromCharCode(kana.charCodeAt(0) + 0x60));
}

const JA_CHAR = /[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\u3005\u3006\u30fc]/;

/** 'ja' when the text has any kana or kanji, else 'en'. */
export function detectLanguage(text: string): 'ja' | 'en' {
  return JA_CHAR.test(text) ? 'ja' : 'en';
}

export const ENGLISH_STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a an the and or but if then else of to in on at by for with about from into over under as is are was were be been being am ' +
    'do does did doing have has had having i me my we our you your he she it its they them their this that these those there here ' +
    'what which who whom whose when where why how can could should would will shall may might must not no nor so than too very ' +
    'just also any some all each both few more most other such only own same s t don doesn didn isn aren wasn weren won wouldn ' +
    'please tell know want like need get let us up out off again further once'
  ).split(/\s+/),
);

/** Japanese function words kuromoji tags as nouns or verbs but that carry no search meaning. */
const JA_STOP_BASES: ReadonlySet<string> = new Set([
  'する',
  'いる',
  'ある',
  'なる',
  'れる',
  'られる',
  'できる',
  'くださる',
  'いただく',
  'もらう',
  'おる',
  'くる',
  'いく',
  'みる',
  'こと',
  'もの',
  'の',
  'ん',
  'よう',
  'ため',
  'とき',
  'ところ',
  'これ',
  'それ',
  'あれ',
  'どれ',
  'ここ',
  'そこ',
  'どこ',
  '教える',
  '知る',
  '思う',
  '言う',
  '方',
  'について',
  'ください',
  'お願い',
  '場合',
  '何',
  'なに',
  'いつ',
  'どう',
  'どの',
  'どんな',
]);

const CONTENT_POS: ReadonlySet<string> = new Set(['名詞', '動詞', '形容詞', '形容動詞', '副詞', '接頭詞', '記号']);
const NON_CONTENT_NOUN_DETAIL: ReadonlySet<string> = new Set(['非自立', '代名詞', '接尾', '数', '副詞可能']);

// A run of Japanese script (digits inside it kept, so kuromoji reads 550円 as number + counter),
// or of other letters and digits, or one other character.
const JA_SCRIPT_CHAR = /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\u30fc\u3005\u3006]/u;
const NUMBER_CHAR = /\p{N}/u;
const WORD_CHAR = /[\p{L}\p{N}]/u;
const SPACE_CHAR = /\s/u;

/**
 * The text's runs of one script, in order (spaces dropped): a run of digits
 * and Japanese script holding some Japanese, else a run of other letters and
 * digits, else one other character. A scan rather than a regex: the regex
 * that said this retried a long row of digits from each of its positions.
 */
function scriptRuns(text: string): string[] {
  const chars = [...text];
  const runs: string[] = [];
  for (let start = 0; start < chars.length;) {
    let end = start;
    let japanese = false;
    for (; end < chars.length; end++) {
      const char = chars[end]!;
      if (JA_SCRIPT_CHAR.test(char)) japanese = true;
      else if (!NUMBER_CHAR.test(char)) break;
    }
    if (!japanese) {
      end = start;
      while (end < chars.length && WORD_CHAR.test(chars[end]!) && !JA_SCRIPT_CHAR.test(chars[end]!)) end++;
    }
    if (end > start) runs.push(chars.slice(start, end).join(''));
    else if (!SPACE_CHAR.test(chars[start]!)) runs.push(chars[start]!);
    start = Math.max(end, start + 1);
  }
  return runs;
}

/** A kuromoji (IPADIC) token as the library returns it; `word_position` is 1-based. */
export type KuromojiToken = {
  surface_form: string;
  basic_form: string;
  pos: string;
  pos_detail_1: string;
  pos_detail_2?: string;
  pos_detail_3?: string;
  conjugated_form?: string;
  reading?: string;
  word_position?: number;
};
export type KuromojiTokenizer = { tokenize(text: string): KuromojiToken[] };

let tokenizerLoading: Promise<KuromojiTokenizer> | null = null;
let loading: Promise<Analyzer> | null = null;

/**
 * kuromoji's tokenizer, its dictionary loaded once per process and shared by every user (about
 * 0.5 s unpacked by the build, 1.7 s otherwise: kuromoji-dictionary.ts).
 */
export function loadKuromoji(): Promise<KuromojiTokenizer> {
  tokenizerLoading ??= loadKuromojiTokenizer() as Promise<KuromojiTokenizer>;
  return tokenizerLoading;
}

/** The analyzer, on the shared kuromoji dictionary. */
export function loadAnalyzer(): Promise<Analyzer> {
  loading ??= loadKuromoji().then(createAnalyzer);
  return loading;
}

function createAnalyzer(ja: KuromojiTokenizer): Analyzer {
  const tokens = (text: string): Token[] => {
    const out: Token[] = [];
    // Split into runs of one script so English words inside Japanese text are stemmed as English
    // (PayPayが → paypai + が, as "PayPay" alone is), and numbers stay numbers.
    let index = 0;
    for (const run of scriptRuns(normalize(text))) {
      index++;
      checkTextBudget();
      if (JA_CHAR.test(run)) {
        // In pieces: kuromoji is quadratic in a long run of one kind of character.
        for (const { token } of tokenizeInPieces(ja, run)) out.push(japaneseToken(token, index));
      } else if (/^\p{N}+$/u.test(run)) {
        out.push({ surface: run, base: run, pos: 'number', posDetail: '', content: true, script: 'digit' });
      } else if (/^[\p{L}\p{N}]+$/u.test(run)) {
        for (const piece of run.split(/(?<=\p{N})(?=\p{L})|(?<=\p{L})(?=\p{N})/u)) {
          const isNumber = /^\p{N}+$/u.test(piece);
          out.push({
            surface: piece,
            base: isNumber ? piece : stemmer(piece),
            pos: isNumber ? 'number' : 'word',
            posDetail: '',
            content: isNumber || !ENGLISH_STOP_WORDS.has(piece),
            script: isNumber ? 'digit' : 'latin',
          });
        }
      }
    }
    return out;
  };
  return {
    tokens,
    contentTerms: (text) =>
      tokens(text)
        .filter((token) => token.content)
        .map((token) => token.base),
  };
}

function japaneseToken(token: KuromojiToken, run: number): Token {
  const surface = token.surface_form;
  const base = token.basic_form && token.basic_form !== '*' ? token.basic_form : surface;
  const script: Script = /^\p{N}+$/u.test(surface) ? 'digit' : JA_CHAR.test(surface) ? 'ja' : 'latin';
  const content =
    script === 'digit' ||
    (CONTENT_POS.has(token.pos) &&
      token.pos !== '記号' &&
      !(token.pos === '名詞' && NON_CONTENT_NOUN_DETAIL.has(token.pos_detail_1)) &&
      !JA_STOP_BASES.has(base) &&
      !/^[\u3040-\u309f]$/.test(surface));
  return { surface, base, pos: token.pos, posDetail: token.pos_detail_1, content, script, reading: readingOf(token, surface), run };
}

/** IPADIC's reading; unknown words have none, so kana surfaces stand for their own reading. */
function readingOf(token: KuromojiToken, surface: string): string {
  if (token.reading && token.reading !== '*') return token.reading;
  return foldKana(surface);
}
