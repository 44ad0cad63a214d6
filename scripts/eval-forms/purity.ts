import { nfkc } from './compare.js';

/**
 * Language purity of an assistant message: it is written in the session's
 * language, except for what the respondent typed themselves (a Japanese name
 * quoted in English, an English company name quoted in Japanese), e-mail
 * addresses and URLs.
 */

const KANA_KANJI = /[\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Han}々〆ヶ]/u;
const LATIN = /[A-Za-z]/;
const EMAIL_LOCAL = /[\w.+-]/;
const EMAIL_DOMAIN = /[\w-]+(?:\.[\w-]+)+/y;
const URL_RE = /\b(?:https?:\/\/|www\.)[^\s\u3000、。「」（）()<>]+/gi;
/** Two or more Latin words of two letters or more, separated only by spaces or hyphens: English pasted into Japanese. */
const LATIN_RUN = /(?<![A-Za-z])[A-Za-z]{2,}(?:[ -]+[A-Za-z]{2,})+(?![A-Za-z])/;

/** Replaces what would otherwise be judged with a character that belongs to no script and breaks runs. */
const BLANK = '\u0000';

/**
 * The text with each email address blanked, as replacing `[\w.+-]+@[\w-]+(?:\.[\w-]+)+` (global) did: each "@" with
 * the address characters before it (back to the last address) and a domain after it. From the "@" outwards: the regex
 * scanned a long run of word characters without an "@" from each of its positions.
 */
function blankEmails(text: string): string {
  let out = '';
  let from = 0;
  for (let at = text.indexOf('@'); at >= 0; at = text.indexOf('@', at + 1)) {
    let start = at;
    while (start > from && EMAIL_LOCAL.test(text[start - 1]!)) start--;
    if (start === at) continue;
    EMAIL_DOMAIN.lastIndex = at + 1;
    const domain = EMAIL_DOMAIN.exec(text);
    if (!domain) continue;
    const end = at + 1 + domain[0].length;
    out += text.slice(from, start) + BLANK.repeat(end - start);
    from = end;
  }
  return out + text.slice(from);
}

export function hasKanaOrKanji(text: string): boolean {
  return KANA_KANJI.test(text);
}

/**
 * Blanks every stretch of `text` that occurs verbatim (NFKC, case-insensitive)
 * in one of the respondent's messages. A stretch never ends or starts inside a
 * Latin word, so a respondent's "contact" cannot excuse half of "Contact the".
 */
export function blankRespondentText(text: string, respondent: readonly string[]): string {
  const normalized = nfkc(text);
  const low = normalized.toLowerCase();
  const hay = respondent.map((m) => nfkc(m).toLowerCase()).join(BLANK);
  if (hay === '') return normalized;
  // Code units, as the indices below are.
  const out = normalized.split('');
  let i = 0;
  while (i < normalized.length) {
    const end = longestAlignedMatch(low, hay, i);
    if (end > i) {
      for (let k = i; k < end; k++) out[k] = BLANK;
      i = end;
    } else {
      i++;
    }
  }
  return out.join('');
}

/** Longest end `j` such that low[i..j) occurs in `hay` and starts and ends on Latin word boundaries. */
function longestAlignedMatch(low: string, hay: string, i: number): number {
  if (!boundary(low, i)) return i;
  let j = i;
  while (j < low.length && hay.includes(low.slice(i, j + 1))) j++;
  while (j > i && !boundary(low, j)) j--;
  // One shared character (a particle, a punctuation mark) is coincidence, not the respondent's text being quoted.
  return (low.slice(i, j).match(/[\p{L}\p{N}]/gu) ?? []).length >= 2 ? j : i;
}

/** `position` is not strictly inside a Latin word of `text`. */
function boundary(text: string, position: number): boolean {
  return position === 0 || position === text.length || !(LATIN.test(text[position - 1]!) && LATIN.test(text[position]!));
}

/** Blanks e-mail addresses and URLs: they are Latin in every language. */
function blankAddresses(text: string): string {
  return blankEmails(text).replace(URL_RE, (m) => BLANK.repeat(m.length));
}

/**
 * True when `text` is pure in `language`:
 * - en: no kana or kanji outside text the respondent typed;
 * - ja: some kana or kanji, and no run of two or more English words outside
 *   the respondent's text, e-mail addresses and URLs.
 */
export function isPure(text: string, language: 'ja' | 'en', respondent: readonly string[]): boolean {
  if (language === 'en') {
    // The respondent's text first: an address typed in Japanese may well contain kanji.
    return !hasKanaOrKanji(blankRespondentText(text, respondent));
  }
  if (!hasKanaOrKanji(text)) return false;
  const rest = blankRespondentText(blankAddresses(nfkc(text)), respondent);
  return !LATIN_RUN.test(rest);
}

// The person filling in the form named in the third person, as form authors write facts about them.
const THIRD_PERSON_EN = /\bthe (?:respondent|applicant|attendee|registrant|participant|candidate|requester|claimant)(?:['’]s)?\b/i;
const THIRD_PERSON_JA = /回答者|応募者|申込者|申請者|候補者|参加者様?(?:の|が|は)/;
// "you your", "your your": a pronoun doubled by a rewrite.
const DOUBLED = /\b(you|your)\s+\1\b/i;
// "on you list", "for you name": "you" between a preposition and a noun stands where "your" belongs. (compromise reads
// "you list" as a pronoun and a verb, so the words that may follow "you" there are named: verbs, conjunctions, and
// the adverbs and time words that are no noun.)
const ORPHANED =
  /\b(?:on|in|for|to|from|with|at|of|by|about)\s+you\s+(?!(?:and|or|can|could|will|would|should|may|might|must|have|had|are|were|do|did|need|want|like|prefer|feel|think|know|see|get|go|come)\b)([a-z]{3,})\b/i;
// "your full name of the person who collects the child": "your" on a thing whose owner the phrase names itself.
const DOUBLE_OWNER =
  /\byour\s+(?:[a-z-]+\s){1,3}of\s+(?:the|a|an)\s+(?:person|people|child|children|adult|parent|guardian|owner|pet|patient|student|employee|member|guest|driver|company|organi[sz]ation)\b/i;
const NOT_NOUNS =
  /^(?:today|tomorrow|soon|now|again|there|here|too|already|both|all|later|first|back|directly|personally|shortly|instead)$/i;

/**
 * What a rewrite of the form's words into the second person left wrong (issue 33: "nothing internal reaches the
 * respondent"): the respondent named in the third person, a doubled pronoun, "you" where "your" belongs, "your" on a
 * thing the phrase says is someone else's ("your full name of the person who collects the child"). Text the
 * respondent typed is not looked at.
 */
export function phrasingDefects(text: string, language: 'ja' | 'en', respondent: readonly string[]): string[] {
  // (A summary line, "• label: value", quotes the form's own label.)
  const own = blankRespondentText(
    nfkc(text)
      .split('\n')
      .filter((line) => !/^\s*[・•]/.test(line))
      .join('\n'),
    respondent,
  );
  const found: string[] = [];
  if (language === 'en' ? THIRD_PERSON_EN.test(own) : THIRD_PERSON_JA.test(own)) found.push('third person');
  if (DOUBLED.test(own)) found.push('doubled pronoun');
  const orphan = ORPHANED.exec(own);
  if (orphan && !NOT_NOUNS.test(orphan[1] ?? '')) found.push('orphaned pronoun');
  if (language === 'en' && DOUBLE_OWNER.test(own)) found.push('double owner');
  return found;
}
