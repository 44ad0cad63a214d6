/**
 * How a reply frames the values in it, so extractors pick the one the
 * respondent means. People take values back ("£1,150, not £950", 「10時では
 * なく11時」, "I said 24 — I'm actually 25", 「3泊と言いましたが2泊」) and give
 * background before the answer ("5泊6日の旅行なので、6日間", "I get off work
 * at 5, so around 5:30"). These are closed grammatical classes (negation of a
 * noun phrase, reported speech, reason clauses), so a handful of patterns per
 * language covers them; nothing here knows about any form.
 */

/** [start, end) offsets into the text. */
export type Span = readonly [number, number];

const MAX_SPAN = 48;

// English: "not X", "instead of X", "I said X". Verb negation ("don't have", "haven't been") negates an
// action, not a value, and comparatives ("not more than 3") keep their number.
const RETRACT_EN =
  /\b(?:(?:not|isn't|wasn't|aren't|weren't)(?!\s+(?:more|less|fewer|later|earlier|before|after|over|under|above|below|including|counting|only|just|even|quite|sure|certain|yet|really|too|very|exactly|much|many|that|at all)\b)|instead of|rather than|in place of|no longer|scratch|cancel|forget|i (?:said|wrote|put|gave|typed|entered|told you|mentioned)|i've (?:said|written|put|given))\s+/gi;
const BOUNDARY_EN = /[,.;!?()\u2014\u2013]|\s-\s|\bbut\b|\bit's\b|\bit is\b|\bi'm\b|\bi am\b/i;

// Japanese: 「XではなくY」「Xじゃなくて」「Xでなく」「Xと言いましたが」「Xは間違い」.
const RETRACT_JA =
  /(?:ではなく|じゃなくて|じゃなく|でなく|ではなかった|ではありません(?:でした)?|じゃないです|と言いましたが|と言ったけど|って言いましたが|って言ったけど|と書きましたが|と答えましたが|と申しましたが|とお伝えしましたが|と入力しましたが|は間違い)/g;
// A Japanese noun phrase starts after punctuation, or after a topic/subject particle that follows a noun.
const BOUNDARY_JA = /[、。，,！？!?\s「」『』（）()]|(?<=[\p{Script=Han}\p{Script=Katakana}ー\p{Script=Latin}\p{N}])[はが]/u;

/** Stretches that take a value back: the values inside them are not the answer. */
export function retractedSpans(text: string): Span[] {
  const spans: Span[] = [];
  for (const retraction of text.matchAll(RETRACT_EN)) {
    const start = retraction.index + retraction[0].length;
    spans.push([start, forwardTo(text, start, BOUNDARY_EN)]);
  }
  for (const retraction of text.matchAll(RETRACT_JA)) {
    spans.push([backTo(text, retraction.index, BOUNDARY_JA), retraction.index]);
  }
  // A change of mind mid-reply takes back what came before it in the sentence: "週2回…いや、やっぱり週1回",
  // "3 o'clock - no wait, 4", "Tuesday, or rather Wednesday".
  for (const correction of text.matchAll(SELF_CORRECTION)) {
    // "週2回…いや": the trailing dots of a hesitation do not end the sentence being taken back.
    // A change of mind that opens a new sentence ("…something? Hang on…") takes back the sentence before it.
    let end = correction.index;
    while (end > 0 && HESITATION_MARK.test(text[end - 1]!)) end--;
    const start = backTo(text, end, SENTENCE, 200);
    if (end > start) spans.push([start, end]);
  }
  return spans.filter(([start, end]) => end > start);
}

// Also hesitation settled aloud: 「午後か夜間…うーん、夜間で」, "Like 140,000 something? Hang on, let me look... 143,880".
// (The last lookbehind is tried where a "no" starts only: tried everywhere, it scanned a long run of spaces back from
// each of its positions.)
const SELF_CORRECTION =
  /(?:いや|いえ)[、,…\s]+|(?:[、,….\s]|^)(?:やっぱり|やはり|うーん|ええと|えーと)|\b(?:no wait|wait,? no|actually,? no|or rather|i mean|scratch that|make that|hang on|let me (?:check|look|see|think))\b|(?=no)(?<=(?:\.\.\.|[…—-])\s*)no,?\s(?=\s*\w)/gi;
// What ends the stretch a correction takes back, before it: dots, spaces, commas, question marks.
const HESITATION_MARK = /[.…\s、,?!？！。]/;

// Reason clauses: 「…ので、」, a conjunctive から after a predicate (遠いから、 — not 3日前から, which is "since"),
// "because …", a causal "since" followed by a subject, and what precedes ", so I/we/…".
// A preface ending in 「けど、」「けれど、」 (「旅行は19日から21日までなんですけど、」) sets the scene for the answer after it.
const BACKGROUND_JA = /(?:ので|(?<=[いうくすつぬむるただ])から|(?<=[だすたいんね])(?:けど|けれど|けれども)(?=[、,]))/g;
const BECAUSE_EN = /\b(?:because|cause|'cause|since (?=(?:i|we|my|our|the|it|he|she|they|there)\b))\b/gi;
// (The spaces from their first one, or from the comma: tried from each space of a long run, this was quadratic.)
const SO_EN = /(?:,|(?<![\s,]))\s+so\s+(?=(?:i|we|i'd|i'll|i'm|we'd|we're|we'll|it|that|my|our|ideally|probably|maybe|if)\b)/gi;
const SENTENCE = /[.!?。！？\n]/;

/** Stretches that give background (a reason, a circumstance) rather than the answer itself. */
export function backgroundSpans(text: string): Span[] {
  const spans: Span[] = [];
  for (const reason of text.matchAll(BACKGROUND_JA))
    spans.push([backTo(text, reason.index, SENTENCE, 200), reason.index + reason[0].length]);
  // "Because X, Y": a reason that opens the sentence ends at its comma; one that follows the answer runs to the end.
  // (Where each "so" is, found once: looked for again after each "because", the reading was quadratic.)
  const conclusions = [...text.matchAll(SO_EN)].map((conclusion) => conclusion.index);
  let nextConclusion = 0;
  for (const because of text.matchAll(BECAUSE_EN)) {
    let before = because.index;
    while (before > 0 && /\s/.test(text[before - 1]!)) before--;
    const opens = before === 0 || /[.!?。！？]/.test(text[before - 1]!);
    // (", so that would be my personal card" after it is the conclusion, not more of the reason.)
    while (nextConclusion < conclusions.length && conclusions[nextConclusion]! <= because.index) nextConclusion++;
    const so = conclusions[nextConclusion];
    const end = forwardTo(text, because.index + because[0].length, opens ? /[,;.!?]/ : /[.;!?]/, 200);
    spans.push([because.index, so !== undefined ? Math.min(end, so) : end]);
  }
  for (const conclusion of conclusions) spans.push([backTo(text, conclusion, SENTENCE, 200), conclusion]);
  return spans.filter(([start, end]) => end > start);
}

/** Spans in text order with overlapping ones merged, and also those `joins` says belong together (the gap between them). */
export function mergeSpans(spans: readonly Span[], joins: (gapStart: number, gapEnd: number) => boolean = () => false): Span[] {
  const out: Array<[number, number]> = [];
  for (const [start, end] of [...spans].sort((a, b) => a[0] - b[0])) {
    const last = out.at(-1);
    if (last && (start <= last[1] || joins(last[1], start))) last[1] = Math.max(last[1], end);
    else out.push([start, end]);
  }
  return out;
}

/**
 * Candidates in the order they should be tried: those the respondent
 * asserts first, then those inside background clauses, each group in text
 * order. Retracted candidates are dropped; if every candidate is retracted,
 * nothing is left ("not 5" names no value).
 */
export function preferAsserted<T>(text: string, items: readonly T[], span: (item: T) => Span): T[] {
  const retracted = containment(retractedSpans(text));
  const background = containment(backgroundSpans(text));
  // Parsers may include the punctuation around a value (chrono reads 「、10時」): judge the value itself.
  const inside = (contains: (start: number, end: number) => boolean, at: Span) => contains(...core(text, at));
  const kept = items.filter((item) => !inside(retracted, span(item)));
  const [front, back] = [kept.filter((item) => !inside(background, span(item))), kept.filter((item) => inside(background, span(item)))];
  return [...front, ...back];
}

/**
 * Sorted span starts with the furthest end reached so far: the spans that start at or before a point are a prefix,
 * found by binary search, so asking whether any span contains or overlaps a stretch takes log time (a reply with
 * thousands of values was quadratic against its spans).
 */
function spanIndex(spans: readonly Span[]): { count: (at: number, inclusive: boolean) => number; reach: Float64Array } {
  const sorted = [...spans].sort((a, b) => a[0] - b[0]);
  const reach = new Float64Array(sorted.length);
  sorted.forEach(([, to], i) => (reach[i] = Math.max(to, i > 0 ? reach[i - 1]! : -Infinity)));
  /** How many spans start before `at` (or at it, when inclusive). */
  const count = (at: number, inclusive: boolean) => {
    let [low, high] = [0, sorted.length];
    while (low < high) {
      const middle = (low + high) >> 1;
      if (sorted[middle]![0] < at || (inclusive && sorted[middle]![0] === at)) low = middle + 1;
      else high = middle;
    }
    return low;
  };
  return { count, reach };
}

/** Whether any of `spans` holds [start, end) whole. */
export function containment(spans: readonly Span[]): (start: number, end: number) => boolean {
  const { count, reach } = spanIndex(spans);
  return (start, end) => {
    const starting = count(start, true);
    return starting > 0 && reach[starting - 1]! >= end;
  };
}

/** Whether any of `spans` overlaps [start, end): starts before its end and ends after its start. */
export function overlap(spans: readonly Span[]): (start: number, end: number) => boolean {
  const { count, reach } = spanIndex(spans);
  return (start, end) => {
    const starting = count(end, false);
    return starting > 0 && reach[starting - 1]! > start;
  };
}

/** The text with what it takes back blanked out, offsets kept ("I said Lightning but I meant the standard talk"). */
export function blankRetracted(text: string): string {
  // In one pass over the merged spans: blanking span after span copied the text once per span.
  let out = '';
  let copied = 0;
  for (const [start, end] of mergeSpans(retractedSpans(text))) {
    out += text.slice(copied, start) + ' '.repeat(end - start);
    copied = end;
  }
  return out + text.slice(copied);
}

/** A span without the spaces and punctuation at its ends. */
function core(text: string, [start, end]: Span): Span {
  let [from, to] = [start, end];
  while (from < to && /[\s\p{P}]/u.test(text.charAt(from))) from++;
  while (to > from && /[\s\p{P}]/u.test(text.charAt(to - 1))) to--;
  return [from, to];
}

function forwardTo(text: string, from: number, boundary: RegExp, max = MAX_SPAN): number {
  const rest = text.slice(from, from + max);
  const found = boundary.exec(rest);
  return from + (found ? found.index : rest.length);
}

function backTo(text: string, to: number, boundary: RegExp, max = MAX_SPAN): number {
  const from = Math.max(0, to - max);
  const before = text.slice(from, to);
  let last = -1;
  const global = new RegExp(boundary.source, boundary.flags.includes('g') ? boundary.flags : `${boundary.flags}g`);
  for (const match of before.matchAll(global)) last = match.index + match[0].length;
  return last >= 0 ? from + last : from;
}
