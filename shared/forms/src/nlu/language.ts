import { withinTextBudget } from '@convo/text';
import { ENGLISH_COMMON_WORDS } from './english-words.js';
import { createNameMatcher, type NameEntry, type NameMatch } from './name-matcher.js';
import { latinWords, normalizeText, scriptCounts, trimPunctuation, type SessionLanguage } from './text.js';

export type { SessionLanguage } from './text.js';

/**
 * What a reply to "which language?" asks for: `language` when it is one the
 * interview can be held in; otherwise `requested` carries the ISO 639 code of
 * a recognised but unsupported language (e.g. "fr"), so the caller can offer
 * Japanese or English instead.
 */
export type LanguageChoice = { language: SessionLanguage | null; requested: string | null };

const SUPPORTED: readonly SessionLanguage[] = ['ja', 'en'];

/** Readings ICU does not carry: how people type the two names in kana or romaji. */
const READINGS: ReadonlyArray<NameEntry<string>> = [
  { name: 'にほんご', value: 'ja' },
  { name: 'ニホンゴ', value: 'ja' },
  { name: 'nihongo', value: 'ja' },
  { name: 'えいご', value: 'en' },
  { name: 'エイゴ', value: 'en' },
  { name: 'eigo', value: 'en' },
];

/** Replies that are just a code: "EN", "ja", "jpn". */
const CODE_REPLIES: Readonly<Record<string, SessionLanguage>> = { en: 'en', eng: 'en', ja: 'ja', jp: 'ja', jpn: 'ja' };

// A mention followed by "ではなく" / "以外", or preceded by "not", is a language the respondent does not want.
const NEGATED_AFTER = /^\s*(?:では|じゃ)(?:なく|ない)|^\s*以外|^\s*は(?:苦手|話せ|できません)/;
const NEGATED_BEFORE = /\b(?:not|no|don't speak|can't speak|cannot speak|not in)\s+(?:in\s+)?$/i;

let matcher: ((text: string) => NameMatch<string>[]) | null = null;

/**
 * Understands a reply to "which language would you like?": language names in
 * English, Japanese or the language itself ("French", "フランス語",
 * "Français"), kana readings ("にほんご"), bare codes ("EN", "ja"). Without a
 * name it falls back to the script: Japanese text means Japanese; Latin text
 * means English only when it reads as an English reply ("hi", "ok").
 */
export function detectLanguageChoice(text: string): LanguageChoice {
  return withinTextBudget(() => languageChoice(text));
}

function languageChoice(text: string): LanguageChoice {
  const normalized = normalizeText(text);
  const bare = trimPunctuation(normalized.replace(/\bplease\b/gi, '')).toLowerCase();
  const code = CODE_REPLIES[bare];
  if (code) return { language: code, requested: null };

  const named = fromNames(normalized);
  if (named) return named;

  const script = scriptLanguage(normalized);
  if (script === 'ja') return { language: 'ja', requested: null };
  if (script === 'en' && looksLikeEnglish(normalized)) return { language: 'en', requested: null };
  return { language: null, requested: null };
}

/**
 * The language a text's script suggests: mostly kana/kanji → 'ja', mostly
 * Latin letters → 'en', otherwise (digits, emoji, other scripts, a tie) null.
 */
export function scriptLanguage(text: string): SessionLanguage | null {
  const { japanese, latin } = scriptCounts(text);
  const total = japanese + latin;
  if (total === 0) return null;
  if (japanese / total > 0.5) return 'ja';
  if (latin / total > 0.5) return 'en';
  return null;
}

function fromNames(text: string): LanguageChoice | null {
  const mentions = languageMatcher()(text);
  if (mentions.length === 0) return null;
  const negated = (mention: NameMatch<string>) =>
    NEGATED_AFTER.test(text.slice(mention.end)) || NEGATED_BEFORE.test(text.slice(0, mention.start));
  const wanted = mentions.filter((mention) => !negated(mention)).flatMap((mention) => mention.values);
  const supported = wanted.find((code): code is SessionLanguage => (SUPPORTED as readonly string[]).includes(code));
  if (supported) return { language: supported, requested: null };
  const other = wanted[0];
  if (other) return { language: null, requested: other };
  // "Not Japanese" with only two languages on offer means the other one.
  const refused = new Set(mentions.flatMap((mention) => mention.values));
  const remaining = SUPPORTED.filter((language) => !refused.has(language));
  return remaining.length === 1 && refused.size === 1 ? { language: remaining[0] ?? null, requested: null } : null;
}

function looksLikeEnglish(text: string): boolean {
  const words = latinWords(text);
  if (words.length === 0) return false;
  const known = words.filter((word) => ENGLISH_COMMON_WORDS.has(word)).length;
  return known / words.length >= 0.5;
}

function languageMatcher(): (text: string) => NameMatch<string>[] {
  matcher ??= createNameMatcher([...icuLanguageNames(), ...READINGS]);
  return matcher;
}

/**
 * Every two-letter language ICU knows, by its English, Japanese and native
 * name; plus what every one of those languages calls Japanese and English
 * ("anglais", "Englisch", "日语"), so a reply in a third language still works.
 */
function icuLanguageNames(): NameEntry<string>[] {
  const en = new Intl.DisplayNames('en', { type: 'language', fallback: 'none' });
  const ja = new Intl.DisplayNames('ja', { type: 'language', fallback: 'none' });
  const out: NameEntry<string>[] = [];
  for (const raw of twoLetterCodes()) {
    const english = safeOf(en, raw);
    if (!english) continue;
    const code = canonicalLanguage(raw);
    const own = ownDisplayNames(raw);
    for (const name of [english, safeOf(ja, raw), own && safeOf(own, raw)]) addName(out, name, code);
    for (const target of SUPPORTED) addName(out, own && safeOf(own, target), target);
  }
  return out;
}

function addName(out: NameEntry<string>[], name: string | undefined | null, code: string): void {
  // Parenthesised variants ("Serbian (Latin)") and very short names ("Yi") only cause false matches.
  if (!name || name.includes('(') || [...name].length < 2 || (/^[\p{Script=Latin}\s'-]+$/u.test(name) && name.length < 3)) return;
  out.push({ name, value: code });
}

function* twoLetterCodes(): Generator<string> {
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  for (const first of letters) for (const second of letters) yield first + second;
}

function canonicalLanguage(code: string): string {
  try {
    return new Intl.Locale(Intl.getCanonicalLocales(code)[0] ?? code).language;
  } catch {
    return code;
  }
}

function ownDisplayNames(code: string): Intl.DisplayNames | null {
  try {
    return new Intl.DisplayNames(code, { type: 'language', fallback: 'none' });
  } catch {
    return null;
  }
}

function safeOf(names: Intl.DisplayNames, code: string): string | undefined {
  try {
    return names.of(code);
  } catch {
    return undefined;
  }
}
