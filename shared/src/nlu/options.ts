import { ENGLISH_COMMON_WORDS, ENGLISH_VAGUE_WORDS } from './english-words.js';
import { normalizeText, trimPunctuation } from './text.js';

/**
 * Choices: the options a form lists in its own words, and which one a reply
 * picks. Forms write lists in a few conventional shapes — "(S/M/L/XL)",
 * 「午前・午後・夜間」, "one of S, M, L, XL", "Morning, afternoon or evening" —
 * and people answer with the option, a sentence around it ("Medium (M)",
 * 「Mサイズです」), the word an abbreviation stands for ("medium"), or a
 * longer form of it ("afternoons").
 */

const ITEM_MAX_CHARS = 24;
const ITEM_MAX_WORDS = 3;

// A list inside brackets: (S/M/L/XL), （午前・午後・夜間）, [A, B, C], 「はい・いいえ」.
const BRACKETED = /[(（[［「『]([^()（）[\]［］「」『』]{1,120})[)）\]］」』]/g;
// A run joined by slashes or middle dots outside brackets: S/M/L/XL, 午前・午後・夜間.
const JOINED_RUN = /(?<![\p{L}\p{N}])[\p{L}\p{N}][\p{L}\p{N}+\- ]{0,20}(?:\s*[/／・]\s*[\p{L}\p{N}][\p{L}\p{N}+\- ]{0,20})+/gu;
// "one of A, B, C", "either A or B", "choose from: A, B or C", "A、B、Cのいずれか", "AかB".
const CUE_EN = /\b(?:one of|either|choose(?: one)?(?: from)?|select(?: one)?(?: from)?|pick(?: one)?(?: from)?|options?(?: are)?|among)\s*:?\s*(.+)$/i;
const CUE_JA = /(.+?)(?:の|から)?(?:いずれか|どれか|どちらか|中から|うちから|から選|から一つ|から1つ|を選)/;

/**
 * The options listed in any of the texts (the first list found), each as the
 * form writes it. Numbers-only pieces (dates such as 3/3/2025, ratios) and
 * "and/or" are not lists, and neither is prose such as "their job, studies
 * or experience": without brackets, slashes, middle dots or a cue ("one of",
 * 「いずれか」) a list of alternatives describes what counts, not what to pick.
 */
export function listedOptions(texts: readonly string[]): string[] {
  return findOptions(texts).options;
}

/**
 * {@link listedOptions}, and whether the list is strict. A list set apart as
 * a list (brackets, slashes, middle dots) or of short codes ("S, M, L, XL")
 * is what the answer must be; a list of words named in prose ("one of work,
 * studies or experience", 「仕事、専攻、経験のいずれか」) may instead describe
 * what kind of answer counts, so a reply that names none of them is judged
 * as free text rather than refused.
 */
export function findOptions(texts: readonly string[]): { options: string[]; strict: boolean } {
  for (const raw of texts) {
    const t = normalizeText(raw);
    for (const m of t.matchAll(BRACKETED)) {
      const items = splitItems(m[1] ?? '');
      if (isList(items)) return { options: items, strict: true };
    }
    for (const m of t.matchAll(JOINED_RUN)) {
      const items = splitItems(m[0]);
      if (isList(items)) return { options: items, strict: true };
    }
    const cueEn = CUE_EN.exec(t);
    const cueJa = cueEn ? null : CUE_JA.exec(t);
    const listed = cueEn?.[1] ? cueEn[1].replace(/[.。]$/, '') : cueJa?.[1] ? cueJa[1].replace(/^.*[はをにでが：:]/, '') : null;
    if (listed) {
      const items = splitItems(listed);
      if (isList(items)) return { options: items, strict: items.every((i) => /^[\p{Lu}\d][\p{Lu}\d+-]{0,3}$/u.test(i) || /\d/.test(i)) };
    }
  }
  return { options: [], strict: true };
}

function splitItems(s: string): string[] {
  return s
    .split(/\s*(?:[/／・、，,|]|\bor\b|\bor\s+|または|もしくは|あるいは|か(?=[^\s]{1,12}(?:$|[・、か]))|\band\b)\s*/i)
    .map((x) => trimPunctuation(x.replace(/^(?:either|one of)\s+/i, '')))
    .filter((x) => x.length > 0);
}

function isList(items: string[]): boolean {
  if (items.length < 2 || items.length > 20) return false;
  if (new Set(items.map((i) => i.toLowerCase())).size !== items.length) return false;
  return items.every(
    (i) => [...i].length <= ITEM_MAX_CHARS && i.split(/\s+/).length <= ITEM_MAX_WORDS && !/^[\d\s.:-]+$/.test(i) && !/^(?:etc|など|等)$/i.test(i),
  );
}

const YES = /^(?:yes|y|はい|有|あり|有り|する|ある)$/i;
const NO = /^(?:no|n|いいえ|無|なし|無し|しない|ない)$/i;

/** True when the options are a yes/no pair ("Yes/No", 「はい・いいえ」, 「有・無」). */
export function yesNoOptions(options: readonly string[]): boolean {
  return options.length === 2 && options.some((o) => YES.test(o.trim())) && options.some((o) => NO.test(o.trim()));
}

export type OptionMatch = { option: string } | { ambiguous: string[] } | null;

/**
 * The option a reply picks, or the options it could mean, or null. In order:
 * the option as a whole word of the reply (a longer option inside which a
 * shorter one sits wins: "XL" is not "L"); else an option that a content word
 * of the reply begins with or abbreviates ("afternoons" → "Afternoon",
 * "medium" → "M"); else the reply as the option's initials ("M" → "Medium").
 * Options named after "not" / 「ではなく」 are dropped.
 */
export function matchOption(reply: string, options: readonly string[], echo: readonly string[] = []): OptionMatch {
  const text = normalizeText(reply).toLowerCase();
  const opts = options.map((o) => ({ option: o, key: normalizeText(o).toLowerCase() }));
  const whole = opts.filter((o) => o.key === trimPunctuation(text));
  if (whole.length === 1 && whole[0]) return { option: whole[0].option };

  const spans: Array<{ option: string; start: number; end: number }> = [];
  for (const o of opts) for (const at of occurrences(text, o.key)) spans.push({ option: o.option, start: at, end: at + o.key.length });
  const outer = spans.filter((s) => !spans.some((t) => t !== s && t.start <= s.start && t.end >= s.end && t.end - t.start > s.end - s.start));
  const kept = outer.filter((s) => !negatedBefore(text, s.start));
  const direct = distinct(kept.map((s) => s.option));
  if (direct.length === 1 && direct[0]) return { option: direct[0] };
  if (direct.length > 1) return { ambiguous: direct };

  // Words of the question itself ("shirt" in "T-shirt size") pick nothing.
  const echoed = new Set(echo.flatMap((e) => normalizeText(e).toLowerCase().match(/\p{Script=Latin}+/gu) ?? []));
  const words = contentWords(text).filter((w) => !echoed.has(w));
  const picks = words.flatMap((w) => opts.filter((o) => wordPicks(w, o.key)).map((o) => ({ w, option: o.option })));
  const byWord = distinct(picks.map((p) => p.option));
  if (byWord.length === 1 && byWord[0]) return { option: byWord[0] };
  // Several: the first word that names one is the answer ("Medium, since my last one was tight").
  const first = picks.find((p) => !negatedBefore(text, text.indexOf(p.w)));
  if (first && byWord.length > 1 && picks.filter((p) => p.w === first.w).length === 1) return { option: first.option };
  if (byWord.length > 1) return { ambiguous: byWord };

  const initials = trimPunctuation(text).replace(/\s+/g, '');
  if (/^\p{L}{1,3}$/u.test(initials)) {
    const byInitials = opts.filter((o) => initialsOf(o.key) === initials || o.key.startsWith(initials)).map((o) => o.option);
    if (byInitials.length === 1 && byInitials[0]) return { option: byInitials[0] };
  }
  return null;
}

/** Where `key` occurs in `text` as a whole word (Latin and digits) or as a substring (Japanese). */
function occurrences(text: string, key: string): number[] {
  if (!key) return [];
  const out: number[] = [];
  const latinEdges = /^[\p{Script=Latin}\p{N}]/u.test(key) || /[\p{Script=Latin}\p{N}]$/u.test(key);
  for (let at = text.indexOf(key); at >= 0; at = text.indexOf(key, at + 1)) {
    const before = text.charAt(at - 1);
    const after = text.charAt(at + key.length);
    // "I'm" is not the option "M": an apostrophe joins letters into one word.
    const wordChar = /[\p{Script=Latin}\p{N}']/u;
    if (latinEdges && ((before && wordChar.test(before)) || (after && wordChar.test(after)))) continue;
    out.push(at);
  }
  return out;
}

function negatedBefore(text: string, at: number): boolean {
  const before = text.slice(Math.max(0, at - 12), at);
  const after = text.slice(at, at + 30);
  return /\b(?:not|no|never|except)\s+(?:[^\s,;、。]+\s+)?$/.test(before) || /^[^、。,.]{0,12}(?:ではなく|じゃなく|ではありません|じゃない)/.test(after);
}

function contentWords(text: string): string[] {
  return (text.match(/\p{Script=Latin}[\p{Script=Latin}'-]*/gu) ?? []).filter(
    (w) => w.length >= 2 && !ENGLISH_COMMON_WORDS.has(w) && !ENGLISH_VAGUE_WORDS.has(w),
  );
}

/** "afternoons" picks "afternoon"; "medium" picks "m" (the word the letter abbreviates); "full" does not pick "full-time". */
function wordPicks(word: string, option: string): boolean {
  if (!/^\p{Script=Latin}/u.test(option)) return false;
  if (/^\p{L}{1,3}$/u.test(option)) return word.length > option.length && word.startsWith(option.charAt(0)) && option.length === 1;
  const stem = option.replace(/[\s-]+/g, '');
  const w = word.replace(/-/g, '');
  return stem.length >= 4 && (w === stem || (w.startsWith(stem) && w.length - stem.length <= 3) || (stem.startsWith(w) && w.length >= Math.max(4, stem.length - 2)));
}

function initialsOf(option: string): string {
  return option
    .split(/[\s-]+/)
    .map((w) => w.charAt(0))
    .join('');
}

function distinct(xs: string[]): string[] {
  return [...new Set(xs)];
}
