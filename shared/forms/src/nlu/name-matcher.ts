import { escapeRegExp, hasJapanese, isKatakanaChar, normalizeText } from './text.js';

/** A name to look for and what it stands for (a country, a place, a language…). */
export type NameEntry<T> = { name: string; value: T };

/** One place in the text where a name was found, with every value that name stands for. */
export type NameMatch<T> = { start: number; end: number; text: string; values: T[] };

export type NameMatcherOptions = {
  /** A match immediately followed by text matching this is discarded (e.g. /^語/ so "日本語" is not "日本"). */
  rejectFollowing?: RegExp;
  /** Match short capital codes in any case too; for narrow contexts such as "which time zone?" ("pst"). */
  codesInAnyCase?: boolean;
};

type Group<T> = { name: string; pattern: RegExp; probe: string; values: T[] };

/**
 * Builds a matcher that finds names in free text, longest names first and
 * without overlaps, so "Mexico City" wins over "Mexico" and "東京都" over "京都".
 *
 * - Latin names match on word boundaries, case-insensitively — except short
 *   all-capital aliases ("US", "UK", "U.S.A."), which match only in capitals
 *   because "us" and "uk" are ordinary words.
 * - Japanese names match as substrings (Japanese has no spaces), but a name
 *   beginning or ending in katakana must not continue into more katakana, so
 *   "マリ" (Mali) is not found inside "マリオ".
 */
export function createNameMatcher<T>(entries: Iterable<NameEntry<T>>, options: NameMatcherOptions = {}): (text: string) => NameMatch<T>[] {
  const groups = new Map<string, Group<T>>();
  for (const entry of entries) {
    const name = normalizeText(entry.name);
    if (!name) continue;
    const caseSensitive = !options.codesInAnyCase && isCodeLike(name);
    const key = `${caseSensitive ? 'c' : 'i'}:${caseSensitive ? name : name.toLowerCase()}`;
    const group = groups.get(key) ?? { name, pattern: compile(name, caseSensitive), probe: name.toLowerCase(), values: [] };
    if (!group.values.includes(entry.value)) group.values.push(entry.value);
    groups.set(key, group);
  }
  const ordered = [...groups.values()].sort((a, b) => b.name.length - a.name.length);
  return (raw) => findAll(ordered, normalizeText(raw), options);
}

function findAll<T>(groups: Group<T>[], text: string, options: NameMatcherOptions): NameMatch<T>[] {
  const lower = text.toLowerCase();
  const found: NameMatch<T>[] = [];
  for (const group of groups) {
    if (!lower.includes(group.probe)) continue;
    group.pattern.lastIndex = 0;
    for (const match of text.matchAll(group.pattern)) {
      const start = match.index;
      const end = start + match[0].length;
      if (options.rejectFollowing?.test(text.slice(end))) continue;
      if (found.some((span) => start < span.end && span.start < end)) continue;
      found.push({ start, end, text: match[0], values: [...group.values] });
    }
  }
  return found.sort((a, b) => a.start - b.start);
}

/** Short all-capital aliases (US, USA, UK, U.S.) — up to three letters and no lowercase. */
function isCodeLike(name: string): boolean {
  const letters = name.replace(/[^\p{L}]/gu, '');
  return letters.length > 0 && letters.length <= 3 && letters === letters.toUpperCase() && !hasJapanese(name);
}

function compile(name: string, caseSensitive: boolean): RegExp {
  const body = escapeRegExp(name);
  if (!hasJapanese(name)) {
    return new RegExp(`(?<![\\p{L}\\p{N}])${body}(?![\\p{L}\\p{N}])`, caseSensitive ? 'gu' : 'giu');
  }
  const first = name.charAt(0);
  const last = name.charAt(name.length - 1);
  const before = isKatakanaChar(first) ? '(?<![\\p{Script=Katakana}ー・])' : '';
  const after = isKatakanaChar(last) ? '(?![\\p{Script=Katakana}ー])' : '';
  return new RegExp(`${before}${body}${after}`, 'gu');
}
