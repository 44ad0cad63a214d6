import { loadKuromoji, tokenizeInPieces, type KuromojiTokenizer } from '@convo/text';

/**
 * Japanese morphology for the interview rules: kuromoji's IPADIC tags with
 * their offsets in the text that was analysed. The rules read what the
 * dictionary knows (a surname and a given name, a counter after a numeral, a
 * negative auxiliary, a conjunctive particle) instead of keeping word lists.
 *
 * The dictionary loads once per process (about 0.5 s, shared with the FAQ
 * analyser); until {@link preloadJapanese} has resolved, {@link morphemes}
 * returns null and every caller falls back to script runs.
 */

export type Morpheme = {
  surface: string;
  /** Dictionary form (使いません → 使う), or the surface when IPADIC has none. */
  base: string;
  /** 名詞, 動詞, 助詞, 助動詞… */
  pos: string;
  /** IPADIC's three sub-categories (固有名詞 / 人名 / 姓), '*' when unused. */
  pos1: string;
  pos2: string;
  pos3: string;
  /** 基本形, 連用形, 未然形… ('*' for words that do not conjugate). */
  conjugation: string;
  /** Katakana reading, or '' when unknown. */
  reading: string;
  /** Offsets in the analysed text (end exclusive). */
  start: number;
  end: number;
};

let tokenizer: KuromojiTokenizer | null = null;
let loading: Promise<void> | null = null;

/** Loads the dictionary; safe to call many times. */
export function preloadJapanese(): Promise<void> {
  loading ??= loadKuromoji().then((t) => {
    tokenizer = t;
  });
  return loading;
}

/**
 * A service that reads answers loads the dictionary before it is ready (`readsAnswers`); one that
 * does not should never get here. If one does, the caller falls back to script runs this once, the
 * dictionary starts loading for the next call, and the process says so (a warning on stderr), so a
 * service that needs the dictionary is found instead of reading Japanese worse in silence. Also
 * content.ts's, whose analyser loads with this dictionary.
 */
export function dictionaryMissing(loadStarted: boolean, load: () => Promise<unknown>): void {
  if (loadStarted) return;
  process.emitWarning('Japanese was read before its dictionary was loaded: this service should warm up with readsAnswers', {
    code: 'CONVO_DICTIONARY_NOT_LOADED',
  });
  void load();
}

/** Whether {@link morphemes} can answer now. */
export function japaneseReady(): boolean {
  return tokenizer !== null;
}

// The rules of one review read the same answer's morphemes a dozen times: the last few texts' are kept.
const recent = new Map<string, readonly Morpheme[]>();
const RECENT_TEXTS = 8;

/** The morphemes of `text` (offsets into `text` as given), or null before the dictionary is loaded. */
export function morphemes(text: string): Morpheme[] | null {
  if (!tokenizer) {
    dictionaryMissing(loading !== null, preloadJapanese);
    return null;
  }
  let found = recent.get(text);
  if (!found) {
    found = analyse(tokenizer, text);
    if (recent.size >= RECENT_TEXTS) recent.delete(recent.keys().next().value!);
    recent.set(text, found);
  }
  // A copy of the list and of each morpheme: callers own what they get.
  return found.map((morpheme) => ({ ...morpheme }));
}

function analyse(tokenizer: KuromojiTokenizer, text: string): Morpheme[] {
  // In pieces: kuromoji is quadratic in a long run of one kind of character (8,000 ー took minutes).
  return tokenizeInPieces(tokenizer, text).map(({ token: t, start, end }) => ({
    surface: t.surface_form,
    base: t.basic_form && t.basic_form !== '*' ? t.basic_form : t.surface_form,
    pos: t.pos,
    pos1: t.pos_detail_1 ?? '*',
    pos2: t.pos_detail_2 ?? '*',
    pos3: t.pos_detail_3 ?? '*',
    conjugation: t.conjugated_form ?? '*',
    reading: t.reading && t.reading !== '*' ? t.reading : '',
    start,
    end,
  }));
}

/**
 * A Japanese text that ends in a verb's plain dictionary form (「…大きな分類で記録する」, 「経験を聞く」): the way a
 * form's author writes a note to the staff. Text meant for a respondent ends politely (です, ます, ください) or in a
 * noun. False before the dictionary has loaded.
 */
export function endsInPlainVerb(text: string): boolean {
  const last = text
    .split(/[。．.！!？?]/)
    .map((sentence) => sentence.trim().replace(/[）)]$/u, ''))
    .findLast((sentence) => sentence.length > 0);
  if (!last) return false;
  const final = (morphemes(last) ?? []).filter((morpheme) => morpheme.pos !== '記号').at(-1);
  return final !== undefined && final.pos === '動詞' && final.conjugation === '基本形';
}
