import nlp from 'compromise';
import { blankRetracted, preferAsserted } from './discourse.js';
import { admitsNotKnowing, isUndecided } from './answer-intent.js';
import { ENGLISH_COMMON_WORDS, ENGLISH_VAGUE_WORDS } from './english-words.js';
import { morphemes } from './japanese.js';
import { escapeRegExp, normalizeText, trimPunctuation, trimSentence } from './text.js';
import { kanaReading, romanize } from './transliterate.js';
import { crossLanguagePicks } from './bilingual.js';
import { meridiemPicks, timeSlotPicks } from './time-values.js';
import { weekdayNamed } from './date-values.js';
import { paraphrasePicks, sharedCharacterPicks } from './paraphrase.js';

/**
 * Choices: the options a form lists in its own words, and which one a reply
 * picks.
 *
 * Forms set a list of options apart in a few conventional ways, and only
 * those make a list: an explicit cue ("one of", "either", "choose from",
 * 「のいずれか」「のどれか」「から一つ」), brackets or slashes ("(S/M/L/XL)",
 * 「参加種目（5km・10km・ハーフ）」), quoted items (「午前のみ」「午後まで」), a
 * colon before an enumeration, or a text that is nothing but the list
 * ("S, M, L or XL", 「要・不要」). Everything else that merely joins words —
 * 「理由・きっかけ」, 「アレルギー・持病・性格など」, "lost or damaged", "years
 * or dates" — names what the fact is about, not values to pick from: in
 * Japanese 「・」 joins nouns ("and") far more often than it offers choices.
 * An "A, B or C" run in prose without a cue is a soft list: a reply naming
 * one option picks it, a reply naming none is judged as free text.
 *
 * Options are cleaned of the descriptions forms put next to them ("Day
 * (6am–2:30pm)", 「軽自動車（4人乗り）」, "A = Kubernetes", 「午前のみ＝11:30まで」);
 * those descriptions are kept as aliases a reply may use instead.
 */

// Separators with the spaces around them are written `(?<!\s)\s*SEP\s*|SEP\s*`, not `\s*SEP\s*`: the same
// matches, but the spaces are taken from the first of them (or, after a match that took them, none), so a long run
// of spaces is not scanned again from each of its positions.

export type OptionList = {
  options: string[];
  /** A list set apart as a list (cue, brackets, slashes, quotes, whole text); false for prose "A, B or C". */
  strict: boolean;
  /** Whether the list came with an explicit choice cue ("one of", 「のいずれか」, a colon): it overrides a typed kind. */
  cued: boolean;
  /** Descriptions the form gives for options, by option. */
  aliases: Record<string, string[]>;
};

const NO_LIST: OptionList = { options: [], strict: true, cued: false, aliases: {} };

const ITEM_MAX_CHARS = 32;
const ITEM_MAX_WORDS = 4;

const CUE_EN =
  /\b(?:one of|either|choose|select|pick|options?|choices?|among)\b(?:\s+(?:one|from|between|the following|are|is))*(?:\s*:)?\s*$/i;
// 「…のどちらですか」「…のどれにしますか」: which one, asked as a question, is a cue as well.
// The words that ask for one of a list (「どちらでも」 is "either", an answer, not a cue).
const WHICH_JA = String.raw`いずれか|どれか|どちら(?!でも)`;
const PICK_JA = String.raw`から(?:一つ|1つ|ひとつ|選|お選び)|の中から|を選`;
const CUE_JA_NEAR = new RegExp(String.raw`^[^。]{0,10}?(?:${WHICH_JA}|どれ(?=[でにがをか])|のうち|${PICK_JA})`);
const CUE_JA_AFTER = new RegExp(
  String.raw`^\s*(?:の)?(?:${WHICH_JA}|どれ(?=[でにがをか])|[0-9０-９一二三四五六七八九十]+(?:つ|種類|項目|択)|うち(?:から|の)?(?:一つ|1つ|ひとつ|いずれか|どれか)?|${PICK_JA}|より選|で選)`,
);
// The list before its cue: 「（英語・数学・国語から1つ）」, 「午前・午後のいずれか」.
const LIST_BEFORE_CUE_JA = new RegExp(String.raw`^(.*?)(?:の)?(?:${WHICH_JA}|うち|${PICK_JA}|より選)`);
// "e.g.", 「など」: examples of what counts, never the allowed values.
const EXAMPLES = /\b(?:e\.?g\.?|for example|such as|like|including)\s*$|例えば|たとえば|例：|例:/i;

/** The options listed in any of the texts (the strongest list found). */
export function listedOptions(texts: readonly string[]): string[] {
  return findOptions(texts).options;
}

/**
 * Option lists found per form text. A form's texts do not change, but every
 * step reads the lists of its fields again: parsing them once per process
 * keeps a step's cost from growing with the form (a 200-field form spent a
 * fifth of each turn here). Bounded: cleared when full.
 */
const optionCache = new Map<string, OptionList>();
const OPTION_CACHE_MAX = 5_000;

/** {@link listedOptions} with the list's strength and the options' aliases. */
export function findOptions(texts: readonly string[]): OptionList {
  const key = texts.join('\u0000');
  let cached = optionCache.get(key);
  if (!cached) {
    if (optionCache.size >= OPTION_CACHE_MAX) optionCache.clear();
    cached = parseOptions(texts);
    optionCache.set(key, cached);
  }
  // Callers own what they get: a copy, so the cached list cannot be changed through it.
  return {
    ...cached,
    options: [...cached.options],
    aliases: Object.fromEntries(Object.entries(cached.aliases).map(([option, names]) => [option, [...names]])),
  };
}

function parseOptions(texts: readonly string[]): OptionList {
  const found = texts.flatMap((raw, order) => {
    // Whole offers are read from the form's own characters (「／」, "–"): an option is stored as the form writes it.
    const long = longItemList(withoutExamples(raw.replace(/\s+/g, ' ').trim()));
    // (Plain words set apart by 「、」 may be topics as much as offers: such a list is a soft one.)
    const lists = long ? [{ options: long.items, strict: long.strong, cued: long.strong }] : [];
    return [...lists, ...listsIn(normalizeText(raw))].map((list) => ({ ...list, order }));
  });
  if (found.length === 0) return NO_LIST;
  const rank = (list: (typeof found)[number]) => (list.cued ? 0 : list.strict ? 1 : 2) * 100 + list.order;
  const best = [...found].sort((a, b) => rank(a) - rank(b))[0]!;
  const aliases = aliasesFor(best.options, texts);
  // A cued list that closes with a catch-all ("Other", 「その他」) offers a closed set: whatever is not listed goes there.
  const closed = best.cued && best.options.some((option) => CATCH_ALL_OPTION.test(option.trim()));
  return { options: best.options, strict: best.strict || closed, cued: best.cued, aliases };
}

type Found = { options: string[]; strict: boolean; cued: boolean };

const CATCH_ALL_OPTION = /^(?:others?|something else|その他|そのほか)$/i;

// Examples of what counts ("e.g. Python, Go or Rust", 「アレルギー・持病など」, 「例えば…」) are never the allowed values:
// a cue and the rest of its sentence, or a stretch ending in 「など」「等」 that no sentence end or bracket interrupts.
const EXAMPLE_CUE =
  /\b(?:e\.\s?g\.?|for example|for instance|such as|including)[^.。!?！？\n]*|(?:例えば|たとえば|例：|例:)[^。！？\n]*/iuy;
const EXAMPLE_END = /(?:など|等)(?![\p{L}])/gu;
const EXAMPLE_BOUND = /[。\n（(「『]/gu;

function nextMatch(pattern: RegExp, text: string, from: number): { index: number; end: number } | null {
  pattern.lastIndex = from;
  const found = pattern.exec(text);
  return found ? { index: found.index, end: found.index + found[0].length } : null;
}

/**
 * The text without its examples ("e.g. …", 「…など」), each replaced by a space: they show what counts, they never
 * type a fact. What one regex replaced (`cue…|[^。\n（(「『]*?(?:など|等)`), as a scan: from each place, the regex
 * looked for a 「など」 ahead again, so a long text without one was quadratic; the next 「など」 and the next
 * boundary are found once and kept until the scan passes them.
 */
export function withoutExamples(text: string): string {
  let out = '';
  let copied = 0;
  let end = nextMatch(EXAMPLE_END, text, 0);
  let bound = nextMatch(EXAMPLE_BOUND, text, 0);
  for (let at = 0; at < text.length;) {
    EXAMPLE_CUE.lastIndex = at;
    const cue = EXAMPLE_CUE.exec(text);
    if (end && end.index < at) end = nextMatch(EXAMPLE_END, text, at);
    if (bound && bound.index < at) bound = nextMatch(EXAMPLE_BOUND, text, at);
    const stretchEnd = cue ? at + cue[0].length : end && (!bound || end.index < bound.index) ? end.end : -1;
    if (stretchEnd > at) {
      out += `${text.slice(copied, at)} `;
      copied = at = stretchEnd;
    } else at += text.codePointAt(at)! > 0xffff ? 2 : 1;
  }
  return out + text.slice(copied);
}

/** Every list in one text, by the conventions above. */
function listsIn(raw: string): Found[] {
  const text = withoutExamples(raw);
  const out: Found[] = [];
  // Quoted or slashed items are options as written (「一人で帰宅」); a phrase in a 「・」 list is prose.
  const add = (items: string[], strict: boolean, cued: boolean, phrasesAllowed = false) => {
    const clean = items.map(cleanItem).filter((item) => item.length > 0);
    if (isList(clean, phrasesAllowed)) out.push({ options: clean, strict, cued });
  };
  // Brackets: (S/M/L/XL), (A, B or C), （5km・10km・ハーフマラソン） — a 「・」 list only when it closes the text.
  for (const bracketMatch of text.matchAll(/[(（[［]([^()（）[\]［］]{1,120})[)）\]］]/g)) {
    const inner = bracketMatch[1] ?? '';
    // "(piano, safe, hot tub, artwork, aquarium...)": a list left open is examples.
    if (EXAMPLES.test(inner) || EXAMPLES.test(text.slice(0, bracketMatch.index)) || /など|等|\betc\b|(?:(?<!\.)\.{2,}|…)\s*$/.test(inner))
      continue;
    const atEnd = trimPunctuation(text.slice(bracketMatch.index + bracketMatch[0].length)) === '';
    // 「（英語・数学・国語から1つ）」: the cue may sit inside the brackets.
    const innerCue = LIST_BEFORE_CUE_JA.exec(inner);
    if (innerCue?.[1] && /・|、/.test(innerCue[1])) {
      add(splitItems(innerCue[1]), true, true);
      continue;
    }
    const cued = CUE_JA_AFTER.test(text.slice(bracketMatch.index + bracketMatch[0].length));
    // A comma list in brackets without "or" ("(live demo, slides, hands-on)", 「(4名様以上、室料なし)」) describes; it offers
    // choices with a slash, an "or" or a cue.
    const innerItems = splitItems(inner).map(cleanItem);
    const offers =
      /[/／|]/.test(inner) ||
      /\bor\b|または|もしくは/.test(inner) ||
      cued ||
      codes(innerItems) ||
      innerItems.every((item) => /^\p{Lu}/u.test(item)) ||
      (atEnd && /[\p{Script=Han}\p{Script=Katakana}\p{Script=Hiragana}]/u.test(inner));
    // "(S/N)", "(A/C)": letters joined by a slash abbreviate one word; "(Y/N)" still offers yes or no.
    const abbreviation = /^\s*\p{L}\s*[/／]\s*\p{L}\s*$/u.test(inner) && !yesNoOptions(splitItems(inner).map(cleanItem));
    if (abbreviation) continue;
    if (offers && (/[/／|]/.test(inner) || /,|、|\bor\b|または/.test(inner))) add(splitItems(inner), true, cued, /[/／|]/.test(inner));
    // 「（番地・建物名・部屋番号まで）」: items ending in a particle describe how much to give, they are not options.
    else if (/・/.test(inner) && (atEnd || cued) && !/(?:まで|から|も|を|に|で|は|が)$/.test(inner.trim()))
      add(splitItems(inner), true, cued);
  }
  // A text that is nothing but two or three names joined by "or" ("Morning or Afternoon", "Paper, Email or Text"):
  // the values themselves.
  const bare =
    /^(\p{Lu}[\p{L}-]*(?: \p{L}[\p{L}-]*){0,2})(?:, (\p{Lu}[\p{L}-]*(?: \p{L}[\p{L}-]*){0,2}))? or (\p{Lu}[\p{L}-]*(?: \p{L}[\p{L}-]*){0,2})$/u.exec(
      trimPunctuation(text),
    );
  if (bare) add([bare[1]!, ...(bare[2] ? [bare[2]] : []), bare[3]!], true, false);
  const unbracketed = text
    .replace(/[(（[［][^()（）[\]［］]{0,120}[)）\]］]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  // Quoted items: 「午前のみ」「午後まで」「延長保育」のどれか, "A", "B" or "C".
  // (Sentence by sentence: 「迷っている人は「未定」でよい」 after the list is a note on one of its items.)
  for (const sentence of text.split(/(?<=[。！？])/)) {
    const quoted = [...sentence.matchAll(/[「『"]([^「」『』"]{1,24})[」』"]/g)];
    if (quoted.length < 2) continue;
    const last = quoted.at(-1)!;
    const after = sentence.slice(last.index + last[0].length);
    const rest = trimPunctuation(sentence.replace(/[「『"][^「」『』"]{1,24}[」』"]/g, '').replace(/\b(?:or|and)\b|または|か|、|,/g, ''));
    // 「…」「…」の4種類のうち、どれか: a few words may stand between the list and its cue.
    if (CUE_JA_AFTER.test(after) || CUE_JA_NEAR.test(after) || CUE_EN.test(sentence.slice(0, quoted[0]!.index)) || rest === '')
      add(
        quoted.map((quote) => quote[1] ?? ''),
        true,
        true,
        true,
      );
  }
  // Slash runs: S/M/L/XL, Yes/No (not km/h, n/a, 3/4/2025).
  for (const slashMatch of unbracketed.matchAll(
    /(?<![\p{L}\p{N}/])[\p{L}\p{N}][\p{L}\p{N}+\-&'・ ]{0,20}(?:\s*[/／]\s*[\p{L}\p{N}][\p{L}\p{N}+\-&'・ ]{0,20})+/gu,
  )) {
    const items = splitItems(slashMatch[0]);
    // 「区分は 火災／落雷／…」: the topic the list is about is not part of its first item.
    const topic = /^[^\s]*[はがを：:]\s+(?=\S)/u.exec(items[0] ?? '');
    if (topic && /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u.test(topic[0])) items[0] = items[0]!.slice(topic[0].length);
    // 「あり／なしがはっきりしている」: the predicate after the last item is not part of it.
    const last = items.at(-1) ?? '';
    const subject = beforePredicate(last);
    if (subject && /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u.test(last)) items[items.length - 1] = subject;
    if (items.every((item) => /^[a-z]{1,2}$/.test(item)) && items.length < 3) continue;
    // "how they do with dryers / clippers": a slash inside a sentence joins two words, not a list of options.
    if (
      items.some(
        (item) => item.split(/\s+/).length > 3 || (/\s/.test(item) && item.split(/\s+/).some((word) => ENGLISH_COMMON_WORDS.has(word))),
      )
    )
      continue;
    // "…, Toothache / pain, …": one item of a comma list, written with a slash.
    const [before, after] = [unbracketed.slice(0, slashMatch.index), unbracketed.slice(slashMatch.index + slashMatch[0].length)];
    if (/[,、]\s*$/.test(before) || /^\s*[,、]/.test(after)) continue;
    // A label that is two names for one thing ("Conference / event attended", "Company / organisation") offers no choice.
    if (
      items.length === 2 &&
      trimPunctuation(before) === '' &&
      trimPunctuation(after) === '' &&
      !codes(items) &&
      !yesNoOptions(items.map(cleanItem))
    )
      continue;
    add(
      items,
      true,
      CUE_JA_AFTER.test(unbracketed.slice(slashMatch.index + slashMatch[0].length)) || CUE_EN.test(unbracketed.slice(0, slashMatch.index)),
      true,
    );
  }
  for (const segment of unbracketed.split(/(?<!\b[A-Z][a-z]{0,3})[.?!;](?=\s|$)|[。？！]/)) listsInSegment(segment.trim(), add);
  return out;
}

// Where a list of whole offers begins: "One of:", "Options:", 「選択肢：」.
const LONG_LIST_CUE =
  /(?:\b(?:one of|options?|choices?|choose (?:one )?(?:from|of)|pick one(?: of)?|select one(?: of)?)|選択肢|次のいずれか|次のどれか)\s*[:：]\s*/i;
// What sets whole offers apart when the offers hold commas of their own: semicolons, slashes between spaces, 「／」.
const OFFER_SEPARATOR = /[;；／]| \/ /;
const LONG_ITEM_MAX_CHARS = 80;

/**
 * A list of whole offers, each kept as the form writes it, commas, prices and brackets included (issue 33): "One of:
 * Main Hall – $85 per hour (up to 120 people); Studio B, with mirrors – $40 per hour", 「選択肢：ハードウェア／ソフトウェア」,
 * 「和室（15名まで） 1時間300円／第1会議室（30名まで） 1時間600円 のどれか1つ」, "Permit type (Annual resident permit, $120;
 * Visitor permit, up to 14 days, $25)". Only a cue or a closing bracket says where such a list starts and ends.
 */
function longItemList(text: string): { items: string[]; strong: boolean } | null {
  const candidates: string[] = [];
  const cue = LONG_LIST_CUE.exec(text);
  if (cue) candidates.push(text.slice(cue.index + cue[0].length).split(/[。\n]/)[0] ?? '');
  const before = LIST_BEFORE_CUE_JA.exec(text);
  if (before?.[1]) candidates.push(before[1].split(/[。：:]/).at(-1) ?? '');
  const bracket = /[(（]([^()（）]*(?:[(（][^()（）]*[)）][^()（）]*)*)[)）][?？:：]?$/.exec(text.trimEnd());
  if (bracket?.[1]) candidates.push(bracket[1]);
  for (const [i, candidate] of candidates.entries()) {
    const body = candidate.replace(/(?:のどれか|のいずれか|のうち)[^／;；]*$/, '');
    const strong = body.split(OFFER_SEPARATOR);
    // Before 「のいずれか」 a list of plain words may be set apart by 「、」 too: 「犬、猫、うさぎ、その他のいずれか」.
    const pieces = strong.length < 2 && cue === null && i === 0 && before?.[1] ? body.split(/[、，]/) : strong;
    // (Sentence punctuation at the ends goes; a closing bracket is the offer's own.)
    const items = pieces.map(trimSentence).filter(Boolean);
    if (items.length < 2 || items.length > 20 || new Set(items).size !== items.length) continue;
    if (items.every((item) => [...item].length <= LONG_ITEM_MAX_CHARS && /\p{L}/u.test(item))) return { items, strong: pieces === strong };
  }
  return null;
}

const PREDICATE_ENDS = ['する', 'している', 'いる', 'ある', 'わかる', '分かる', '明確', 'こと', 'です', 'ます', '確認'];
const LINE_BREAK = /[\n\r\u2028\u2029]/;

/**
 * 「ありがはっきりしている」 → 「あり」: an item before the first particle that a predicate follows, or null. What
 * `^(.+?)[がをはでにと](?=.*(?:する|…|確認)$)` found, by position: the regex tried each particle with a scan to the
 * end. (On one line: `.` does not cross a line break.)
 */
function beforePredicate(item: string): string | null {
  if (LINE_BREAK.test(item)) return null;
  const ends = PREDICATE_ENDS.filter((end) => item.endsWith(end)).map((end) => end.length);
  if (ends.length === 0) return null;
  // The particle needs the shortest such predicate after it.
  const room = item.length - Math.min(...ends);
  for (let at = 1; at < room; at++) if ('がをはでにと'.includes(item[at]!)) return item.slice(0, at);
  return null;
}

/**
 * Comma, 「、」, 「・」 and "or" lists inside one sentence: cued, after a colon, the whole text, or ≥3 items in prose.
 * The segment is one trimmed line with single spaces (see listsIn).
 */
function listsInSegment(segment: string, add: (items: string[], strict: boolean, cued: boolean) => void): void {
  if (!segment) return;
  // Japanese: the list ends at its cue and starts after the last particle or punctuation before it. A 「・」 list
  // is set apart as a list; 「仕事、専攻、経験のいずれか」 in prose says what kind of answer counts (soft).
  const ja = LIST_BEFORE_CUE_JA.exec(segment);
  if (ja?.[1] && /[・、,/]|または|もしくは/.test(ja[1])) {
    const head = ja[1].replace(/^.*[はをにでが：:「」『』]/, '');
    add(splitItems(head), /[・/]/.test(head) || codes(splitItems(head)), true);
    return;
  }
  // 「玄関先 か 集積所 のどちらか」「午前か午後のどちらか」: two items joined by か before the cue.
  const pair = ja?.[1] ? /^(?:.*[はをにでが：:「」『』])?\s*([^\sか]{1,12})\s*か(?![らなもつ])\s*([^\sか]{1,12})\s*$/.exec(ja[1]) : null;
  if (pair?.[1] && pair[2] && ![pair[1], pair[2]].some((side) => /[のをにではがとも]|^\d/.test(side))) {
    add([pair[1], pair[2]], true, true);
    return;
  }
  // 「はい・いいえが明確」「ある・ないがわかること」: a polar pair stated as the criterion.
  const polar = /^(.*?)(?:が|の)(?:明確|はっきり|わかる|分かる|わかれば|確認)/.exec(segment);
  if (polar?.[1] && /・/.test(polar[1])) {
    const items = splitItems(polar[1].replace(/^.*[はをにで：:]/, ''));
    if (yesNoOptions(items.map(cleanItem))) add(items, true, true);
  }
  // "Our levels are Beginner, Intermediate and Advanced": named values after "<things> are".
  const item = String.raw`[A-Z][\w+-]*(?:\s[A-Z][\w+-]*)*`;
  const values = new RegExp(String.raw`\b[a-z]+s\s+(?:are|include)(?:\s*:)?\s*((?:${item},\s*)+${item},?\s+(?:and|or)\s+${item})\s*$`).exec(
    segment,
  );
  if (values?.[1]) {
    // (The spaces from their first one, or from the comma: tried from each space of a run, this was quadratic.)
    add(splitItems(values[1].replace(/,\s+and\s+|(?<![\s,])\s+and\s+/, ', ')), true, true);
    return;
  }
  // English: "one of: A, B, C", "role: A, B, or C", "One of A, B or C", "A, B or C". Options written as names
  // (capitalised, or codes) are strict; lower-case words in prose ("their job, studies or experience") are soft.
  // A list's colon, not a clock's ("8:00 am to 6:00 pm").
  // A dash does what a colon does ("Meeting format — In person, Video call, or Phone call").
  const colon = Math.max(
    -1,
    ...[...segment.matchAll(/(?<!\d):(?!\d)|：|\s[—–]\s?|\s-\s/g)].map((colonMatch) => colonMatch.index + colonMatch[0].length - 1),
  );
  const afterColon = colon >= 0 ? segment.slice(colon + 1) : null;
  // (The list starts at a non-space: on a trimmed line that is where `\s*:?\s*(.+)$` started it, without trying each split.)
  const cue = /\b(?:(?:choose|select|pick)(?: one)?(?: of| from)?|one of|either|among)\b(?:\s*:)?\s*(\S.*)$/i.exec(segment);
  // "one of our four types: Family, Wedding, …": the colon introduces the list itself.
  const listText = afterColon !== null && cue !== null && cue.index < colon ? afterColon : (cue?.[1] ?? afterColon ?? segment);
  if (EXAMPLES.test(segment.slice(0, segment.length - listText.length)) || /など|等|\betc\b/.test(listText)) return;
  // "One of Windows, macOS or Android is identified": the list ends where its predicate starts.
  const items = splitItems(listText.replace(/(?<!\s)\s+(?:is|are|was|were|be|being|has been|must be|should be)\s+\w+(?:\s+\w+)?\s*$/i, ''));
  const named = items.map(cleanItem).every((cleaned) => /^[\p{Lu}\p{N}]/u.test(cleaned)) || codes(items);
  const hasOr = /\bor\b|または|もしくは/i.test(listText);
  const whole = cue === null && afterColon === null;
  if (cue || (afterColon !== null && items.length >= 2)) add(items, named, true);
  // (Nor with a modifier inside: 「アレルギー・苦手な食材」 names what to tell, not values to pick.)
  else if (whole && /・/.test(listText) && items.length >= 2 && !/[のをにがはでとな]/.test(listText.replace(/・/g, '')))
    add(items, true, false);
  else if (hasOr && items.length >= 3 && !(!named && modifiers(items)))
    add(items, named && (whole || /^[\p{Lu}\p{N}]/u.test(listText.trim())), false);
  else if (hasOr && items.length === 2 && yesNoOptions(items.map(cleanItem))) add(items, true, false);
}

/** "large, heavy, fragile or unusual items": single words before a last item that adds the noun they all describe. */
function modifiers(items: readonly string[]): boolean {
  const words = items.map((item) => cleanItem(item).split(/\s+/).length);
  const last = words.at(-1) ?? 0;
  return (
    last >= 2 &&
    words.slice(0, -1).every((wordCount) => wordCount === 1) &&
    items.slice(0, -1).every((item) => nlp(cleanItem(item)).has('(#Adjective|#PastTense|#Participle)'))
  );
}

/** Short codes ("S", "XL", "A", "5km"): options whatever the prose around them. */
function codes(items: readonly string[]): boolean {
  return items.every((item) => /^[\p{Lu}\d][\p{Lu}\d+-]{0,3}$/u.test(item.trim()) || /^\d+\s*\p{L}{0,3}$/u.test(item.trim()));
}

/**
 * Items of a list. Commas (「、」) separate items when there are any, so "Toothache / pain" and "Chipped or broken
 * tooth" stay whole; the last item is split on "or" only without an Oxford comma ("S, M, L or XL"). Without commas,
 * slashes, middle dots and "or" separate items.
 */
function splitItems(text: string): string[] {
  const clean = (xs: string[]) =>
    xs.map((item) => trimPunctuation(item.trim().replace(/^(?:either|one of|or|and)\s+/i, ''))).filter((item) => item.length > 0);
  // A comma inside brackets ("(6am, weekdays)") separates nothing.
  const depth = (position: number) =>
    (text.slice(0, position).match(/[(（]/g)?.length ?? 0) - (text.slice(0, position).match(/[)）]/g)?.length ?? 0);
  const commas = [...text.matchAll(/[、，,]/g)].filter((comma) => depth(comma.index) === 0).map((comma) => comma.index);
  // 「電気のみ／ガスのみ／電気・ガス両方」: with slashes as separators, a middle dot joins words inside an item.
  if (commas.length === 0 && /[/／|]/.test(text)) return clean(text.split(/(?<!\s)\s*[/／|]\s*|[/／|]\s*/));
  if (commas.length === 0)
    return clean(text.split(/(?<!\s)\s*(?:・|または|もしくは|あるいは)\s*|(?:・|または|もしくは|あるいは)\s*|(?<!\s)\s+or\s+/i));
  const parts = [...commas, text.length].map((end, i) => text.slice(i === 0 ? 0 : commas[i - 1]! + 1, end));
  const oxford = parts.slice(1).some((part) => /^\s*(?:or|and)\s/i.test(part));
  const last = parts.pop() ?? '';
  const tail = oxford ? [last] : last.split(/(?<!\s)\s+(?:or|and)\s+|または|もしくは|あるいは/i);
  return clean([...parts, ...tail]);
}

/** "Day (6am–2:30pm)" → "Day"; 「軽自動車（4人乗り）」 → 「軽自動車」; "A = Kubernetes" → "A". */
function cleanItem(item: string): string {
  return trimPunctuation(
    withoutDefinition(item.replace(/(?<!\s)\s*[(（][^()（）]*[)）]?\s*|[(（][^()（）]*[)）]?\s*/g, ' ')).replace(/\s+/g, ' '),
  );
}

/**
 * "A = Kubernetes" → "A": the text before the first "=" with no line break after it, and before the spaces ahead
 * of that "=" (what `/\s*[=＝].*$/` cut). A scan: the regex tried each "=" and each space with a scan to the end.
 */
function withoutDefinition(item: string): string {
  let from = item.length;
  while (from > 0 && !LINE_BREAK.test(item[from - 1]!)) from--;
  const equals = item.slice(from).search(/[=＝]/);
  if (equals < 0) return item;
  let start = from + equals;
  while (start > 0 && /\s/.test(item[start - 1]!)) start--;
  return item.slice(0, start);
}

const DETERMINER = /^(?:a|an|the|their|your|his|her|its|our|my|some|any|each|every)\s/i;
// 「いつでも」「どちらでも」 are answers ("any time", "either"), not questions.
const QUESTION_WORD =
  /何|どの|どれ(?!でも)|いつ(?!でも)|どこ(?!でも)|誰(?!でも)|どう(?!でも)|どちら(?!でも)|\b(?:what|which|when|where|who|how|why)\b/i;
// A Japanese item holding a case particle between words is a phrase (食べ物のアレルギーがある), not an option.
const JA_PHRASE = /[\p{Script=Han}\p{Script=Katakana}ー][がをはにで][\p{Script=Han}\p{Script=Katakana}\p{Script=Hiragana}]/u;

function isList(items: string[], phrasesAllowed = false): boolean {
  if (items.length < 2 || items.length > 20) return false;
  if (new Set(items.map((item) => item.toLowerCase())).size !== items.length) return false;
  // Bare numbers are a list only beside a named value ("K, 1, 2, 3": kindergarten and the grades); alone they are dates, times, counts.
  const named = items.some((item) => /^\p{L}[\p{L}-]{0,5}$/u.test(item.trim()));
  return items.every(
    (item) =>
      [...item].length <= ITEM_MAX_CHARS &&
      item.split(/\s+/).length <= ITEM_MAX_WORDS &&
      (named || !/^[\d\s.:-]+$/.test(item)) &&
      !/^(?:etc|など|等|and)$/i.test(item) &&
      // "site and role" in prose is two things; "Heating & Cooling", "Keyboard and mouse" written as a name is one option.
      !(/\s(?:and|&)\s/i.test(item) && !/^[\p{Lu}\p{N}]/u.test(item)) &&
      // ("Every time" written as a name is an option; "every day of the week" in prose is not.)
      !(DETERMINER.test(item) && item.split(/\s+/).length > 1 && !/^\p{Lu}/u.test(item)) &&
      !QUESTION_WORD.test(item) &&
      (phrasesAllowed || !JA_PHRASE.test(item)),
  );
}

/** Descriptions given for options: "A = Kubernetes", 「午前のみ＝11:30まで」, "Day (6am–2:30pm)", 「軽自動車（4人乗り）」. */
export function aliasesFor(options: readonly string[], texts: readonly string[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  const all = texts.map(normalizeText).join('\n');
  for (const option of options) {
    const esc = escapeRegExp(option);
    const edge = /^[\p{Script=Latin}\p{N}]/u.test(option) ? '(?<![\\p{L}\\p{N}])' : '';
    const defs = [
      ...all.matchAll(new RegExp(`${edge}${esc}\\s*[=＝:：]\\s*([^,、;；\\n=＝]{2,40})`, 'gu')),
      ...all.matchAll(new RegExp(`${edge}${esc}\\s*[(（]([^()（）]{2,40})[)）]`, 'gu')),
    ]
      .map((definitionMatch) => trimPunctuation(definitionMatch[1] ?? ''))
      .filter((definition) => definition && definition.toLowerCase() !== option.toLowerCase());
    const mapped = mappedTo(option, all);
    if (defs.length + mapped.length > 0) out[option] = [...new Set([...defs, ...mapped])];
  }
  return out;
}

/**
 * Words a form's hints file under an option: 「ママチャリは一般車」「ロードバイク・クロスバイクはスポーツ車」,
 * "Maternity shoots go under Newborn", "heat pumps count as Heating & Cooling", "子ども会は一般団体".
 */
function mappedTo(option: string, all: string): string[] {
  const bare = cleanItem(option);
  const esc = escapeRegExp(bare);
  // (Not 「出す場所は「玄関先」「集積所」のどちら」: a subject before the whole list asks, it maps nothing.)
  const ja = new RegExp(
    `([^、。,.\\n「」]{1,40}?)(?:は|も|なら)(?:「)?${esc}(?!」?\\s*(?:「|・|／|/|、|か|の(?:どちら|いずれ|どれ|うち)))`,
    'gu',
  );
  const en = new RegExp(
    `([^,.;:\\n]{2,40}?)\\s+(?:go(?:es)?|belongs?|falls?|counts?|is|are|comes?)\\s+(?:under|as|in|into|with)?\\s*(?:the\\s+)?${esc}\\b(?!\\s*(?:,|/|\\band\\b|\\bor\\b))`,
    'giu',
  );
  const out: string[] = [];
  for (const mappingMatch of [...all.matchAll(ja), ...all.matchAll(en)]) {
    const head = (mappingMatch[1] ?? '').replace(/^.*(?:\b(?:if|when|and|so|but)\b|[はがを])\s*/i, '');
    for (const piece of head.split(/(?<!\s)\s*(?:[・、/／]|\bor\b|\band\b)\s*|(?:[・、/／]|\bor\b|\band\b)\s*/i)) {
      const alias = trimPunctuation(piece);
      if (alias && [...alias].length <= 24 && alias.toLowerCase() !== bare.toLowerCase()) out.push(alias);
    }
  }
  return out;
}

// One side of a yes/no pair: yes/no words, or a predicate and its negation (ある/ない, 利用する/しない, 要/不要).
const YES = /^(?:yes|y|はい|有|あり|有り|する|ある|いる|要|必要)$/i;
const NO = /^(?:no|n|いいえ|無|なし|無し|しない|ない|いない|不要|不必要)$/i;

/** True when the options are a yes/no pair ("Yes/No", 「はい・いいえ」, 「有・無」, 「利用する・しない」, 「要・不要」). */
export function yesNoOptions(options: readonly string[]): boolean {
  if (options.length !== 2) return false;
  const [first, second] = options.map((option) => option.trim());
  if (!first || !second) return false;
  if ((YES.test(first) && NO.test(second)) || (NO.test(first) && YES.test(second))) return true;
  return negationOf(first, second) || negationOf(second, first);
}

/** 「利用する」/「しない」, 「参加する」/「参加しない」, 「要」/「不要」, "needed"/"not needed". */
function negationOf(pos: string, neg: string): boolean {
  if (neg === `不${pos}` || neg === `not ${pos}`.toLowerCase() || neg.toLowerCase() === `not ${pos.toLowerCase()}`) return true;
  const stem = pos.replace(/(?:する|ある|いる|る|う)$/, '');
  return /(?:しない|ない|いない)$/.test(neg) && (neg.startsWith(stem) || /^(?:しない|ない|いない)$/.test(neg));
}

export type OptionMatch = { option: string } | { ambiguous: string[] } | null;

/**
 * The option a reply picks, or the options it could mean, or null. In order:
 * the reply is exactly an option; an option written as whole words inside the
 * reply (a longer option inside which a shorter one sits wins: "XL" is not
 * "L"); the reply's words as a spelling of one option ("2 bedroom" →
 * "2-Bedroom", "nights" → "Night", "no pref" → "No preference", "standard"
 * → "Standard Queen", "medium" → "M"); an alias the form gave ("the AI one" →
 * "C" when the form says "C = AI in production"); the reply as the option's
 * initials. Options named after "not" / 「ではなく」 are dropped.
 */
export function matchOption(
  reply: string,
  options: readonly string[],
  echo: readonly string[] = [],
  aliases: Record<string, string[]> = {},
): OptionMatch {
  const said = keyOf(reply);
  const opts = options.map((option) => ({ option: option, key: keyOf(cleanItem(option) || option), keys: keysOf(option) }));
  const whole = opts.filter((choice) => choice.keys.includes(trimPunctuation(said)));
  if (whole.length === 1 && whole[0]) return { option: whole[0].option };
  // "No clue honestly", 「まだはっきりしないんです」: the form's own "not sure" option, whatever else the reply mentions.
  const unsure = admitsNotKnowing(reply) || isUndecided(reply) ? options.filter((option) => UNSURE_OPTION.test(normalizeText(option))) : [];
  if (unsure.length === 1 && unsure[0]) return { option: unsure[0] };

  const direct = compoundFirst(said, opts, literalPicks(said, opts));
  if (direct.length === 1 && direct[0]) return { option: direct[0] };
  if (direct.length > 1)
    return afterContrast(said, opts, direct) ?? decided(reply, direct, echo, aliases) ?? firstNamed(said, direct) ?? { ambiguous: direct };

  // Clock spans ("9時〜12時") are picked by the time or the part of the day the reply names.
  const bySlot = timeSlotPicks(
    reply,
    options,
    /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u.test(reply + options.join('')) ? 'ja' : 'en',
  );
  if (bySlot.length === 1 && bySlot[0]) return { option: bySlot[0] };
  if (bySlot.length > 1) return { ambiguous: bySlot };
  // "am" for "Morning", "after 2pm" for "Afternoon": the half of the day, when the options are parts of it.
  const byMeridiem = meridiemPicks(reply, options, /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u.test(reply) ? 'ja' : 'en');
  if (byMeridiem.length === 1 && byMeridiem[0]) return { option: byMeridiem[0] };

  // From here on the reply is read without what it takes back ("I said Lightning but I meant the standard talk").
  const text = blankRetracted(said);
  // Words of the question itself ("shirt" in "T-shirt size") pick nothing, unless they are words of an option.
  const optionWords = new Set(opts.flatMap((choice) => wordsOf(choice.key)));
  const echoed = new Set(
    echo.flatMap((echoText) => wordsOf(normalizeText(echoText).toLowerCase())).filter((word) => !optionWords.has(word)),
  );
  const words = wordsOf(text).filter((word) => !echoed.has(word) && !ENGLISH_COMMON_WORDS.has(word) && !ENGLISH_VAGUE_WORDS.has(word));
  const bySpelling = spellingPicks(text, words, opts);
  if (bySpelling.length === 1 && bySpelling[0]) return { option: bySpelling[0] };
  if (bySpelling.length > 1) return decided(reply, bySpelling, echo, aliases) ?? firstNamed(text, bySpelling) ?? { ambiguous: bySpelling };

  // A Japanese option may come back romanised (washitsu for 和室), as an English-language interview names it.
  const aliasesOf = (option: string) => [
    ...(aliases[option] ?? []),
    ...[romanize(option)].filter((romanized): romanized is string => romanized !== null),
  ];
  // (The question quotes the aliases it offers, "Weekend (Sat 9:00–10:00)": their words count even so.)
  const ownWords = wordsOf(text).filter((word) => !ENGLISH_VAGUE_WORDS.has(word));
  const byAlias = opts
    .filter((choice) => aliasesOf(choice.option).some((alias) => aliasNamed(text, ownWords, alias)))
    .map((choice) => choice.option);
  if (byAlias.length === 1 && byAlias[0]) return { option: byAlias[0] };
  const bySize = sizePicks(text, options);
  if (bySize.length === 1 && bySize[0]) return { option: bySize[0] };
  if (bySize.length > 1) return decided(reply, bySize, echo, aliases) ?? firstNamed(text, bySize) ?? { ambiguous: bySize };
  const indifferent = indifferentOption(text, options);
  if (indifferent) return { option: indifferent };
  const byShape = japaneseShapePicks(text, opts);
  if (byShape.length === 1 && byShape[0]) return { option: byShape[0] };
  const byReading = readingPicks(text, opts);
  if (byReading.length === 1 && byReading[0]) return { option: byReading[0] };
  // "A compact car" for コンパクト, 「一般で」 for "General": the option named in the other language.
  const translated = crossLanguagePicks(reply, opts);
  if (translated.length === 1 && translated[0]) return { option: translated[0] };

  // "yr 1" for "Year 1": every word of the reply is a word of one option, written short (its letters in order).
  const byAbbreviation = abbreviationPicks(words, opts);
  if (byAbbreviation.length === 1 && byAbbreviation[0]) return { option: byAbbreviation[0] };

  const initials = trimPunctuation(text).replace(/\s+/g, '');
  if (/^\p{L}{1,3}$/u.test(initials)) {
    const byInitials = opts
      .filter((choice) => initialsOf(choice.key) === initials || choice.key.startsWith(initials))
      .map((choice) => choice.option);
    if (byInitials.length === 1 && byInitials[0]) return { option: byInitials[0] };
  }
  // "MacBook" for "Mac": a word of the reply that begins with a one-word option (a product of its line, a longer form).
  const byPrefix = opts
    .filter(
      (choice) => /^\p{L}{3,}$/u.test(choice.key) && words.some((word) => word.length > choice.key.length && word.startsWith(choice.key)),
    )
    .map((choice) => choice.option);
  if (byPrefix.length === 1 && byPrefix[0]) return { option: byPrefix[0] };
  const byPosition = positionPicks(text, options);
  if (byPosition.length === 1 && byPosition[0]) return { option: byPosition[0] };
  // Last, by meaning: "I had the flu" for "Illness" (WordNet), 「水漏れ」 for 「水濡れ」 (a character only that option has).
  const byMeaning = paraphrasePicks(text, options, echoed);
  if (byMeaning.length === 1 && byMeaning[0]) return { option: byMeaning[0] };
  const byCharacter = sharedCharacterPicks(text, options, echo);
  if (byCharacter.length === 1 && byCharacter[0]) return { option: byCharacter[0] };
  return null;
}

// An option named by its place in the list: "the first one", "the 2nd", "the last option", 「最初の」「2番目」「後者」; the
// place each word names (-1: the last). Words that compare two ("the latter", "the later one") name one of two only.
const PLACES: ReadonlyArray<readonly [number, readonly string[]]> = [
  [0, ['first', '1st', '最初', '一番目', '1番目']],
  [1, ['second', '2nd', '二番目', '2番目']],
  [2, ['third', '3rd', '三番目', '3番目']],
  [3, ['fourth', '4th', '四番目', '4番目']],
  [4, ['fifth', '5th']],
  [-1, ['last', '最後']],
];
const PLACES_OF_TWO: ReadonlyArray<readonly [number, readonly string[]]> = [
  [0, ['former', 'earlier', '前者', '前の方', '早い方']],
  [-1, ['latter', 'later', '後者', '後の方', '遅い方']],
];
const PLACE_OF = new Map([...PLACES, ...PLACES_OF_TWO].flatMap(([at, words]) => words.map((word) => [word, at] as const)));
const OF_TWO = new Set(PLACES_OF_TWO.flatMap(([, words]) => words));
const PLACE_WORD = [...PLACE_OF.keys()].filter((word) => /^[a-z0-9]+$/.test(word)).join('|');
const PLACE_WORD_JA = [...PLACE_OF.keys()].filter((word) => !/^[a-z0-9]+$/.test(word)).join('|');
const POSITION_EN = new RegExp(
  String.raw`^(?:(?:the|that|um|uh|oh|just|probably|i guess|i think)\s+)*(${PLACE_WORD})(?:\s+(?:one|option|choice|slot|session))?(?:\s+please)?$`,
  'i',
);
const POSITION_JA = new RegExp(
  String.raw`^(?:その|あの)?(${PLACE_WORD_JA})(?:の(?:方|もの|ほう))?(?:で|です|でお願いします|にします)?$`,
  'u',
);

/** The option a short reply names by its place in the list, as it was offered; nothing for "the later one" among three. */
function positionPicks(text: string, options: readonly string[]): string[] {
  const said = trimPunctuation(text.trim());
  const word = (POSITION_EN.exec(said) ?? POSITION_JA.exec(said))?.[1]?.toLowerCase();
  if (word === undefined || (OF_TWO.has(word) && options.length !== 2)) return [];
  const option = options.at(PLACE_OF.get(word) ?? options.length);
  return option === undefined ? [] : [option];
}

/** `short` is `word` written short: its first letter, then some of its letters in order ("yr" for "year"). */
function abbreviates(short: string, word: string): boolean {
  if (short === word) return true;
  if (short.length < 2 || short.length >= word.length || short[0] !== word[0] || /\d/.test(short + word)) return false;
  let at = 0;
  for (const ch of word) if (ch === short[at]) at++;
  return at === short.length;
}

function abbreviationPicks(words: readonly string[], opts: ReadonlyArray<{ option: string; key: string }>): string[] {
  if (words.length === 0 || !words.some((word) => /\p{L}/u.test(word))) return [];
  return opts
    .filter((choice) => {
      const own = wordsOf(choice.key);
      return words.every((word) => own.some((optionWord) => abbreviates(word, optionWord)));
    })
    .map((choice) => choice.option);
}

/** Options written out in the reply, outermost spans only, not negated. */
/**
 * 「カットとカラーをお願いします」 to 「カット」「カット＋カラー」: an option made of parts (joined by +, &, ・) whose
 * parts are all named outranks the options that are only one of its parts.
 */
function compoundFirst(text: string, opts: ReadonlyArray<{ option: string; key: string }>, picked: string[]): string[] {
  const compounds = opts.filter((choice) => {
    const parts = choice.key.split(PART_JOINER).filter((part) => part.length > 0);
    return parts.length >= 2 && parts.every((part) => text.includes(part));
  });
  if (compounds.length !== 1) return picked;
  const whole = compounds[0]!;
  const parts = whole.key.split(PART_JOINER);
  return [whole.option, ...picked.filter((pick) => pick !== whole.option && !parts.includes(keyOf(cleanItem(pick) || pick)))];
}

// The "+", "and" or 「・」 joining an option's parts, with the spaces around it.
const PART_JOINER = /(?<!\s)\s*(?:\+|＋|\band\b|・)\s*|(?:\+|＋|\band\b|・)\s*/;

/** How an option or a reply is compared: NFKC, lower case, "&" read as "and". */
function keyOf(text: string): string {
  // (「１３時～１５時」 for 「13時〜15時」: the wave dash and the tildes are one sign; "self employed" is "Self-employed".)
  return normalizeText(text)
    .toLowerCase()
    .replace(/(?<!\s)\s*[&＆]\s*|[&＆]\s*/g, ' and ')
    .replace(/[〜～~]/g, '~')
    .replace(/(?<=\p{L})[-‐‑](?=\p{L})/gu, ' ');
}

/**
 * The spellings an option answers to: as written, without its bracketed description (「一般車（シティサイクル）」 →
 * 一般車, 「田中（店長）」 → 田中), and each side of a slash written into it ("Toothache / pain").
 */
function keysOf(option: string): string[] {
  const bare = cleanItem(option) || option;
  const sides = /[/／]/.test(bare) ? bare.split(/(?<!\s)\s*[/／]\s*|[/／]\s*/) : [];
  return distinct([option, bare, ...sides].map(keyOf).filter((key) => key.length > 0));
}

function literalPicks(text: string, opts: ReadonlyArray<{ option: string; keys: string[] }>): string[] {
  const spans: Array<{ option: string; start: number; end: number }> = [];
  for (const choice of opts)
    for (const key of choice.keys)
      for (const at of occurrences(text, key)) spans.push({ option: choice.option, start: at, end: at + key.length });
  const outer = spans.filter(
    (span) =>
      !spans.some(
        (other) => other !== span && other.start <= span.start && other.end >= span.end && other.end - other.start > span.end - span.start,
      ),
  );
  const kept = outer.filter((s) => !negatedAt(text, s.start, s.end)).sort((a, b) => a.start - b.start);
  // 「さっき平日と言いましたが、…土日祝で」: taken-back options drop out, background ones ("…ので") come last.
  const asserted = preferAsserted(text, kept, (span) => [span.start, span.end]);
  return distinct(asserted.map((span) => span.option)).filter((option) => asserted.some((span) => span.option === option));
}

/**
 * Options the reply spells with its own words: every word of the option is
 * matched by a reply word (the same, a plural, an abbreviation of at least
 * three letters, a number word for a digit), or a word that only this option
 * has is named ("queen" → "Standard Queen").
 */
function spellingPicks(text: string, words: readonly string[], opts: ReadonlyArray<{ option: string; key: string }>): string[] {
  // Function words of an option ("Chipped or broken tooth") need not be said.
  // Spelling is read in Latin script; 「中2」 is matched by its shape, not by its digit alone.
  const tokens = opts
    .filter((choice) => !/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u.test(choice.key))
    .map((choice) => {
      const ws = wordsOf(choice.key).map(numberWord);
      const content = ws.filter((word) => !ENGLISH_COMMON_WORDS.has(word));
      return { ...choice, words: content.length > 0 ? content : ws };
    });
  const replyWords = words.map(numberWord);
  const digits = (text.match(/\d+/g) ?? []).map(String);
  const all = [...replyWords, ...digits];
  const full = tokens.filter(
    (choice) => choice.words.length > 0 && choice.words.every((word) => all.some((replyWord) => sameWord(replyWord, word))),
  );
  const positioned = (choice: { key: string; words: string[] }) => Math.min(...choice.words.map((word) => firstIndex(text, word)));
  if (full.length > 0)
    return distinct(full.sort((a, b) => positioned(a) - positioned(b)).map((o) => o.option)).filter((o) => !negatedOption(text, o));
  const counts = new Map<string, number>();
  for (const choice of tokens) for (const word of new Set(choice.words)) counts.set(word, (counts.get(word) ?? 0) + 1);
  const named = (same: (replyWord: string, word: string) => boolean) =>
    tokens.filter((choice) =>
      choice.words.some(
        (word) => (counts.get(word) ?? 0) === 1 && word.length >= 3 && replyWords.some((replyWord) => same(replyWord, word)),
      ),
    );
  // A word said in full outranks one read as an abbreviation ("tooth" is the tooth option, not "toothache").
  const exact = named((replyWord, word) => replyWord === word || (replyWord.startsWith(word) && replyWord.length - word.length <= 3));
  return distinct((exact.length > 0 ? exact : named(sameWord)).map((choice) => choice.option));
}

// "Either is fine", 「どちらでも」: the option that says so, when the form offers one ("No preference", 「指定なし」).
// (Japanese: any question word + でも, 「どれでも」「いつでも」「どこでも」「何時でも」, is "any".)
const INDIFFERENT_REPLY =
  /\b(?:either|any(?:one| of them| is fine| time)?|whichever|whenever|whoever|doesn'?t matter|no preference|don'?t mind|not fussy|no particular)\b|(?:どちら|どっち|どれ|どなた|だれ|誰|いつ|どこ|何時|なんじ|何)でも|こだわりません|特に(?:希望|指定)(?:は)?(?:ありません|なし)/i;
const INDIFFERENT_OPTION =
  /\b(?:no preference|any|either|no particular|whichever|not specified|none in particular)\b|どちらでも|どれでも|指定なし|希望なし|こだわらない|おまかせ|お任せ/i;

// An option that means "not known yet": 未定, "Not sure", "Undecided", "TBD".
const UNSURE_OPTION =
  /^(?:未定|検討中|わからない|分からない|不明|not sure|unsure|undecided|tbd|to be decided|don'?t know|not decided(?: yet)?|maybe)\b|^(?:未定|不明)/i;

// An option that means "none": 「指名なし」「特になし」, "None", "N/A".
const NONE_OPTION = /(?:なし|無し)$|^(?:none|n\/a|not applicable|nothing)\b/i;
const NONE_REPLY = /^(?:none|nothing|no|nope|n\/a|なし|無し|ないです|ありません|特にありません|特になし|特にないです)$/i;

function indifferentOption(text: string, options: readonly string[]): string | null {
  const bare = trimPunctuation(text).replace(/(?:です|でお願いします|で)$/, '');
  const fit = (re: RegExp) => options.filter((option) => re.test(normalizeText(option)));
  if (INDIFFERENT_REPLY.test(text)) {
    const fits = fit(INDIFFERENT_OPTION).length > 0 ? fit(INDIFFERENT_OPTION) : fit(NONE_OPTION);
    if (fits.length === 1) return fits[0]!;
  }
  if (NONE_REPLY.test(bare)) {
    const fits = fit(NONE_OPTION);
    if (fits.length === 1) return fits[0]!;
  }
  return null;
}

/** 「はじめてです」 for 初めて, 「ふつう」 for 普通: an option written in kanji, said in kana. */
function readingPicks(text: string, opts: ReadonlyArray<{ option: string; key: string }>): string[] {
  if (!/[\p{Script=Hiragana}\p{Script=Katakana}]/u.test(text)) return [];
  const said = kanaReading(text);
  if (!said) return [];
  // A short reading (ネコ for 猫) names the option only as the whole reply, polite ending aside: inside a longer one
  // two kana match by chance.
  const whole = kanaReading(trimPunctuation(text).replace(/(?:です|でお願いします|で|にします)$/, ''));
  return opts
    .filter((choice) => /\p{Script=Han}/u.test(choice.key))
    .filter((choice) => {
      const reading = kanaReading(cleanItem(choice.option) || choice.option);
      return reading !== null && (reading === whole || (reading.length >= 3 && said.includes(reading)));
    })
    .map((choice) => choice.option);
}

/**
 * Japanese written shorter or longer than the option: 「高校」 for 高等学校, 「スポーツ」 for スポーツ車,
 * 「電動アシスト自転車」 for 電動アシスト車 — a kanji/katakana run of the reply that keeps the option's characters in
 * order (or the reverse), starting with the same one, for exactly one option.
 */
function japaneseShapePicks(text: string, opts: ReadonlyArray<{ option: string; key: string }>): string[] {
  const runs: string[] = text.match(/[\p{Script=Han}\p{Script=Katakana}ー\d]{2,}|[a-z]{2,}/gu) ?? [];
  const japanese = opts.filter((choice) => /[\p{Script=Han}\p{Script=Katakana}]/u.test(choice.key) && [...choice.key].length >= 2);
  // Every character of the option said, in order ("電動アシスト自転車", or 「普通車のATで」 with particles between) …
  const full = japanese.filter(
    (choice) =>
      runs.some((run) => run[0] === choice.key[0] && inOrder(choice.key, run)) || (choice.key.length >= 3 && spreadIn(choice.key, text)),
  );
  // … else a shortening of it (「高校」, 「スポーツ」, 「コロナ」).
  const part = japanese.filter((choice) =>
    runs.some((run) => (run[0] === choice.key[0] && inOrder(run, choice.key)) || (run.length >= 2 && choice.key.includes(run))),
  );
  const shaped = full.length > 0 ? full : part.length > 0 ? part : distinctiveWordPicks(text, japanese);
  // A Latin part that only one option has ("MT" → 普通車MT).
  const latin = japanese.filter((choice) =>
    (choice.key.match(/[a-z]{2,}/g) ?? []).some(
      (word) => runs.includes(word) && japanese.filter((other) => other.key.includes(word)).length === 1,
    ),
  );
  return distinct([...shaped, ...latin].map((choice) => choice.option));
}

/**
 * 「お迎えです」 or 「私が迎えに行きます」 to 「保護者お迎え／一人で帰宅」: a word of the reply (a noun or a verb's
 * stem with kanji or katakana, read with kuromoji) that only one option contains names that option.
 */
function distinctiveWordPicks<T extends { key: string }>(text: string, opts: readonly T[]): T[] {
  const ms = morphemes(text);
  if (!ms) return [];
  const words = distinct(
    ms
      .filter(
        (morpheme) =>
          (morpheme.pos === '名詞' || morpheme.pos === '動詞') &&
          morpheme.pos1 !== '非自立' &&
          morpheme.pos1 !== '数' &&
          /[\p{Script=Han}\p{Script=Katakana}]/u.test(morpheme.surface) &&
          [...morpheme.surface].length >= 2 &&
          !negatedAt(text, morpheme.start, morpheme.end),
      )
      .map((morpheme) => morpheme.surface),
  );
  const holders = words.map((word) => opts.filter((choice) => choice.key.includes(word))).filter((owners) => owners.length === 1);
  const picked = [...new Set(holders.map((owners) => owners[0]!))];
  return picked.length === 1 ? picked : [];
}

/** Every character of `key` in `text`, in order, spanning at most twice its length. */
function spreadIn(option: string, text: string): boolean {
  // 「電気・ガス両方」 said as 「電気もガスも両方」: the option's separators need not be said.
  const key = option.replace(/[・/／]/g, '');
  if (!key) return false;
  for (let start = text.indexOf(key[0]!); start >= 0; start = text.indexOf(key[0]!, start + 1)) {
    let i = 0;
    let end = start;
    for (let j = start; j < text.length && i < key.length; j++) {
      if (text[j] !== key[i]) continue;
      i++;
      end = j;
    }
    if (i === key.length && end - start + 1 <= key.length * 2) return true;
  }
  return false;
}

/** Whether every character of `short` appears in `long`, in order. */
function inOrder(short: string, long: string): boolean {
  let i = 0;
  for (const ch of long) if (ch === short[i]) i++;
  return i === short.length && short.length >= 2;
}

// Clothing sizes are a convention of their own: "medium" is M, 「エル」 is L, "extra large" is XL.
const SIZE_WORDS: ReadonlyArray<readonly [string, RegExp]> = [
  ['xxs', /\b(?:extra[- ]extra[- ]small|2xs)\b/],
  ['xs', /\b(?:extra[- ]small|x-small)\b/],
  ['xxl', /\b(?:extra[- ]extra[- ]large|2xl)\b|ダブルエックスエル/],
  ['xl', /\b(?:extra[- ]large|x-large)\b|エックスエル/],
  ['s', /\bsmall\b|エス(?:サイズ)?/],
  ['m', /\bmedium\b|エム(?:サイズ)?/],
  ['l', /\blarge\b|エル(?:サイズ)?/],
];

/** The size option a reply names in words, when the options are size codes. */
function sizePicks(text: string, options: readonly string[]): string[] {
  const keys = new Map(options.map((option) => [option.toLowerCase(), option]));
  if (!['s', 'm', 'l'].some((code) => keys.has(code))) return [];
  let rest = text;
  const picked: Array<{ option: string; at: number }> = [];
  for (const [key, re] of SIZE_WORDS) {
    const sizeMatch = re.exec(rest);
    const option = keys.get(key);
    if (!sizeMatch || !option) continue;
    if (negatedAt(rest, sizeMatch.index, sizeMatch.index + sizeMatch[0].length)) continue;
    picked.push({ option, at: sizeMatch.index });
    // "extra large" must not also count as "large".
    rest = rest.slice(0, sizeMatch.index) + ' '.repeat(sizeMatch[0].length) + rest.slice(sizeMatch.index + sizeMatch[0].length);
  }
  return distinct(picked.sort((a, b) => a.at - b.at).map((p) => p.option));
}

/**
 * The reply names an alias the form gave: as written, or (Japanese) by one of its nouns (「台風の強風で」 for
 * 「台風や強風による被害」), or (English) by one of its content words. The form wrote the alias to be named, so its
 * words count even when the question quoted them.
 */
function aliasNamed(text: string, words: readonly string[], alias: string): boolean {
  const normalized = normalizeText(alias).toLowerCase();
  if (/[\p{Script=Han}\p{Script=Katakana}\p{Script=Hiragana}]/u.test(normalized)) {
    if (normalized.length >= 2 && text.includes(normalized)) return true;
    return (morphemes(normalized) ?? []).some(
      (morpheme) =>
        morpheme.pos === '名詞' &&
        /^(?:一般|サ変接続|固有名詞)$/.test(morpheme.pos1) &&
        [...morpheme.surface].length >= 2 &&
        /[\p{Script=Han}\p{Script=Katakana}]/u.test(morpheme.surface) &&
        text.includes(morpheme.surface),
    );
  }
  const content = wordsOf(normalized).filter((word) => word.length >= 2 && !ENGLISH_COMMON_WORDS.has(word));
  return content.length > 0 && content.some((word) => words.some((replyWord) => sameWord(replyWord, word)));
}

/**
 * Several named: the first one is the answer ("Medium, since my last one was
 * tight"), unless the reply hesitates between them ("Day or Night",
 * 「平日か土日」, "either is fine"), which is for the follow-up to settle.
 */
// "Let's say the risotto", "I'll have the salmon", 「Bにします」: the sentence where the respondent decides.
const DECISION =
  /\b(?:let'?s (?:say|go with|do|make it)|i'?ll (?:have|take|go with|choose|pick|get)|i'?d (?:like|prefer|go with|take|choose|pick)|i (?:choose|pick|prefer|want)|(?:put|sign) me (?:down )?for|for me\b|my (?:choice|pick) is)|にします|にしておきます|でお願いします|をお願いします|が(?:いい|良い)です|を希望します|で決まり/i;

/** The one option named in the reply's sentences of decision, when the reply names several. */
function decided(reply: string, picked: readonly string[], echo: readonly string[], aliases: Record<string, string[]>): OptionMatch {
  // The decision runs from its cue ("… but they run tiny, so let's say a medium"); Japanese cues close the phrase they decide.
  const sentences = normalizeText(reply)
    .split(/(?<=[.!?。！？])\s*/)
    .map((sentence) => {
      const cue = DECISION.exec(sentence);
      // ("… would be easiest for me": "for me" closes what it decides, as Japanese cues do.)
      return cue && /^[a-z]/i.test(cue[0]) && !/^for me$/i.test(cue[0]) ? sentence.slice(cue.index) : cue ? sentence : null;
    })
    .filter((sentence): sentence is string => sentence !== null);
  if (sentences.length === 0 || sentences.join(' ').length >= normalizeText(reply).length - 1) return null;
  const found = new Set<string>();
  for (const sentence of sentences) {
    const decision = matchOption(sentence, picked, echo, aliases);
    if (decision && 'option' in decision) found.add(decision.option);
    else if (decision) return null;
  }
  return found.size === 1 ? { option: [...found][0]! } : null;
}

/**
 * 「120か130か迷いますが、130で」, "S or M, I can't decide, but M": after hesitating between options, the one named
 * after the last "but" settles it. (Without the hesitation, "but" may bring in someone else's choice.)
 */
function afterContrast(text: string, opts: ReadonlyArray<{ option: string; keys: string[] }>, picked: readonly string[]): OptionMatch {
  const marks = [...text.matchAll(/(?<=[すたいんだ])(?:が|けど|けれど|けれども)[、,]|\bbut\b|\bhowever\b/g)];
  const last = marks.at(-1);
  if (!last) return null;
  const head = text.slice(0, last.index);
  if (!/迷|悩|どっち|どちら|\bor\b|\beither\b|\btorn\b|can'?t decide|not sure/.test(head)) return null;
  const tail = text.slice(last.index + last[0].length);
  const named = literalPicks(
    tail,
    opts.filter((choice) => picked.includes(choice.option)),
  );
  return named.length === 1 && named[0] ? { option: named[0] } : null;
}

function firstNamed(text: string, picked: readonly string[]): OptionMatch {
  const at = picked.map((option) => Math.min(...keysOf(option).map((key) => firstIndex(text, key))));
  if (at.some((position) => position === Number.MAX_SAFE_INTEGER)) return null;
  const between = text.slice(Math.min(...at), Math.max(...at));
  // Hesitation: "Day or Night", 「平日か土日」 (か right after an option), 「どちらでも」.
  const kaAfter = picked.some((option) => keysOf(option).some((key) => text.includes(`${key}か`) && !text.includes(`${key}から`)));
  if (
    /\bor\b|\beither\b|\bwhichever\b|\bboth\b|\bany\b|または|どちらでも|どれでも/.test(between) ||
    kaAfter ||
    /\b(?:either|both|whichever)\b|どちらでも|どれでも/.test(text)
  )
    return null;
  // `picked` comes in the order the reply asserts them (taken-back and background ones last).
  return picked[0] ? { option: picked[0] } : null;
}

function negatedOption(text: string, option: string): boolean {
  const at = text.indexOf(option.toLowerCase());
  return at >= 0 && negatedAt(text, at, at + option.length);
}

const NUMBER_WORDS: Readonly<Record<string, string>> = {
  one: '1',
  two: '2',
  three: '3',
  four: '4',
  five: '5',
  six: '6',
  seven: '7',
  eight: '8',
  nine: '9',
  ten: '10',
  single: '1',
  double: '2',
  twin: '2',
  // "She started fourth grade" for grade 4.
  first: '1',
  second: '2',
  third: '3',
  fourth: '4',
  fifth: '5',
  sixth: '6',
  seventh: '7',
  eighth: '8',
  ninth: '9',
  tenth: '10',
  eleventh: '11',
  twelfth: '12',
};

function numberWord(word: string): string {
  return NUMBER_WORDS[word] ?? word;
}

/**
 * Same word, a plural, or an abbreviation of ≥3 letters ("bed" ~ "bedroom", "pref" ~ "preference"); a weekday however
 * it is written ("sat" ~ "Saturday", "thurs" ~ "Thu").
 */
function sameWord(reply: string, option: string): boolean {
  if (reply === option) return true;
  const weekdays = [weekdayNamed(reply), weekdayNamed(option)];
  if (weekdays[0] !== null && weekdays[1] !== null) return weekdays[0] === weekdays[1];
  // "fall 26" for "Fall 2026": a year written with two digits.
  if (/^\d{2}$/.test(reply) && /^(?:19|20)\d{2}$/.test(option)) return option.endsWith(reply);
  if (/^\d+$/.test(reply) || /^\d+$/.test(option)) return false;
  if (reply.length >= 3 && option.startsWith(reply)) return true;
  if (option.length >= 3 && reply.startsWith(option) && reply.length - option.length <= 3) return true;
  // "BR" for "bedroom", "Sq" no: a vowelless abbreviation whose letters the word has in order, from its first.
  return /^[b-df-hj-np-tv-z]{2,3}$/.test(option) && reply.length >= 5 && reply[0] === option[0] && inOrder(option, reply);
}

function wordsOf(text: string): string[] {
  return text.match(/[\p{Script=Latin}\p{N}]+(?:'[\p{Script=Latin}]+)?/gu) ?? [];
}

function firstIndex(text: string, word: string): number {
  const at = text.indexOf(word);
  return at < 0 ? Number.MAX_SAFE_INTEGER : at;
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

function negatedAt(text: string, start: number, end: number): boolean {
  const before = text.slice(Math.max(0, start - 14), start);
  const after = text.slice(end, end + 12);
  return (
    /\b(?:not|no|never|except|instead of|rather than)\s+(?:the\s+|a\s+)?$/.test(before) ||
    /^\s*(?:ではなく|じゃなく|ではありません|じゃない|でなく)/.test(after)
  );
}

function initialsOf(option: string): string {
  return option
    .split(/[\s-]+/)
    .map((word) => word.charAt(0))
    .join('');
}

function distinct(xs: string[]): string[] {
  return [...new Set(xs)];
}
