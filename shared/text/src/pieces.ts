import { checkTextBudget } from './budget.js';

/**
 * Text cut into pieces kuromoji can tokenize in linear time. Its lattice is
 * quadratic in a run of one character class (an unknown katakana word, ーーー,
 * a row of digits or kanji): it offers a word for every span of the run, so
 * 8,000 ー took minutes. Tokenized piece by piece, a long text costs the sum of
 * small squares.
 *
 * A text up to {@link MAX_PIECE_LENGTH} with no long run is one piece, so a
 * normal message is tokenized exactly as before. A longer one is cut where
 * kuromoji would not join words anyway: after a sentence end, else after a
 * space, else after other punctuation, else where the script changes, and
 * only then anywhere. A run of one class longer than {@link MAX_RUN_LENGTH}
 * becomes pieces of its own.
 */

/** Longest piece handed to kuromoji: a few sentences, far beyond any word. */
const MAX_PIECE_LENGTH = 128;
/** Longest run of one character class in a piece: longer than any dictionary word or name. */
const MAX_RUN_LENGTH = 64;

/** A piece of a text and where it starts in it (UTF-16 offsets, as `String#slice` counts). */
type TextPiece = { text: string; start: number };

type CharClass = 'space' | 'hiragana' | 'katakana' | 'kanji' | 'digit' | 'letter' | 'sentence_end' | 'other';

/** The character classes kuromoji groups unknown words by (IPADIC char.def), coarsened. */
function charClass(code: number): CharClass {
  if (code <= 0x7f) {
    if (code >= 0x30 && code <= 0x39) return 'digit';
    if ((code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a)) return 'letter';
    if (code === 0x20 || (code >= 0x09 && code <= 0x0d)) return code === 0x0a ? 'sentence_end' : 'space';
    return code === 0x2e || code === 0x21 || code === 0x3f ? 'sentence_end' : 'other';
  }
  if (code >= 0x3041 && code <= 0x309f) return 'hiragana';
  if ((code >= 0x30a1 && code <= 0x30ff) || (code >= 0xff66 && code <= 0xff9f) || (code >= 0x31f0 && code <= 0x31ff)) return 'katakana';
  if (
    (code >= 0x4e00 && code <= 0x9fff) ||
    (code >= 0x3400 && code <= 0x4dbf) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    code === 0x3005 ||
    code === 0x3006 ||
    code === 0x3007
  )
    return 'kanji';
  if (code >= 0xff10 && code <= 0xff19) return 'digit';
  if ((code >= 0xff21 && code <= 0xff3a) || (code >= 0xff41 && code <= 0xff5a)) return 'letter';
  if (code === 0x3002 || code === 0xff01 || code === 0xff1f || code === 0xff0e || code === 0x2026) return 'sentence_end';
  if (code === 0x3000 || code === 0xa0 || (code >= 0x2000 && code <= 0x200a) || code === 0x2028 || code === 0x2029) return 'space';
  // Other letters (accented Latin, Greek, Cyrillic…) group like Latin; a surrogate half stands for its character.
  if ((code >= 0xc0 && code <= 0x24f && code !== 0xd7 && code !== 0xf7) || (code >= 0x370 && code <= 0x52f)) return 'letter';
  return 'other';
}

/** Whether a cut at `at` would split a surrogate pair (an emoji, a rare kanji). */
function splitsPair(text: string, at: number): boolean {
  const before = text.charCodeAt(at - 1);
  const after = text.charCodeAt(at);
  return before >= 0xd800 && before <= 0xdbff && after >= 0xdc00 && after <= 0xdfff;
}

/** Where the piece that starts at `start` ends (exclusive). */
function pieceEnd(text: string, start: number, maxPiece: number, maxRun: number): number {
  const limit = Math.min(text.length, start + maxPiece);
  let runStart = start;
  let runClass = charClass(text.charCodeAt(start));
  // The latest places to cut, best first: after a sentence end, after a space, after other punctuation, at a change of script.
  let afterSentence = -1;
  let afterSpace = -1;
  let afterPunctuation = -1;
  let scriptChange = -1;
  for (let at = start + 1; at < limit; at++) {
    const cls = charClass(text.charCodeAt(at));
    if (cls !== runClass) {
      // (A full stop between digits or letters is a decimal point or an abbreviation, not a sentence end.)
      if (runClass === 'sentence_end' && cls !== 'digit' && cls !== 'letter') afterSentence = at;
      else if (runClass === 'space') afterSpace = at;
      else if (runClass === 'sentence_end' || runClass === 'other') afterPunctuation = at;
      else scriptChange = at;
      runStart = at;
      runClass = cls;
    } else if (at - runStart >= maxRun) {
      // A long run of one class: the text before it is a piece, then the run goes in pieces of maxRun.
      if (runStart > start) return runStart;
      return splitsPair(text, at) ? at - 1 : at;
    }
  }
  if (limit === text.length) return limit;
  const cut = [afterSentence, afterSpace, afterPunctuation, scriptChange].find((candidate) => candidate > start) ?? limit;
  // (A class changes only between characters, so only the hard cut can fall inside a pair, and it is far from `start`.)
  return splitsPair(text, cut) ? cut - 1 : cut;
}

/**
 * `text` cut into pieces of at most `maxPiece` characters with no run of one
 * character class longer than `maxRun` (see the module comment); the pieces,
 * joined, are the text.
 */
function boundedPieces(text: string, maxPiece: number = MAX_PIECE_LENGTH, maxRun: number = MAX_RUN_LENGTH): TextPiece[] {
  if (text.length === 0) return [];
  const pieces: TextPiece[] = [];
  for (let start = 0; start < text.length;) {
    const end = pieceEnd(text, start, maxPiece, maxRun);
    pieces.push({ text: text.slice(start, end), start });
    start = end;
  }
  return pieces;
}

/** kuromoji's token fields this module needs. */
type SurfaceToken = { surface_form: string };

/** A token of {@link tokenizeInPieces} with its offsets in the whole text (end exclusive). */
export type PlacedToken<T extends SurfaceToken> = { token: T; start: number; end: number };

/**
 * kuromoji's tokens of `text`, tokenized piece by piece ({@link boundedPieces}),
 * each with its offsets in `text`. The offsets are found by walking the text:
 * kuromoji's word_position counts an emoji as one character, JavaScript as two.
 * Checks the text budget between pieces.
 */
export function tokenizeInPieces<T extends SurfaceToken>(tokenizer: { tokenize(text: string): T[] }, text: string): PlacedToken<T>[] {
  const out: PlacedToken<T>[] = [];
  for (const piece of boundedPieces(text)) {
    checkTextBudget();
    let at = 0;
    for (const token of tokenizer.tokenize(piece.text)) {
      const found = piece.text.indexOf(token.surface_form, at);
      const start = found >= 0 ? found : at;
      at = start + token.surface_form.length;
      out.push({ token, start: piece.start + start, end: piece.start + at });
    }
  }
  return out;
}

/**
 * `convert` applied to `text` piece by piece, for conversions that cost more than linear time in their input (wanakana
 * builds its result by copying an array per character, and recurses once per romaji letter). A text up to `max`
 * characters is converted whole. A longer one is cut where `cuttable(text, at)` says the conversion carries nothing
 * across `at` (the latest such place within `max`), so the pieces convert as the whole would; only where no such
 * place is within reach is a piece cut at `max` anyway. Checks the text budget between pieces.
 */
export function convertInPieces(
  text: string,
  convert: (piece: string) => string,
  cuttable: (text: string, at: number) => boolean,
  max: number = MAX_PIECE_LENGTH,
): string {
  if (text.length <= max) return convert(text);
  let out = '';
  for (let start = 0; start < text.length;) {
    let end = Math.min(text.length, start + max);
    if (end < text.length) {
      let cut = end;
      while (cut > start + 1 && (splitsPair(text, cut) || !cuttable(text, cut))) cut--;
      end = cut > start + 1 ? cut : splitsPair(text, end) ? end - 1 : end;
    }
    checkTextBudget();
    out += convert(text.slice(start, end));
    start = end;
  }
  return out;
}

/**
 * The `cuttable` of {@link convertInPieces} for katakana to hiragana (wanakana's toHiragana): the conversion carries
 * one thing forward, the kana a long-vowel mark lengthens (カー → かあ), so a piece may start at a character that sets
 * or clears it, not at ー, ・, ヶ or ヵ, which leave it as it is.
 */
export function startsKanaState(text: string, at: number): boolean {
  return !'ー・ヶヵ'.includes(text[at]!);
}
