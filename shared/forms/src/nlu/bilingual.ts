import { stemmer } from 'stemmer';
import { ENGLISH_STOP_WORDS, englishGlosses, longestHeadword } from '@convo/text';
import { overlap, retractedSpans } from './discourse.js';
import { morphemes, type Morpheme } from './japanese.js';
import { hasJapanese, normalizeText } from './text.js';

/**
 * Choices answered in the other language: an English-speaking respondent of a
 * Japanese form says "A compact car, please" for コンパクト or "a Japanese-style
 * tatami room" for 和室; a Japanese speaker of an English form writes
 * 「一般でお願いします」 for "General" or 「夜勤を希望します」 for "Night". The
 * words are read through EDICT (@convo/text's englishGlosses), never through
 * a list of our own.
 */

/** The content words of an English phrase, stemmed ("Japanese-style rooms" → japanes, style, room). */
export function contentStems(phrase: string): string[] {
  const words =
    normalizeText(phrase)
      .toLowerCase()
      .match(/[a-z0-9]+/g) ?? [];
  return [...new Set(words.filter((word) => !ENGLISH_STOP_WORDS.has(word)).map((word) => stemmer(word)))];
}

/** The reply's content words in order, stemmed, repeats kept. */
function stemSequence(text: string): string[] {
  const words =
    normalizeText(text)
      .toLowerCase()
      .match(/[a-z0-9]+/g) ?? [];
  return words.filter((word) => !ENGLISH_STOP_WORDS.has(word)).map((word) => stemmer(word));
}

function contiguous(phrase: readonly string[], sequence: readonly string[]): boolean {
  return sequence.some((_, i) => phrase.every((word, k) => sequence[i + k] === word));
}

const subset = (part: readonly string[], whole: ReadonlySet<string>): boolean => part.length > 0 && part.every((word) => whole.has(word));

type Choice = { option: string; keys: readonly string[] };

/**
 * The options a reply names in the other language, best reading first: a
 * Latin reply to Japanese options, or a Japanese reply to Latin options.
 * Empty when the reply and the options share a script or nothing matches.
 */
export function crossLanguagePicks(reply: string, choices: readonly Choice[]): string[] {
  if (hasJapanese(reply)) {
    const latin = choices.filter((choice) => !choice.keys.some(hasJapanese));
    return latin.length > 0 ? japaneseReplyPicks(reply, latin) : [];
  }
  const japanese = choices.filter((choice) => choice.keys.some(hasJapanese));
  return japanese.length > 0 ? englishReplyPicks(reply, japanese) : [];
}

/**
 * "A Japanese-style tatami room" → 和室 (japanese-style room): every content
 * word of one of the option's glosses is in the reply. An option EDICT does
 * not list whole is read by its words (一般車 → 一般 + 車), each of which must
 * be in the reply. The option whose gloss covers most of the reply's words wins.
 */
function englishReplyPicks(reply: string, choices: readonly Choice[]): string[] {
  const sequence = stemSequence(reply);
  const said = new Set(sequence);
  const scored = choices.map((choice) => ({
    option: choice.option,
    score: Math.max(0, ...choice.keys.filter(hasJapanese).map((key) => coverage(key, said, sequence))),
  }));
  const best = Math.max(0, ...scored.map((candidate) => candidate.score));
  return best > 0 ? scored.filter((candidate) => candidate.score === best).map((candidate) => candidate.option) : [];
}

/** How many reply words a gloss of the option covers; half a point more when the reply says it as one phrase ("middle school", not "grade 8 at a school"). */
function coverage(word: string, said: ReadonlySet<string>, sequence: readonly string[]): number {
  const whole = englishGlosses(word)
    .map(contentStems)
    .filter((gloss) => subset(gloss, said));
  if (whole.length > 0)
    return Math.max(...whole.map((gloss) => gloss.length + (gloss.length > 1 && contiguous(gloss, sequence) ? 0.5 : 0)));
  const parts = (morphemes(word) ?? []).filter(isContent);
  if (parts.length < 2) return 0;
  let covered = 0;
  for (const part of parts) {
    const matching = englishGlosses(part.base)
      .map(contentStems)
      .filter((gloss) => subset(gloss, said));
    if (matching.length === 0) return 0;
    covered += Math.max(...matching.map((gloss) => gloss.length));
  }
  return covered;
}

const isContent = (morpheme: Morpheme): boolean =>
  ['名詞', '動詞', '形容詞', '接頭詞'].includes(morpheme.pos) && morpheme.pos1 !== '非自立' && morpheme.pos1 !== '代名詞';

/**
 * 「一般でお願いします」 → "General", 「アパートです」 → "Apartment/Condo",
 * 「夜勤を希望します」 → "Night", 「フルグルーミングで」 → "Full Groom": a word of
 * the reply (a morpheme, a compound of neighbouring ones, or a katakana run
 * made of listed loanwords) has a gloss that is the option (first), else a
 * gloss of at most one more word that contains it.
 */
function japaneseReplyPicks(reply: string, choices: readonly Choice[]): string[] {
  const text = normalizeText(reply);
  const phrases = replyWords(text)
    .flatMap((word) => word.glosses.map(contentStems))
    .filter((gloss) => gloss.length > 0);
  const keyed = choices.flatMap((choice) =>
    choice.keys.map((key) => ({ option: choice.option, stems: contentStems(key) })).filter((entry) => entry.stems.length > 0),
  );
  const pick = (fits: (key: string[], gloss: string[]) => boolean) => [
    ...new Set(keyed.filter((entry) => phrases.some((phrase) => fits(entry.stems, phrase))).map((entry) => entry.option)),
  ];
  const exact = pick((key, gloss) => key.length === gloss.length && subset(key, new Set(gloss)));
  return exact.length > 0 ? exact : pick((key, gloss) => gloss.length <= key.length + 1 && subset(key, new Set(gloss)));
}

type ReplyWord = { at: number; glosses: string[] };

/** Words of a Japanese reply that EDICT glosses, longest compounds included; words taken back are left out. */
function replyWords(text: string): ReplyWord[] {
  const ms = morphemes(text) ?? [];
  const out: ReplyWord[] = [];
  for (let i = 0; i < ms.length; i++) {
    for (let j = Math.min(ms.length, i + 4); j > i; j--) {
      const span = ms.slice(i, j);
      const surface = span.map((morpheme) => morpheme.surface).join('');
      const whole = englishGlosses(surface);
      const glosses = whole.length > 0 ? whole : j === i + 1 ? englishGlosses(span[0]!.base) : [];
      if (glosses.length > 0 && (j > i + 1 || isContent(span[0]!))) out.push({ at: span[0]!.start, glosses });
    }
  }
  for (const match of text.matchAll(/[\p{Script=Katakana}ー]{3,}/gu)) {
    const glosses = loanwordGlosses(match[0]);
    if (glosses.length > 0) out.push({ at: match.index ?? 0, glosses });
  }
  // Words taken back (「夜勤ではなく」) name no option.
  const retracted = overlap(retractedSpans(text));
  return out.filter((word) => !retracted(word.at, word.at + 1));
}

/** A katakana run written as two or three listed loanwords (フルグルーミング = フル + グルーミング): their glosses joined. */
function loanwordGlosses(run: string): string[] {
  const whole = englishGlosses(run);
  if (whole.length > 0) return whole;
  const split = (segment: string, depth: number): string[][] | null => {
    const listed = englishGlosses(segment);
    if (listed.length > 0) return [listed.slice(0, 3)];
    if (depth === 0) return null;
    // (Only heads as long as a headword can be: trying every cut of a long run was quadratic.)
    for (let cut = Math.min(segment.length - 2, longestHeadword()); cut >= 2; cut--) {
      const head = englishGlosses(segment.slice(0, cut));
      const tail = head.length > 0 ? split(segment.slice(cut), depth - 1) : null;
      if (tail) return [head.slice(0, 3), ...tail];
    }
    return null;
  };
  const pieces = split(run, 2);
  if (!pieces) return [];
  return pieces.reduce<string[]>((acc, gs) => acc.flatMap((a) => gs.map((gloss) => `${a} ${gloss}`.trim())), ['']);
}
