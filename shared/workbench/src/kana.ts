import { convertInPieces, startsKanaState } from '@convo/text';
import { isMixed, isRomaji, toHiragana, toKana } from 'wanakana';

/**
 * wanakana's toHiragana for text of any length. The library copies an array per character (16,000 kana took 7 s)
 * and recurses once per romaji letter (a few thousand overflow the stack), so a long text is converted in pieces,
 * with the mode toHiragana would choose for the whole text: katakana only, or romaji as well ("sekai" → せかい,
 * but not in a text that also holds kanji). A reading or a choice, up to 128 characters, converts as before.
 */
export function hiragana(text: string): string {
  if (isMixed(text))
    return convertInPieces(convertInPieces(text, katakanaToHiragana, startsKanaState).toLowerCase(), romajiToKana, outsideRomaji);
  if (isRomaji(text) || startsWithEnglishPunctuation(text)) return convertInPieces(text.toLowerCase(), romajiToKana, outsideRomaji);
  return convertInPieces(text, katakanaToHiragana, startsKanaState);
}

const katakanaToHiragana = (piece: string) => toHiragana(piece, { passRomaji: true });
const romajiToKana = (piece: string) => toKana(piece);

/**
 * Romaji to kana reads ASCII, Hepburn macrons and curly quotes in runs (kka → っか, n' → ん): a piece may start after
 * a space, which ends any run, or between two other characters.
 */
function outsideRomaji(text: string, at: number): boolean {
  return text[at - 1] === ' ' || (!romajiLike(text.charCodeAt(at - 1)) && !romajiLike(text.charCodeAt(at)));
}

function romajiLike(code: number): boolean {
  return code <= 0x7f || (code >= 0x100 && code <= 0x17f) || (code >= 0x2018 && code <= 0x201d);
}

/** wanakana's test on the first character that sends a text through romaji conversion: English punctuation. */
function startsWithEnglishPunctuation(text: string): boolean {
  const code = text.charCodeAt(0);
  return (
    (code >= 0x20 && code <= 0x2f) ||
    (code >= 0x3a && code <= 0x3f) ||
    (code >= 0x5b && code <= 0x60) ||
    (code >= 0x7b && code <= 0x7e) ||
    code === 0x2018 ||
    code === 0x2019 ||
    code === 0x201c ||
    code === 0x201d
  );
}
