import { answerSpec, factsOrField, factTexts, type FactType } from '../nlu/fact-type.js';
import { candidateValue, readValue } from '../nlu/review-rules.js';
import { contentWords } from '../nlu/content.js';
import { escapeRegExp, mentionsLabel, normalizeText, type SessionLanguage } from '../nlu/text.js';
import { extractQuantity } from '../nlu/quantity.js';
import { dateDirection, extractDate } from '../nlu/date-values.js';
import { retractedSpans } from '../nlu/discourse.js';
import { extractChoice } from '../nlu/answer-values.js';
import { extractPeriod } from '../nlu/time-values.js';
import type { FactDefinition, FormField, FormSessionView } from '@convo/contract';
import { currentField, factsOf, formField, readingNow } from './form-flow.js';

/**
 * Which field a respondent's message is about. By default the question that
 * was actually shown last (not the system's current field, which a failed
 * turn may have moved on without asking); a message that corrects an earlier,
 * resolved field ("Actually my email is …", 「さっきの電話番号は間違いで…」) goes
 * to that field, to be reviewed again.
 */
export type MessageRoute = { fieldId: string | null; correction: boolean };

export function routeUserMessage(state: FormSessionView, text: string, now: Date = readingNow(state)): MessageRoute {
  if (!state.plan || state.currentAgent === 'greeter' || state.currentAgent === 'architect') return { fieldId: null, correction: false };
  const lastAsked = lastAskedFieldId(state);
  const corrected = correctedField(state, text, lastAsked, now);
  if (corrected) return { fieldId: corrected, correction: true };
  return { fieldId: lastAsked ?? currentField(state)?.field.fieldId ?? null, correction: false };
}

/** The field of the interviewer's latest message that belongs to a field (null once the closing message was sent). */
export function lastAskedFieldId(state: FormSessionView): string | null {
  for (let i = state.messages.length - 1; i >= 0; i--) {
    const message = state.messages[i];
    if (message?.role === 'assistant' && message.agent === 'interviewer') return message.fieldId;
  }
  return null;
}

// Words people use when they take something back. Strong ones say a value was wrong; weak ones only refer to an
// earlier answer ("as I said earlier", 「先ほども申しましたが」), which is no correction unless a new value of that
// field's kind comes with them.
// ("Actually" corrects where it opens a sentence or a clause; "so I can actually focus" only stresses.)
const STRONG_EN =
  /(?:^|[.!?,;:—-]\s*|\b(?:oh|wait|no|sorry|oops|um|uh|and|but)\s+)actually\b|\bactually,|\b(?:correction|correct(?:ed)?|i meant|i mean|wrong|mistake|mistyped|typo|messed up|screwed up|my bad|oops|instead|change|update|not .{1,40} but|should be|should have been|misread|mixed up)\b/i;
const WEAK_EN = /\b(?:sorry|earlier|previous|before|as i said|actually)\b/i;
const STRONG_JA =
  /間違|訂正|正しくは|ではなく|じゃなく|変更|修正|誤り|やっぱり|やはり|変えて|替えて|と言いましたが|って言ったけど|と書きましたが/;
const WEAK_JA = /さっき|先ほど|先程|前に|すみません/;

/** Kinds by how unmistakable their values are, least first. */
const SPECIFICITY: readonly FactType[] = [
  'period',
  'duration',
  'number',
  'choice',
  'year',
  'time',
  'date',
  'postal_code',
  'url',
  'phone',
  'email',
];

type FieldKinds = { field: FormField; kinds: Array<{ fact: FactDefinition; type: FactType; options: readonly string[] }> };

function correctedField(state: FormSessionView, raw: string, lastAsked: string | null, now: Date): string | null {
  const text = normalizeText(raw);
  const strong = STRONG_EN.test(text) || STRONG_JA.test(text);
  if (!strong && !WEAK_EN.test(text) && !WEAK_JA.test(text)) return null;
  const lang: SessionLanguage = state.bootstrap.language === 'ja' ? 'ja' : 'en';
  const resolved = state.fields.filter((field) => (field.status === 'done' || field.status === 'skipped') && field.fieldId !== lastAsked);
  const asked = lastAsked ? state.fields.find((field) => field.fieldId === lastAsked) : undefined;
  const askedOpen = asked && asked.status !== 'done' && asked.status !== 'skipped' ? kindsOf(state, asked.fieldId) : null;
  // "Make the earliest time 9 am": a message that names the question being asked answers it.
  if (askedOpen && mentionsLabel(text, askedOpen.field.label)) return null;
  const scored: Array<{ fieldId: string; score: number }> = [];
  const retracted = retractedSpans(text).map(([start, end]) => text.slice(start, end));
  // The same words already taken as a field's correction, sent again, answer the question on screen.
  const correctedBefore = new Set(
    state.messages
      .filter((message) => message.role === 'user' && message.correction && normalizeText(message.text) === text)
      .map((message) => message.fieldId),
  );
  for (const field of resolved) {
    if (correctedBefore.has(field.fieldId)) continue;
    const fk = kindsOf(state, field.fieldId);
    if (!fk) continue;
    // Named by its label, or by a fact's own words ("the odometer" for "Current mileage").
    const named = mentionsLabel(text, fk.field.label) || fk.kinds.some((kind) => mentionsLabel(text, kind.fact.fact));
    // Short options ("C", "L") are read only from a message that names the field or says it changes something.
    const found = fk.kinds
      .map((kind) => ({
        type: kind.type,
        value: valueOf(kind, text, lang, state.bootstrap.country, now, named || strong, field.value, fk.field),
      }))
      .find((candidate) => candidate.value !== null);
    // "Time's still about half three" to a stored 15:30 is the same time, said without pm.
    const value =
      found?.type === 'time' && field.value && sameClockFace(found.value ?? '', field.value) ? field.value : (found?.value ?? null);
    // A loose time expression ("9 am", "now") corrects a period or a duration only where the message names it.
    const loose = (found?.type === 'period' || found?.type === 'duration') && !CALENDAR_WORDS.test(value ?? '');
    const changed = value !== null && value !== field.value && (named || !loose);
    // A date outranks the bare number inside it ("January 25" is no count of 25).
    const specific = found ? SPECIFICITY.indexOf(found.type) / 10 : 0;
    // The open question takes a value of its own kind, unless the message names the earlier field.
    const openTakesIt = askedOpen?.kinds.some((kind) => fk.kinds.some((other) => other.type === kind.type)) ?? false;
    // With only "sorry" or "earlier" to go on, an unnamed field is corrected only by a value that cannot be anything
    // else (an address, a date); "sorry, since Monday" is an answer.
    const unmistakable = found !== undefined && SPECIFICITY.indexOf(found.type) >= SPECIFICITY.indexOf('date');
    // "I said 24", 「XLじゃなくて」: the field whose value the message takes back is the one it corrects.
    const said = field.value !== null && retracted.some((phrase) => containsValue(phrase, field.value!));
    const takesBack = said && (changed || fk.kinds.length === 0);
    const bonus = specific + (takesBack ? 1 : 0);
    // A field whose last correction could not be used takes another only when named with a new value: the
    // respondent repeating themselves is answering the question on screen.
    const rejectedBefore = !field.needsReview && field.lastReview !== null && !field.lastReview.passed;
    if (rejectedBefore && !(named && changed)) continue;
    if (named && changed) scored.push({ fieldId: field.fieldId, score: 3 + bonus });
    // Taking the old value back settles it even when the open question could take a value of that kind.
    else if (changed && (takesBack || (!openTakesIt && (strong || unmistakable))))
      scored.push({ fieldId: field.fieldId, score: 2 + bonus });
    // A free-text field ("Sorry, I typed 210 but I'm actually in 201") is corrected when its answer is taken back.
    else if (takesBack) scored.push({ fieldId: field.fieldId, score: 3 });
    // Naming a field without a new value corrects it only when the message says something was wrong.
    else if (named && value === null && strong) scored.push({ fieldId: field.fieldId, score: 1 });
  }
  scored.sort((a, b) => b.score - a.score);
  const [best, second] = scored;
  if (!best) return null;
  if (!second || second.score < best.score) return best.fieldId;
  // Two fields held the same old value ("4" for a grade and for days a week): the one whose own words the message
  // shares (「週5日」 and 「1週間あたりの利用日数」) is the one it corrects.
  const tied = scored
    .filter((entry) => entry.score === best.score)
    .map((entry) => ({ fieldId: entry.fieldId, shared: sharedWords(text, kindsOf(state, entry.fieldId)) }));
  tied.sort((a, b) => b.shared - a.shared);
  return tied[0] && tied[0].shared > (tied[1]?.shared ?? 0) ? tied[0].fieldId : null;
}

/** How many of the message's content words the field's own words (label, intent, facts) also use. */
function sharedWords(text: string, fk: FieldKinds | null): number {
  if (!fk) return 0;
  const own = [fk.field.label, fk.field.intent ?? '', ...fk.kinds.flatMap((kind) => factTexts(kind.fact))];
  return contentWords(text, []).length - contentWords(text, own).length;
}

function kindsOf(state: FormSessionView, fieldId: string): FieldKinds | null {
  const field = formField(state, fieldId);
  if (!field) return null;
  const facts = factsOf(state, field);
  const list = factsOrField(field, facts);
  const kinds = list
    .map((fact) => ({ fact, ...answerSpec(fact, field, { fieldContext: list.length === 1 }) }))
    .filter((kind) => kind.type !== 'text' && kind.type !== 'yes_no');
  return { field, kinds };
}

function valueOf(
  kind: FieldKinds['kinds'][number],
  text: string,
  language: SessionLanguage,
  country: string | null,
  now: Date,
  explicit: boolean,
  current: string | null,
  field: FormField,
): string | null {
  const { type, options } = kind;
  // Read as the reviewer reads an answer to this field (its stated dates and hours included).
  const texts = [...factTexts(kind.fact), field.label, field.intent ?? ''];
  switch (type) {
    case 'date': {
      const direction = dateDirection(factTexts(kind.fact));
      // "Sunday the 14th" is a day of the month the form states.
      const value =
        readValue({ type, options: [], texts }, text, { language, country, now }) ??
        extractDate(text, { language, now, requireYear: false, direction }).value;
      // A birth date or an accident cannot lie in the future: such a date belongs to another field.
      return value && direction === 'past' && value > now.toISOString().slice(0, 10) ? null : value;
    }
    case 'number': {
      // Digits that belong to a date or a time ("January 25", "since 2019") are no count, nor are ordinals ("Sunday the 14th").
      const bare = (phrase: string) => phrase.replace(/\b\d+(?:st|nd|rd|th)\b/gi, ' ');
      const counted = extractQuantity(bare(withoutTimes(text, language, now)), factTexts(kind.fact), { near: current }).value;
      if (counted !== null || !explicit) return counted;
      // A message that names the field: a number followed by the very unit the question counts ("4 days" to "How many
      // days per week"), which the date reading took for a length of time.
      const words = new Set(
        texts
          .join(' ')
          .toLowerCase()
          .match(/\p{L}+/gu) ?? [],
      );
      const unit = [...bare(text).matchAll(/(?<!\d)(\d+)\s*(\p{L}+)/gu)].find((match) => words.has((match[2] ?? '').toLowerCase()));
      return unit?.[1] ?? null;
    }
    case 'choice':
      return explicit
        ? extractChoice(text, options).value
        : candidateValue({ type, options, texts: [] }, [text], { language, country, now });
    case 'text':
    case 'yes_no':
    case 'name':
      return null;
    default:
      return readValue({ type, options: [], texts }, text, { language, country, now });
  }
}

// A calendar day, month or year ("January 25", "2025年3月"), as opposed to a clock time or "now".
const CALENDAR_WORDS =
  /\d{4}|[年月日]|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b|\b(?:mon|tues|wednes|thurs|fri|satur|sun)day\b/i;

// (A bare 「5日」 may be a count of days: 「週5日」.)
const DATE_WORDS =
  /\d{4}|[年月時]|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b|\b(?:mon|tues|wednes|thurs|fri|satur|sun)day\b|\b(?:today|yesterday|tomorrow|week|month|year|ago|am|pm)\b/i;

/** The text with its time expressions blanked (offsets kept). */
function withoutTimes(text: string, language: SessionLanguage, now: Date): string {
  // Only pieces that read as dates or times ("January 25", "2019"); a bare "95" may be the count itself.
  const pieces = (extractPeriod(text, { language, now }).value?.split(', ') ?? []).filter((piece) => DATE_WORDS.test(piece));
  return pieces.reduce((rest, piece) => (piece && rest.includes(piece) ? rest.replace(piece, ' '.repeat(piece.length)) : rest), text);
}

/** Whether a stored value is written in `text` as a whole (a short Latin value such as "M" must stand alone). */
function containsValue(text: string, value: string): boolean {
  const trimmed = value.trim();
  // "Actually no, make that the 15th": a yes or a no inside a retraction is the retracting, not the stored answer.
  if (trimmed.length === 0 || trimmed.length > 40 || /^(?:yes|no|はい|いいえ)$/i.test(trimmed)) return false;
  // "61,500" is the stored 61500.
  if (/^\d+(?:\.\d+)?$/.test(trimmed))
    return (text.match(/\d[\d,]*(?:\.\d+)?/g) ?? []).some((number) => number.replace(/,/g, '') === trimmed);
  const esc = escapeRegExp(trimmed);
  return new RegExp(`(?<![A-Za-z0-9])${esc}(?![A-Za-z0-9])`, 'i').test(text);
}

/** Two HH:MM times twelve hours apart read the same on a clock face. */
function sameClockFace(a: string, b: string): boolean {
  const mins = (time: string) => (/^(\d{2}):(\d{2})$/.exec(time) ? Number(time.slice(0, 2)) * 60 + Number(time.slice(3)) : NaN);
  const [minutesA, minutesB] = [mins(a), mins(b)];
  return Number.isFinite(minutesA) && Number.isFinite(minutesB) && (minutesA - minutesB) % 720 === 0;
}
