import { convertInPieces, startsKanaState } from '@convo/text';
import { toHiragana, toRomaji } from 'wanakana';
import { morphemes } from './japanese.js';
import { hasJapanese, type SessionLanguage } from './text.js';

/**
 * Japanese words written in Latin letters (和室 → washitsu, コンパクト →
 * konpakuto): how an English-language interview names a Japanese form's
 * options without pasting Japanese script, and a spelling a respondent may
 * type back. Readings come from kuromoji's dictionary, romanisation from
 * wanakana (Hepburn). Without the dictionary, kana are still romanised and
 * kanji are left out (null).
 */
export function romanize(text: string): string | null {
  if (!hasJapanese(text)) return null;
  const kana = readingOf(text) ?? text;
  if (/\p{Script=Han}/u.test(kana)) return null;
  // In pieces: wanakana recurses once per character, so a long reply's romanisation overflowed the stack.
  const roman = convertInPieces(kana, (piece) => toRomaji(piece), startsRomajiSyllable)
    .replace(/\s+/g, ' ')
    .trim();
  return roman && !hasJapanese(roman) ? roman : null;
}

/** An option as it can be shown in the session language: a Japanese option romanised for English, anything else as written. */
export function optionInLanguage(option: string, lang: SessionLanguage): string | null {
  if (lang === 'en' && hasJapanese(option)) return romanize(option);
  return option;
}

/** The reading of Japanese text in hiragana (初めて → はじめて), or null before the dictionary loads or when a kanji has none. */
export function kanaReading(text: string): string | null {
  const kana = readingOf(text);
  // In pieces: wanakana copies an array per character, so a long reply's reading took seconds.
  return kana && !/\p{Script=Han}/u.test(kana)
    ? convertInPieces(kana, (piece) => toHiragana(piece, { passRomaji: true }), startsKanaState)
    : null;
}

/**
 * Kana to romaji joins a character with the one before it: a small kana (きゃ → kya), a long-vowel mark (ー), the
 * consonant a small tsu doubles (っか → kka) and the apostrophe after ん before a vowel (んい → n'i). A piece may start
 * at a character that is none of these, after one that is neither っ nor ん.
 */
function startsRomajiSyllable(text: string, at: number): boolean {
  return !'ぁぃぅぇぉゃゅょゎァィゥェォャュョヮヵヶー'.includes(text[at]!) && !'っッんン'.includes(text[at - 1]!);
}

/** Each morpheme's dictionary reading (its surface when it has none), or null before the dictionary loads. */
function readingOf(text: string): string | null {
  const ms = morphemes(text);
  return ms ? ms.map((m) => m.reading || m.surface).join('') : null;
}
