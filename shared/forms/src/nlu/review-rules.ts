import type { FactDefinition, FormField, ReviewResult } from '@convo/contract';
import { withinTextBudget } from '@convo/text';
import { admitsNotKnowing, isNilAnswer, isNonAnswer, isSkipRequest } from './answer-intent.js';
import { extractChoice, extractPostalCode, extractYesNo } from './answer-values.js';
import {
  acceptsNone,
  answerSpec,
  asksConditionally,
  asksForRemarks,
  asksForBirthDate,
  asksForCode,
  asksForOneNamePart,
  classifyFact,
  factsOrField,
  factTexts,
  type FactType,
} from './fact-type.js';
import { aliasesFor } from './options.js';
import { affirms, answerPolarity, deniesExistenceJa } from './polarity.js';
import { dateDirection, dateMentions, extractDate, isoDate, loneDayOfMonth, weekdayOnOrAfter } from './date-values.js';
import { asksForRecord, extractDuration, extractPeriod, extractTime, extractTimeRange, extractYear, SAID_DAY_PART } from './time-values.js';
import { optionalHintText, requiredText, skippedText, verdictText, type Verdict } from './review-messages.js';
import type { MissingFact, MissingReason, ReviewNotice, ReviewNoticeCode } from '../domain/reviewer-output.js';
import { judgeTextFacts, opensWithNotKnowing, type FactJudgement, type FactSpec } from './text-facts.js';
import { backgroundSpans, containment, preferAsserted, retractedSpans } from './discourse.js';
import { escapeRegExp, hasJapanese, mentionsLabel, normalizeText, trimSentence, type SessionLanguage } from './text.js';
import { extractPersonName } from './person-name.js';
import { extractQuantity } from './quantity.js';
import { contactSpans, extractEmail, extractPhone, extractUrl, stripSpans, type Extraction } from './typed-values.js';

export { answerSpec, classifyFact, type AnswerSpec, type ClassifyOptions, type FactType } from './fact-type.js';
export { isNilAnswer, isNonAnswer, isSkipRequest } from './answer-intent.js';
export { CONTENT_THRESHOLDS } from './free-text.js';

/** How one fact fared: its type, whether it is satisfied, why (as data, and in the session language) and the value found. */
export type FactResult = {
  factKey: string;
  fact: string;
  type: FactType;
  satisfied: boolean;
  verdict: Verdict;
  reason: string;
  value: string | null;
};

/**
 * The reviewer's verdict plus the per-fact explanation behind it. `missing`
 * and `notice` are the same findings as `feedback`, as data: what a follow-up
 * is built from.
 */
export type ReviewOutcome = ReviewResult & { factResults: FactResult[]; missing: MissingFact[]; notice: ReviewNotice | null };

export type ReviewInput = {
  field: FormField;
  facts: FactDefinition[];
  /** Every respondent message for this field so far, oldest first: follow-ups add facts. */
  answers: string[];
  language: SessionLanguage;
  /** ISO alpha-2 country of residence: the default region for national phone formats. */
  country: string | null;
  /** Reference for relative dates ("next Monday"); defaults to now. */
  now?: Date;
  /** The respondent's IANA time zone: relative dates are their local dates. */
  timezone?: string | null;
  /**
   * The respondent's messages about other fields, oldest first. A typed fact
   * missing from the field's own answers is taken from them when the latest
   * answer confirms it ("yes" to "You mentioned … — is that right?").
   */
  earlierAnswers?: string[];
  /** The form's other fields: an answer that gives one of them its contact value and names it is about that field. */
  otherFields?: ReadonlyArray<{ label: string; kinds: readonly FactType[] }>;
  /** The value a correction replaces: a date given without its year or month takes them from it (「13日ではなく…」). */
  replacing?: string | null;
};

/**
 * The offline reviewer: deterministic, explainable rules deciding whether the
 * answers establish every fact of a field.
 *
 * - A typed fact (email, phone, date, number, URL, name) is satisfied when a
 *   valid value of its type appears in any answer (the latest wins).
 * - Free-text facts are judged by content and keywords (see text-facts.ts).
 * - A field without facts is judged as one fact made of its label and intent
 *   (typed if the label says so: a field "Email" checks for an email).
 * - An optional field whose latest answer is a skip request or "none/なし"
 *   passes as skipped; a required one never passes on a refusal.
 */
export function reviewAnswer(input: ReviewInput): ReviewOutcome {
  // One answer's review is one budgeted analysis: text no rule expected fails this review, not the worker.
  return withinTextBudget(() => review(input));
}

function review(input: ReviewInput): ReviewOutcome {
  const lang = input.language;
  const answers = input.answers.map(normalizeText).filter((answer) => answer.length > 0);
  const latest = answers.at(-1) ?? '';
  const facts = factsOrField(input.field, input.facts);
  const specs = facts.map((fact) => specOf(fact, input.field, facts.length > 1));
  // "Approximate time or 'never'", 「「個人」とご記入ください」, "A length of time, or never played": a reply the form itself
  // offers as an answer is that answer, not a refusal nor too short.
  const quoted = new Map(
    specs.map((spec) => [spec, quotedAnswer(latest, spec)] as const).filter((entry): entry is [FactSpec, string] => entry[1] !== null),
  );
  // (Nor is "none" where the criteria take "none" as an answer: 「…または飲んでいないことがわかる」.)
  // A catch-all ("Anything else we should know?", 「備考」) told "nothing" is left blank, whatever its criteria accept.
  const noneAnswers = isNilAnswer(latest) && !asksForRemarks(input.field) && specs.some((spec) => acceptsNone(spec.fact.doneCriteria));
  if (!input.field.required && latest && quoted.size === 0 && !noneAnswers && declines(latest, specs, input))
    return skipped(lang, facts, input.field);

  const judged = new Map<FactSpec, FactJudgement>();
  for (const spec of specs.filter((candidate) => candidate.type !== 'text')) judged.set(spec, judgeTyped(spec, answers, input));
  // A soft choice ("work, studies or experience", "Available: round tables, chairs, projector …") that no option
  // matched, or that the reply answers with more than one option's words ("round tables + chairs, stage area"), is a
  // description: judged as free text, kept as written.
  const asText = specs.filter(
    (spec) =>
      spec.type === 'text' || (spec.soft && (!judged.get(spec)?.satisfied || saysMoreThanOption(latest, judged.get(spec)?.value, spec))),
  );
  const typed = specs.filter((spec) => !asText.includes(spec));
  // "Sorry, typo in my email - it's …": a message about another field's contact value is no answer to this field's prose.
  // In a correction, the part taken back ("Sorry, I typed 210 but") is not the new answer.
  // (Sentence by sentence: 「住み替えです。新居のページはこれです https://…」 answers this field before it gives another's.)
  const textAnswers = answers
    .map((answer) =>
      sentencesOf(answer)
        .filter((sentence) => !aboutAnotherField(sentence, input))
        .join(' ')
        .trim(),
    )
    .filter((answer) => answer.length > 0)
    .map((answer) => (input.replacing ? withoutRetracted(answer) : answer));
  const text = judgeTextFacts(asText, textAnswers, {
    stripContacts: typed.some((spec) => ['email', 'phone', 'url'].includes(spec.type)),
    country: phoneCountry(input),
  });
  for (const judgement of text.results) judged.set(judgement.spec, judgement);
  for (const [spec, value] of quoted)
    if (!judged.get(spec)?.satisfied) judged.set(spec, { spec, verdict: { code: 'found', value }, satisfied: true, value });

  // "No" to the field's yes/no question leaves nothing for its conditional facts ("…, if reported") to ask.
  if (specs.some((spec) => spec.type === 'yes_no' && judged.get(spec)?.value === 'no')) {
    for (const spec of specs.filter((candidate) => candidate.conditional)) judged.set(spec, missing(spec));
  }
  const results = specs.map((spec) => toFactResult(lang, judged.get(spec) ?? missing(spec), asText.includes(spec) ? 'text' : spec.type));
  const extracted = results
    .filter((result) => result.satisfied && result.value !== null)
    .map((result) => `${result.factKey}: ${(result.value ?? '').replace(/\n/g, ' / ')}`);
  // A fact asked only under a condition ("Crime reference number, if reported") never holds the field back.
  const blocking = results.filter((result, i) => !result.satisfied && !specs[i]?.conditional);
  if (blocking.length === 0) {
    return { passed: true, extracted_facts: extracted, field_value: fieldValue(results), factResults: results, missing: [], notice: null };
  }
  const notice = noticeFor(lang, input.field, latest);
  return {
    passed: false,
    feedback: [notice?.text ?? '', ...blocking.map((result) => result.reason)].filter(Boolean).join(lang === 'ja' ? '' : ' '),
    missing_facts: blocking.map((result) => result.fact),
    extracted_facts: extracted,
    factResults: results,
    missing: blocking.map(missingFact),
    notice,
  };
}

function specOf(fact: FactDefinition, field: FormField, multi: boolean): FactSpec {
  const { type, options, soft } = answerSpec(fact, field, { fieldContext: !multi });
  const texts = multi ? factTexts(fact) : [...factTexts(fact), field.label, field.intent ?? ''];
  const aliases = options.length >= 2 ? aliasesFor(options, texts) : {};
  const echo = [fact.fact, ...(multi ? [] : [field.label])];
  return {
    fact,
    type,
    options,
    texts,
    aliases,
    echo,
    ...(soft ? { soft } : {}),
    ...(multi && asksConditionally(factTexts(fact)) ? { conditional: true } : {}),
  };
}

/**
 * An optional field is skipped on "skip", and on "none / なし" unless the
 * field can take that as its answer: "no" to a yes/no question, or a listed
 * option ("No preference").
 */
function declines(latest: string, specs: readonly FactSpec[], input: ReviewInput): boolean {
  const picksOption = specs.some(
    (spec) => spec.options.length >= 2 && extractChoice(latest, spec.options, [], spec.aliases).value !== null,
  );
  const answersYesNo = specs.some((spec) => spec.type === 'yes_no' && extractYesNo(latest, spec.options).value !== null);
  const countsZero = specs.some((spec) => spec.type === 'number') && countsNothing(latest);
  if (picksOption || answersYesNo || countsZero) return false;
  if (isSkipRequest(latest) || isNilAnswer(latest)) return true;
  // 「記録はないです、大会は初めてなので」, "I don't have one": saying there is nothing to give, with no value of the kind asked.
  const typed = specs.filter((spec) => spec.type !== 'text');
  if (typed.length === specs.length)
    return answerPolarity(latest) === 'no' && typed.every((spec) => extract(spec, latest, input).value === null);
  // 「入っていません」, "Don't have one" to an optional code: a few words saying there is none, no figure in them. (A note
  // that says something is not so - 「おむつが取れていません」 - is the note; not knowing - 「思い出せません」 - is asked again.)
  return (
    specs.every((spec) => asksForCode(spec.texts)) &&
    [...latest].length <= SHORT_DENIAL &&
    !/\d/.test(latest) &&
    !admitsNotKnowing(latest) &&
    answerPolarity(latest) === 'no'
  );
}

const SHORT_DENIAL = 20;

// A short answer the form puts in quotes: 'never', "N/A", 「なし」, “none yet”; and 「個人」 in 「「個人」とご記入ください」, a
// corner-bracket quote that runs into the words telling the respondent to write it.
const QUOTED =
  /(?<![\p{L}\p{N}])['‘"“「『]([^'‘’"“”「」『』\n]{1,24})['’"”」』](?![\p{L}\p{N}])|[「『]([^「」『』\n]{1,24})[」』](?=\s*[とで](?:ご?記入|お?書き|書いて|ご?回答|お答え|入力))/gu;
// The words a fact's text allows instead of a value of its kind, after a last "or": "A length of time, or never played".
const OR_INSTEAD = /(?:^|[,;]\s*|\s)or\s+(?:["“']?)([\p{L}/][\p{L}\s'/-]{1,28}?)["”']?\s*[.。]?$/iu;

/** The answers a fact's own words offer as acceptable as they are: quoted ones, and (but for "none") one after a last "or". */
function offeredAnswers(text: string, spec: FactSpec): string[] {
  const quoted = [...text.matchAll(QUOTED)].map((quoteMatch) => quoteMatch[1] ?? quoteMatch[2] ?? '');
  // (A choice's or a yes/no's last "or" joins its own options; "none" is for the rules on nothing to report.)
  const instead = spec.type === 'choice' || spec.type === 'yes_no' ? undefined : OR_INSTEAD.exec(normalizeText(text))?.[1];
  return instead && !isNilAnswer(instead) ? [...quoted, instead] : quoted;
}

/** The reply, when it is (or opens with) an answer the fact's own words offer as acceptable; else null. */
function quotedAnswer(reply: string, spec: FactSpec): string | null {
  const said = normalizeText(reply).toLowerCase();
  for (const text of spec.texts) {
    for (const offered of offeredAnswers(text, spec)) {
      const literal = normalizeText(offered).toLowerCase().trim();
      if (!literal || spec.options.some((option) => option.toLowerCase() === literal)) continue;
      // Said as a whole word of a short reply ("never", "It's never been serviced"), not inside a longer account.
      const edge = /^[\p{L}\p{N}]/u.test(literal) && !hasJapanese(literal) ? String.raw`(?<![\p{L}\p{N}'])` : '';
      const word = new RegExp(`${edge}${escapeRegExp(literal)}${edge ? String.raw`(?![\p{L}\p{N}])` : ''}`, 'u');
      const short = hasJapanese(said) ? said.length <= 20 : said.split(/\s+/).length <= 10;
      if (short && word.test(said)) return trimSentence(normalizeText(reply));
    }
  }
  return null;
}

/** A reply that says there are none ("None right now", "no other pets", 「いません」), with no figure. */
function countsNothing(answer: string): boolean {
  if (/\d/.test(answer) || isNonAnswer(answer) || admitsNotKnowing(answer)) return false;
  // English opens with a negative quantifier; Japanese says that none exist (「いません」「ないです」).
  if (hasJapanese(answer)) return answerPolarity(answer) === 'no' && deniesExistenceJa(answer);
  return isNilAnswer(answer) || /^\s*(?:none|nothing|no (?:other |more )?\w+)\b/i.test(answer);
}

function judgeTyped(spec: FactSpec, answers: string[], input: ReviewInput): FactJudgement {
  let rejected: Extraction | null = null;
  const range = spec.type === 'number' ? statedRange([spec.fact.fact, spec.fact.doneCriteria]) : null;
  for (const answer of [...answers].reverse()) {
    // "No clue, honestly. I inherited it from my aunt last year": after "I don't know", a value told in passing is no
    // answer, and an earlier guess is withdrawn ("Honestly I don't know for sure" after "I never got any papers").
    // (A choice may offer "Not sure" itself.)
    const extraction = extract(spec, answer, input);
    // (Nor a reply that opens with its yes or no: "No, sorry, I forgot and had a coffee".)
    const polarFirst = spec.type === 'yes_no' && /^\W*(?:yes|yeah|yep|no|nope|nah|はい|いいえ)(?![\p{L}])/iu.test(answer);
    if (opensWithNotKnowing(answer) && !OFFERS_ANYWAY.test(answer) && !polarFirst && !(spec.type === 'choice' && extraction.value !== null))
      break;
    // "A number between 0 and 4", "on a 0.0–4.0 scale": a value outside the form's range is not the answer ("out of 20").
    if (extraction.value !== null && range && (Number(extraction.value) < range[0] || Number(extraction.value) > range[1])) {
      rejected ??= { value: null, rejected: extraction.value, problem: 'invalid' };
      continue;
    }
    if (extraction.value !== null)
      return { spec, verdict: { code: 'found', value: extraction.value }, satisfied: true, value: extraction.value };
    if (extraction.rejected !== null) rejected ??= extraction;
  }
  const latest = answers.at(-1) ?? '';
  const other = answers.length >= 2 && spec.type === 'choice' ? catchAllPick(spec, latest, extract(spec, latest, input)) : null;
  if (other) return { spec, verdict: { code: 'found', value: other }, satisfied: true, value: other };
  const confirmed = confirmedEarlier(spec, answers, input);
  if (confirmed) return { spec, verdict: { code: 'found', value: confirmed }, satisfied: true, value: confirmed };
  if (!rejected?.rejected) return missing(spec);
  const text = rejected.rejected;
  const problem = rejected.problem;
  const code =
    problem === 'no_year' || problem === 'incomplete_name' || problem === 'ambiguous' || problem === 'not_an_option' ? problem : 'invalid';
  const verdict: Verdict =
    code === 'ambiguous' || code === 'not_an_option' ? { code, text, options: rejected.alternatives ?? spec.options } : { code, text };
  return { spec, verdict, satisfied: false, value: null };
}

// A form's catch-all option: "Other", "Other (please specify)", 「その他」.
const CATCH_ALL = /^(?:others?|something else|その他|そのほか|他)(?:\s*[(（:：].*)?$/i;

/**
 * Asked again with the options in view, a concrete answer that is none of them
 * ("My only income is crypto gains" to 給与・事業・…・その他) is the form's
 * catch-all option, when it has one. Not knowing is no such answer.
 */
function catchAllPick(spec: FactSpec, latest: string, extraction: Extraction): string | null {
  const other = spec.options.filter((option) => CATCH_ALL.test(option.trim()));
  if (other.length !== 1) return null;
  if (
    extraction.value !== null ||
    extraction.problem !== 'not_an_option' ||
    admitsNotKnowing(latest) ||
    isNilAnswer(latest) ||
    isSkipRequest(latest)
  )
    return null;
  // "I don't have any", 「収入はありません」: saying there is nothing is not "other".
  return answerPolarity(latest) === 'no' ? null : (other[0] ?? null);
}

// What still offers a value after "I don't know": a "but", a guess, an approximation.
// (Or remembers: "Oh, actually yes, the vet did it… So yes.")
const OFFERS_ANYWAY =
  /(?:^|[.!?,;]\s*)(?:oh,?\s+)?actually,?\s+(?:yes|no)\b|\bso (?:yes|no)\b|\b(?:but|though|maybe|probably|perhaps|i think|i guess|i'd say|around|about|roughly|approximately|something like|let'?s (?:say|go with|do|make it)|i'll (?:say|go with|take))\b|たぶん|多分|おそらく|恐らく|くらい|ぐらい|頃|ごろ|けど|けれど|が、|と思い/i;

const NUM = String.raw`(-?\d+(?:\.\d+)?)`;
// A range that opens with its number reads the number from its sign or first digit: tried from each digit of a long
// row, the search was quadratic (and a match from inside a row is one from its start anyway).
const FIRST_NUM = String.raw`((?:-|(?<!\d))\d+(?:\.\d+)?)`;
const RANGE_STATED = [
  new RegExp(String.raw`\bbetween\s+${NUM}\s+and\s+${NUM}`, 'i'),
  new RegExp(String.raw`\bfrom\s+${NUM}\s+to\s+${NUM}\b`, 'i'),
  new RegExp(String.raw`${FIRST_NUM}\s*[-–〜~]\s*${NUM}\s*(?:scale|点満点|の範囲)`, 'i'),
  new RegExp(String.raw`${FIRST_NUM}\s*(?:から|〜|~)\s*${NUM}\s*(?:の間|の範囲|まで)`),
];

/** The range a fact's description or criteria set for its number, as [min, max], or null. */
function statedRange(texts: readonly string[]): [number, number] | null {
  for (const text of texts.map(normalizeText)) {
    for (const re of RANGE_STATED) {
      const rangeMatch = re.exec(text);
      if (rangeMatch) {
        const [min, max] = [Number(rangeMatch[1]), Number(rangeMatch[2])];
        if (min < max) return [min, max];
      }
    }
  }
  return null;
}

/** A value of this fact the respondent gave earlier, now confirmed by the latest answer ("yes", 「はい」). */
function confirmedEarlier(spec: FactSpec, answers: string[], input: ReviewInput): string | null {
  const latest = answers.at(-1);
  if (!latest || !input.earlierAnswers?.length) return null;
  if (!affirms(latest)) return null;
  return candidateValue(spec, input.earlierAnswers, input, input.field.label);
}

/** The kinds of value safe to carry from one field's answer to another: they cannot be mistaken for something else. */
const CANDIDATE_TYPES: ReadonlySet<FactType> = new Set(['email', 'phone', 'url', 'postal_code', 'choice']);

/** The latest value of the fact's kind in `texts`, or null. */
export function candidateValue(
  spec: Pick<FactSpec, 'type' | 'options' | 'texts'>,
  texts: readonly string[],
  input: Pick<ReviewInput, 'language' | 'country' | 'now' | 'timezone'>,
  label: string | null = null,
): string | null {
  const read = (pool: readonly string[]) => {
    for (const text of [...pool].reverse()) {
      const extraction = extract(spec as FactSpec, normalizeText(text), input as ReviewInput);
      if (extraction.value !== null) return extraction.value;
    }
    return null;
  };
  const unmistakable = CANDIDATE_TYPES.has(spec.type) && !(spec.type === 'choice' && spec.options.some((option) => [...option].length < 3));
  const found = unmistakable ? read(texts) : null;
  if (found !== null || label === null || spec.type === 'text' || spec.type === 'yes_no') return found;
  // "Actually, make that 4 people" before the number of people was asked: a message that names the field
  // carries its value, whatever the kind.
  return read(texts.filter((text) => mentionsLabel(normalizeText(text), label)));
}

/**
 * The value of a kind in one message, read as the reviewer reads an answer (the form's stated dates and hours
 * included): for routing a message to the field it corrects.
 */
export function readValue(
  spec: { type: FactType; options: readonly string[]; texts: string[] },
  message: string,
  input: Pick<ReviewInput, 'language' | 'country' | 'now' | 'timezone'>,
): string | null {
  return extract(spec as FactSpec, normalizeText(message), input as ReviewInput).value;
}

function extract(spec: FactSpec, answer: string, input: ReviewInput): Extraction {
  if (spec.options.length > 0 && spec.type !== 'choice' && spec.type !== 'yes_no') {
    const picked = extractChoice(answer, spec.options, [], spec.aliases);
    if (picked.value !== null) return picked;
  }
  const extraction = extractKind(spec, answer, input);
  if (extraction.value === null || !HESITATING_KINDS.has(spec.type)) return extraction;
  const alternatives = alternativesOffered(spec, answer, input);
  return alternatives ? { value: null, rejected: answer, problem: 'ambiguous', alternatives } : extraction;
}

/**
 * The reply asks for several of a soft list's items together ("round tables + chairs", "a microphone and a projector",
 * 「机と椅子」): two items joined by "and", "+", "&" or a comma, with nothing but an article between. Two items in
 * different clauses ("午後だと助かります。午前中は…") are a choice and its reason.
 */
function saysMoreThanOption(reply: string, option: string | null | undefined, spec: FactSpec): boolean {
  if (!option) return false;
  const said = reply.toLowerCase();
  const spans = spec.options
    .flatMap((candidate) => {
      const at = said.indexOf(candidate.toLowerCase());
      return at < 0 ? [] : [{ start: at, end: at + candidate.length }];
    })
    .sort((a, b) => a.start - b.start);
  return spans.some((span, i) => i > 0 && ITEMS_JOINED.test(said.slice(spans[i - 1]!.end, span.start)));
}

const ITEMS_JOINED = /^\s*(?:,|、|\+|＋|&|・|と|\band\b|\bplus\b)\s*(?:(?:a|an|the|some)\s)?$/u;

const SETTLES =
  /\binstead\b|\bmake (?:it|that)\b|\blet'?s (?:do|go with|say|make it)\b|に(?:します|変更して|してください)|でお願いします|に変えて/i;

/** Kinds of value a respondent may hesitate between ("2012? Or 2013?"); a span or a length is written as said. */
const HESITATING_KINDS: ReadonlySet<FactType> = new Set(['year', 'date', 'time', 'number']);
// "X or Y", "X? Y?", 「XかYか」, 「XかY」, "either X or Y" - but not "or so", "or more", "or rather" (approximations, corrections).
// (Nor the か of 分かる: 「分かっていなくて」 offers no alternatives.)
const ALTERNATIVE_SPLIT =
  /\?|？|\bor\b(?!\s+(?:so|more|less|rather|fewer|later|earlier|thereabouts|above|over|under)\b)|または|それとも|(?<=[\d０-９年月日時分歳人回個枚台])か(?![らなりるれろっ])/gi;

/**
 * The distinct values of the fact's kind the respondent offers as
 * alternatives ("I want to say 2012? Or 2013?", 「3人か4人です」), or null when
 * they offer one value. Such an answer is no value yet: the follow-up asks which.
 */
function alternativesOffered(spec: FactSpec, answer: string, input: ReviewInput): string[] | null {
  // A sentence after the question mark that runs on is a reason ("maybe 1:15? Church lets out at noon and …"), not
  // another option; a short one or one that starts with "or" is.
  const pieces = answer.split(ALTERNATIVE_SPLIT).filter((part, i) => {
    if (i === 0) return true;
    const trimmed = part.trim();
    return (
      /^(?:or\b|それとも|または)|^[\d０-９]/i.test(trimmed) ||
      (hasJapanese(trimmed) ? trimmed.length <= 12 : trimmed.split(/\s+/).length <= 5)
    );
  });
  if (pieces.length < 2) return null;
  // "Can we do Friday the 21st instead? I have a trip on the 17th": a reply that settles on one is no hesitation.
  if (SETTLES.test(answer)) return null;
  const values = new Set<string>();
  for (const piece of pieces) {
    const value = piece.trim() ? extractKind(spec, piece, input).value : null;
    if (value !== null) values.add(value);
  }
  return values.size >= 2 ? [...values] : null;
}

/** The parts of a fact spec extraction reads. */
type KindSpec = Pick<FactSpec, 'type' | 'options' | 'texts' | 'aliases' | 'echo'>;

function extractKind(spec: KindSpec, answer: string, input: ReviewInput): Extraction {
  const time = { language: input.language, now: input.now ?? new Date(), timezone: input.timezone ?? null };
  switch (spec.type) {
    case 'choice':
      // The question's own words pick nothing; hints may quote the very shorthand people answer with ('econ').
      return extractChoice(answer, spec.options, spec.echo ?? spec.texts, spec.aliases);
    case 'yes_no':
      return extractYesNo(answer, spec.options);
    case 'time': {
      const clock = extractTime(answer, time);
      // A correction said without am/pm keeps the half of the day of the time it replaces.
      const reference = input.replacing && /^\d{2}:\d{2}$/.test(input.replacing) ? [`${input.replacing}`] : [];
      return clock.value ? { ...clock, value: withinStatedHours(clock.value, answer, [...spec.texts, ...reference]) } : clock;
    }
    case 'year':
      return extractYear(answer, time);
    case 'period':
      return extractPeriod(answer, time);
    case 'duration': {
      // "About 9 years old" to "Age of the roof": where the fact asks a thing's age, its age is the length asked for.
      const said = spec.texts.some((text) => AGE_ASKED.test(text))
        ? answer.replace(/\b((?:years?|months?|weeks?|days?))[\s-]+old\b/gi, '$1')
        : answer;
      const duration = extractDuration(said, { ...time, record: asksForRecord(spec.texts) });
      // "Permanently", 「無期限で」: a length with no end is a length too.
      const open = duration.value === null ? OPEN_ENDED.exec(answer) : null;
      return open ? { value: open[0], rejected: null } : duration;
    }
    case 'postal_code':
      return extractPostalCode(answer, input.country);
    case 'email':
      return extractEmail(answer);
    case 'phone':
      // A mobile is wanted when the form asks for one or the respondent says to use it ("the mobile's better").
      return extractPhone(answer, phoneCountry(input), {
        mobile: [...spec.texts, answer].some((text) => /\b(?:mobile|cell)\b|携帯/i.test(text)),
      });
    case 'url':
      return extractUrl(answer);
    case 'date': {
      const options = { ...time, country: input.country, ...dateReference(spec, input) };
      const requireYear = asksForBirthDate(spec.texts);
      const said = settledDay(answer, extractDate(answer, { ...options, requireYear }));
      const near = said.value === null && options.direction === 'nearest' && options.now ? (dayOfMonth(answer, options.now) ?? said) : said;
      // "Friday the 13th", 「16日」 with no month: the next (or, for the past, the last) such day.
      const lone =
        near.value === null && options.direction !== 'nearest' && !requireYear
          ? loneDayOfMonth(answer, { now: options.now, timezone: options.timezone }, options.direction)
          : null;
      const date = lone ? { value: lone, rejected: null } : near;
      // "When did you do it?" - "in 2023", "from 2019 to 2021": unless the form asks for a calendar day, a coarser
      // time is kept as written.
      if (date.value === null && date.rejected === null && !requireYear && !spec.texts.some((text) => EXACT_DAY.test(text))) {
        const coarse = extractPeriod(answer, time);
        if (coarse.value !== null) return coarse;
      }
      // 「2026年4月〜2027年3月のうち」 and 「1月」: a date said without its year takes the year that puts it in the stated range;
      // 「2025年に発生した事故のため」: or the one year the form states.
      if (date.value !== null && !/(?:19|20)\d{2}|令和|平成|昭和|'\d{2}/.test(answer)) {
        const fitted = intoStatedRange(date.value, statedTexts(spec), input);
        if (fitted !== date.value) return { value: fitted, rejected: null };
        const year = statedYearOnly(statedTexts(spec));
        if (year !== null && !date.value.startsWith(year) && !asksForBirthDate(spec.texts))
          return { value: `${year}${date.value.slice(4)}`, rejected: null };
      }
      // 「昭和22年生まれで、誕生日は3月3日」: the year said on its own completes the day said without one.
      if (date.problem !== 'no_year') return date;
      const year = extractYear(answer, time).value;
      const day = extractDate(answer, { ...options, requireYear: false }).value;
      return year && day ? { value: `${year}${day.slice(4)}`, rejected: null } : date;
    }
    case 'number': {
      // "I can't give you a GPA on a 4.0 scale": a number quoted from the question is not the answer.
      // Numbers the question states ("on a 4.0 scale") are not the answer; a hint's worked example ("a third-floor
      // walk-up is usually 2 flights") is the interviewer's, and may well be.
      const quantity = extractQuantity(withoutEchoedNumbers(answer, statedTexts(spec)), spec.texts, { near: input.replacing });
      // "None right now", 「いません」 to "how many": a count of nothing is 0.
      return quantity.value === null && quantity.rejected === null && countsNothing(answer) ? { value: '0', rejected: null } : quantity;
    }
    case 'name':
      return personNameIn(stripSpans(answer, contactSpans(answer, phoneCountry(input))), asksForOneNamePart(spec.texts) ? 1 : 2);
    case 'time_range':
      return extractTimeRange(answer, time);
    case 'datetime': {
      // A day and a time, both from the reply: either alone is half of the answer, refused with what was heard.
      const day = extractKind({ ...spec, type: 'date' }, answer, input);
      const clock = extractTime(answer, time);
      if (isCalendarDay(day.value) && clock.value !== null) return { value: `${day.value}T${clock.value}`, rejected: null };
      const heard = day.value ?? clock.value ?? day.rejected ?? clock.rejected;
      return heard === null ? { value: null, rejected: null } : { value: null, rejected: heard, problem: 'invalid' };
    }
    case 'date_range':
      return extractDateRange(spec, answer, input);
    case 'text':
      return { value: null, rejected: null };
  }
}

/** A whole calendar day (`YYYY-MM-DD`), not a month or a year, which a date fact may also store. */
const isCalendarDay = (value: string | null): value is string => value !== null && /^\d{4}-\d{2}-\d{2}$/.test(value);

// Where a reply joins its first and last day: "from the 2nd to the 9th", "jul 21-24", 「5月1日から5日まで」; asked for
// both ends, "the 9th and the 20th of February" names them too.
const DATE_JOIN = /(?:\bto\b|\buntil\b|\btill\b|\bthrough\b|\bthru\b|\band\b|-|–|—|~|〜|～|から)\s*/giu;
// Each join read costs two date readings of the reply: a reply of many dashes is not read many times over.
const DATE_JOINS_READ = 6;

/**
 * Two days as `YYYY-MM-DD/YYYY-MM-DD`: the reply is cut where it joins two dates and each side is
 * read as a date; a last day said as a bare day of the month ("jul 21-24", 「5日まで」) takes the
 * first day's month. One date alone is not a range: refused with what was heard. `answer` is
 * normalised (NFKC), as every answer the review reads.
 */
function extractDateRange(spec: KindSpec, answer: string, input: ReviewInput): Extraction {
  const asDate = (text: string) => extractKind({ ...spec, type: 'date' }, text, input).value;
  let read = 0;
  for (const join of answer.matchAll(DATE_JOIN)) {
    if (read++ === DATE_JOINS_READ) break;
    const at = join.index;
    const first = asDate(answer.slice(0, at));
    if (!isCalendarDay(first)) continue;
    const rest = answer.slice(at + join[0].length);
    // (Not "the 25" of "the 25th of April": an ordinal's letters are not a word after the number.)
    const bareDay = /^(?:the\s+)?(\d{1,2})(?:st|nd|rd|th|日)?(?![\d/a-z]|\s*(?:月|of\b|[a-z]{3}))/iu.exec(rest);
    const last = bareDay ? `${first.slice(0, 8)}${bareDay[1]!.padStart(2, '0')}` : (weekdayOnOrAfter(first, rest) ?? asDate(rest));
    if (!isCalendarDay(last)) continue;
    // "the 19th and the 25th of April": a first day said as a bare day of the month is in the last day's month.
    const loneFirst = LONE_DAY_OF_MONTH.exec(answer.slice(0, at));
    const inMonth = loneFirst ? `${last.slice(0, 8)}${loneFirst[1]!.padStart(2, '0')}` : null;
    if (inMonth && inMonth < last && !bareDay) return { value: `${inMonth}/${last}`, rejected: null };
    if (last > first) return { value: `${first}/${last}`, rejected: null };
    // "Dec 1 to Dec 6, 2024": a year said once, at the end, is the first day's year too.
    const sameYear = `${last.slice(0, 4)}${first.slice(4)}`;
    if (!YEAR_SAID.test(answer.slice(0, at)) && YEAR_SAID.test(rest) && sameYear <= last)
      return { value: `${sameYear}/${last}`, rejected: null };
  }
  // "I left on May 14, 2024 and got back on May 20, 2024": two whole dates, in order, however the reply joins them.
  const days = [
    ...new Set(
      dateMentions(answer, {
        now: input.now ?? new Date(),
        timezone: input.timezone ?? null,
        language: input.language,
        country: input.country,
      })
        .filter((mention) => mention.known.day && mention.known.month && mention.known.year)
        .map((mention) => isoDate(mention.year, mention.month, mention.day))
        .filter((day): day is string => day !== null),
    ),
  ];
  if (days.length === 2 && days[0]! < days[1]!) return { value: `${days[0]}/${days[1]}`, rejected: null };
  // One day where a span is asked ("tomorrow only", 「来週の月曜」): a span of that one day, which the respondent is asked
  // to confirm unless they said it is the only one (certainty.ts).
  const one = asDate(answer);
  if (isCalendarDay(one)) return { value: `${one}/${one}`, rejected: null };
  return one === null ? { value: null, rejected: null } : { value: null, rejected: one, problem: 'invalid' };
}

// The start of a span said as a bare day of the month: "from the 19th", "the 9th", 「9日」.
const LONE_DAY_OF_MONTH = /(?:^|\s)(?:from\s+|on\s+)?(?:the\s+)?(\d{1,2})(?:st|nd|rd|th|日)?\s*$/iu;
/**
 * A person's name in a reply: as the name reader reads it; else, with a bracketed reading left out, the name said in
 * a polite first sentence (「青木 大翔です」, 「山田（やまだ）花子さんです。…」), the whole reply, or a person named with an
 * honorific inside it (「同じチームの森 健太さんにお願いしています」).
 */
function personNameIn(said: string, parts: 1 | 2): Extraction {
  const name = extractPersonName(said, parts);
  if (name.value !== null) return name;
  const unbracketed = said.replace(READING_IN_BRACKETS, '');
  const polite = politeNoun(unbracketed.split(/[。！？!?]/)[0] ?? '');
  for (const text of [polite ?? unbracketed, HONORIFIC_NAME.exec(unbracketed)?.[1]]) {
    const found = text ? nameOrSpacedParts(text, parts) : null;
    if (found) return found;
  }
  return unbracketed === said ? name : extractPersonName(unbracketed, parts);
}

/**
 * The name the reader finds in `text`, or, asked for a full name, two parts in Japanese script set apart by a space
 * (「青木 大翔」): a family and a given name, whether or not the dictionary knows the given name.
 */
function nameOrSpacedParts(text: string, parts: 1 | 2): Extraction | null {
  const read = extractPersonName(text, parts);
  if (read.value !== null) return read;
  return parts === 2 && SPACED_JA_NAME.test(text.trim()) ? { value: text.trim(), rejected: null } : null;
}

// A reading or a nickname in brackets after a name: 「佐藤 美咲（みさき）」.
const READING_IN_BRACKETS = /[(（][^()（）]{1,20}[)）]/g;

const SPACED_JA_NAME =
  /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}ー]{1,5}[ \u3000][\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}ー]{1,5}$/u;

const HONORIFIC_NAME =
  /(?<![\p{Script=Han}\p{Script=Katakana}])(\p{Script=Han}{1,4}[ \u3000]?[\p{Script=Han}\p{Script=Katakana}\p{Script=Hiragana}]{1,4})(?:さん|様|氏)/u;

const YEAR_SAID = /(?:19|20)\d{2}|令和|平成|昭和/;

const AGE_ASKED = /\bage\b|\bhow old\b|\byears? old\b/i;

/** Year-less dates point the way the fact does, or, in a correction, to the date nearest the one corrected. */
function dateReference(spec: KindSpec, input: ReviewInput): { direction: 'past' | 'future' | 'any' | 'nearest'; now?: Date } {
  const corrected = input.replacing && /^\d{4}-\d{2}-\d{2}$/.test(input.replacing) ? new Date(`${input.replacing}T12:00:00Z`) : null;
  if (corrected) return { direction: 'nearest', now: corrected };
  // "The conference runs 14–16 October 2026; which day?": a day said without its year is the one nearest the form's date.
  const stated = statedDate(statedTexts(spec), input);
  return stated ? { direction: 'nearest', now: stated } : { direction: dateDirection(spec.texts) };
}

/** The fact's and field's own words without the hints: what the question states (a hint's example is the interviewer's). */
function statedTexts(spec: KindSpec): string[] {
  const hints = (spec as Partial<FactSpec>).fact?.questioningHints;
  return spec.texts.filter((text) => text !== hints);
}

/** A calendar date or month (with its year) that the form's own words state, or null; a month stands for its middle. */
function statedDate(texts: readonly string[], input: ReviewInput): Date | null {
  for (const text of texts.filter((candidate) => /\d{4}/.test(candidate))) {
    const date = extractDate(text, {
      language: hasJapanese(text) ? 'ja' : 'en',
      now: input.now ?? new Date(),
      requireYear: true,
      country: input.country,
    }).value;
    if (date && /^\d{4}-\d{2}-\d{2}$/.test(date)) return new Date(`${date}T12:00:00Z`);
    if (date && /^\d{4}-\d{2}$/.test(date)) return new Date(`${date}-15T12:00:00Z`);
  }
  return null;
}

/**
 * "16th", 「16日」 said alone to a question about a stated month: that day of it. Several days: the one the
 * respondent settles on ("The 14th. Actually no, make that the 15th — I'm travelling on the 14th").
 */
function dayOfMonth(answer: string, stated: Date): Extraction | null {
  const dayMatch = DAY_OF_MONTH.exec(answer);
  const asserted = dayMatch
    ? null
    : preferAsserted(answer, [...answer.matchAll(DAY_MENTION)], (mention) => [mention.index, mention.index + mention[0].length])[0];
  const day = Number(dayMatch?.[1] ?? dayMatch?.[2] ?? asserted?.[1] ?? asserted?.[2]);
  return (dayMatch || asserted) && day >= 1 && day <= 31
    ? { value: `${stated.toISOString().slice(0, 8)}${String(day).padStart(2, '0')}`, rejected: null }
    : null;
}

/** The one calendar year the form's words state, when they state no month with it ("accidents in 2025", 「2025年分」). */
function statedYearOnly(texts: readonly string[]): string | null {
  const joined = texts.join('\n');
  if (
    /(?:19|20)\d{2}\s*(?:年\s*)?(?:の\s*)?\d{1,2}\s*月|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d|\d{4}[-/.]\d{1,2}/i.test(
      joined,
    )
  )
    return null;
  const years = new Set([...joined.matchAll(/(?<!\d)((?:19|20)\d{2})(?!\d)/g)].map((yearMatch) => yearMatch[1]!));
  return years.size === 1 ? [...years][0]! : null;
}

/** A YYYY-MM(-DD) value moved a year either way when that, and only that, puts it inside the span the form states. */
function intoStatedRange(value: string, texts: readonly string[], input: ReviewInput): string {
  const stated: string[] = [];
  for (const text of texts.filter((candidate) => /\d{4}/.test(candidate))) {
    for (const mention of dateMentions(text, {
      language: hasJapanese(text) ? 'ja' : 'en',
      now: input.now ?? new Date(),
      country: input.country,
    })) {
      if (mention.known.year && mention.known.month) stated.push(`${mention.year}-${String(mention.month).padStart(2, '0')}`);
    }
  }
  if (stated.length < 2) return value;
  const [lo, hi] = [stated.reduce((a, b) => (a < b ? a : b)), stated.reduce((a, b) => (a > b ? a : b))];
  const inside = (date: string) => date.slice(0, 7) >= lo && date.slice(0, 7) <= hi;
  if (inside(value)) return value;
  const shifted = [-1, 1].map((offset) => `${Number(value.slice(0, 4)) + offset}${value.slice(4)}`).filter(inside);
  return shifted.length === 1 ? shifted[0]! : value;
}

/**
 * 「旅行は3月の19日から21日までなんですけど、…真ん中の20日にしたいです」: the full date sits in the preface; the day the
 * respondent settles on, said alone, is the answer, in the same month.
 */
function settledDay(answer: string, extraction: Extraction): Extraction {
  if (extraction.value === null || !/^\d{4}-\d{2}-\d{2}$/.test(extraction.value)) return extraction;
  const days = [...answer.matchAll(DAY_MENTION)];
  const background = containment(backgroundSpans(answer));
  const inBackground = (dayMatch: RegExpMatchArray) => background(dayMatch.index!, dayMatch.index! + dayMatch[0].length);
  // Only when the date found is said in the preface alone (「1日ずれて2027年1月10日に…10日で」 keeps the 10th).
  const ownDay = Number(extraction.value.slice(8));
  if (
    !days.some((dayMatch) => Number(dayMatch[1] ?? dayMatch[2]) === ownDay) ||
    days.some((dayMatch) => Number(dayMatch[1] ?? dayMatch[2]) === ownDay && !inBackground(dayMatch))
  )
    return extraction;
  const first = preferAsserted(answer, days, (dayMatch) => [dayMatch.index, dayMatch.index + dayMatch[0].length])[0];
  const day = Number(first?.[1] ?? first?.[2]);
  if (!first || !(day >= 1 && day <= 31) || day === Number(extraction.value.slice(8))) return extraction;
  // Only a day said on its own ("the 20th", 「20日」), not one of a full date that the extraction already weighed.
  if (
    /(?:月|月の|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?)\s*$/i.test(
      answer.slice(Math.max(0, first.index - 12), first.index),
    )
  )
    return extraction;
  return { value: `${extraction.value.slice(0, 8)}${String(day).padStart(2, '0')}`, rejected: null };
}

const DAY_MENTION = /\b(?:the\s+)?([0-3]?\d)(?:st|nd|rd|th)\b|(?<!\d)([0-3]?\d)日(?!間)/gi;

const STATED_CLOCK = /(\d{1,2})(?::(\d{2}))?\s*(am|pm|a\.m\.|p\.m\.)?|(\d{1,2})時(?:(半)|(\d{1,2})分)?/gi;

/**
 * "6時くらい" to a form that says 「最長18:30まで」, "after 1" to "Our techs work 8am to 6pm": an hour said without
 * am or pm is read the way that falls within the hours the form states.
 */
function withinStatedHours(value: string, answer: string, texts: readonly string[]): string {
  const [givenHour, givenMinute] = value.split(':').map(Number) as [number, number];
  if (givenHour === 0 || givenHour >= 12 || SAID_DAY_PART.test(answer)) return value;
  const stated: number[] = [];
  for (const text of texts.map(normalizeText)) {
    // "From 3:00 to 6:00 in the afternoon": a text that speaks only of the afternoon states afternoon hours.
    const afternoon = /\b(?:pm|p\.m|afternoon|evening)\b|午後|夕方|夜/i.test(text) && !/\b(?:am|a\.m|morning)\b|午前|朝/i.test(text);
    for (const clockMatch of text.matchAll(STATED_CLOCK)) {
      const hour = Number(clockMatch[1] ?? clockMatch[4]);
      const minute = clockMatch[5] ? 30 : Number(clockMatch[2] ?? clockMatch[6] ?? 0);
      if (!(clockMatch[2] || clockMatch[3] || clockMatch[4]) || hour > 24) continue;
      stated.push(((/p/i.test(clockMatch[3] ?? '') || (afternoon && !clockMatch[3])) && hour < 12 ? hour + 12 : hour) * 60 + minute);
    }
  }
  if (stated.length === 0) return value;
  const [lo, hi] = [Math.min(...stated), Math.max(...stated)];
  const within = (mins: number) => mins >= lo - 60 && mins <= hi + 60;
  const [am, pm] = [givenHour * 60 + givenMinute, (givenHour + 12) * 60 + givenMinute];
  return !within(am) && within(pm) ? `${String(givenHour + 12).padStart(2, '0')}:${String(givenMinute).padStart(2, '0')}` : value;
}

// A form that wants a calendar day: "a full date", "A calendar date", "exact date", 「年月日」「日付」.
const DAY_OF_MONTH = /^\D*?\b(?:the\s+)?([0-3]?\d)(?:st|nd|rd|th)\b\D*$|^\D*?(?<!\d)([0-3]?\d)日(?!間)\D*$/i;

const EXACT_DAY = /\b(?:full|calendar|exact|specific|complete)\s+date\b|\bday\b|年月日|日付|何日/i;

const OPEN_ENDED =
  /\b(?:permanent(?:ly)?|indefinite(?:ly)?|for good|ongoing|no end date|forever|until further notice)\b|無期限|ずっと|永久|恒久|無期/i;

/** The answer with every number-bearing phrase that the form's own words contain ("4.0 scale") blanked. */
function withoutEchoedNumbers(answer: string, texts: readonly string[]): string {
  // Joined with a break: "…from 0 to 2" + "Nights in our hotel block" must not read as "2 nights".
  const form = texts.join('\n').toLowerCase();
  // (A phrase is read from the start of its word, the lookbehinds: tried from each character of a long word, it was quadratic.)
  return answer.replace(/(?<!\S)\S*\d\S*(?:\s+\S+)?/g, (phrase) =>
    phrase.length >= 4 && form.includes(phrase.toLowerCase().replace(/(?<![.,!?])[.,!?]+$/, '')) && /\s/.test(phrase)
      ? ' '.repeat(phrase.length)
      : phrase,
  );
}

/** The answer without the stretches it takes back, and without a correction's lead-in before them. */
function withoutRetracted(answer: string): string {
  const spans = retractedSpans(answer);
  if (spans.length === 0) return answer;
  const end = Math.max(...spans.map(([, spanEnd]) => spanEnd));
  return trimSentence(answer.slice(end).replace(/^\s*(?:but|,|-|ではなく|じゃなくて)\s*/i, '')) || answer;
}

const CONTACT_KINDS: ReadonlySet<FactType> = new Set(['email', 'phone', 'url', 'postal_code']);

function sentencesOf(text: string): string[] {
  return text.split(/(?<=[。！？!?])\s*|(?<=\.)\s+(?=\p{Lu})/u).filter((sentence) => sentence.trim().length > 0);
}

function aboutAnotherField(answer: string, input: ReviewInput): boolean {
  return (input.otherFields ?? []).some(
    (field) =>
      mentionsLabel(answer, field.label) &&
      field.kinds.some(
        (kind) => CONTACT_KINDS.has(kind) && extractKind({ type: kind, options: [], texts: [] }, answer, input).value !== null,
      ),
  );
}

/** National phone formats are read in the respondent's country; without one, a Japanese session assumes Japan. */
function phoneCountry(input: ReviewInput): string | null {
  return input.country ?? (input.language === 'ja' ? 'JP' : null);
}

function missing(spec: FactSpec): FactJudgement {
  return { spec, verdict: { code: 'missing' }, satisfied: false, value: null };
}

function toFactResult(lang: SessionLanguage, judgement: FactJudgement, type: FactType): FactResult {
  // Feedback is read by the respondent's interviewer: a fact written in the other language is named by its kind.
  const shown =
    (lang === 'ja') === hasJapanese(judgement.spec.fact.fact) ? judgement.spec.fact.fact : lang === 'ja' ? 'この項目' : 'this item';
  return {
    factKey: judgement.spec.fact.factKey,
    fact: judgement.spec.fact.fact,
    type,
    satisfied: judgement.satisfied,
    verdict: judgement.verdict,
    reason: verdictText(lang, type, shown, judgement.verdict),
    value: judgement.value,
  };
}

/** What the answer as a whole is, when it is a refusal or "I don't know" (said before the missing facts), or null. */
function noticeFor(lang: SessionLanguage, field: FormField, latest: string): ReviewNotice | null {
  const notice = (code: ReviewNoticeCode, text: string): ReviewNotice => ({ code, text });
  if (field.required && latest && isSkipRequest(latest)) return notice('required_no_skip', requiredText(lang, 'skip'));
  if (!latest || !isNonAnswer(latest)) return null;
  return field.required
    ? notice('required_approximate_ok', requiredText(lang, 'non_answer'))
    : notice('optional_may_skip', optionalHintText(lang));
}

/** A fact the answers do not establish, from the same verdict its sentence is written from. */
function missingFact(result: FactResult): MissingFact {
  const { verdict } = result;
  return {
    fact: result.fact,
    reason: missingReason(verdict, result.type),
    kind: result.type,
    heard: 'text' in verdict ? verdict.text : null,
    options: 'options' in verdict ? [...verdict.options] : [],
    note: result.reason,
  };
}

function missingReason(verdict: Verdict, type: FactType): MissingReason {
  switch (verdict.code) {
    case 'missing':
      return type === 'text' ? 'absent' : 'not_found';
    case 'too_short':
      return 'too_brief';
    case 'vague':
    case 'nil_not_enough':
    case 'no_code':
      return 'too_vague';
    case 'ambiguous':
      return 'conflicting';
    case 'invalid':
    case 'no_year':
    case 'incomplete_name':
    case 'not_an_option':
      return 'invalid';
    // A fact held back with a satisfied verdict (none is today) has nothing to show for it.
    case 'found':
    case 'covered':
    case 'nil_ok':
      return 'absent';
  }
}

// A noun given in a polite sentence: 「モカです」「うちの子はモモといいます♪」「代表は私、中村 節子でございます」.
const POLITE_TAIL = /(?:さん|様|ちゃん|くん)?(?:です|でした|といいます|と言います|と申します|でございます|になります)$/u;
const TOPIC_HEAD = /^(?:[^。、！？!?]{0,12}?は(?:私[、,])?|私[、,])/u;
const SENTENCE_END = '。．.!！?？♪☆★〜~… ';

/** The noun of a short polite sentence (「モカです」 → 「モカ」), or null when the answer is not one. */
export function politeNoun(answer: string): string | null {
  let text = answer.trim();
  if ([...text].length > 40) return null;
  while (text.length > 0 && SENTENCE_END.includes(text.at(-1)!)) text = text.slice(0, -1);
  const tail = POLITE_TAIL.exec(text);
  if (!tail) return null;
  const noun = text.slice(0, tail.index).replace(TOPIC_HEAD, '').trim();
  if (noun.length === 0 || [...noun].length > 20 || /[。、！？!?]/.test(noun)) return null;
  return /(?:ない|ません|ある|いる|ます|から|ので|ため|けど|て|た)$/.test(noun) ? null : noun;
}

/**
 * One typed fact: its normalised value. Otherwise the typed values first,
 * then the answers that carried the free-text facts, one per line.
 */
function fieldValue(results: FactResult[]): string {
  const typed = results
    .filter((result) => result.type !== 'text' && result.satisfied && result.value !== null)
    .map((result) => result.value as string);
  if (results.length === 1 && typed.length === 1) return typed[0] ?? '';
  const texts = results
    .filter((result) => result.type === 'text' && result.satisfied && result.value)
    .flatMap((result) => (result.value as string).split('\n'));
  // A single free-text answer given as a short polite sentence is stored as its noun (「モカです」 → 「モカ」).
  if (results.length === 1 && texts.length === 1) return politeNoun(texts[0]!) ?? withoutDecoration(texts[0]!);
  return [...new Set([...typed, ...texts])].join('\n');
}

// Emoji and marks that decorate a short answer (「ちゃちゃまる🐱」, "Biscuit 🐶!"), with their joiners and selectors.
const DECORATION = /^(?:\p{Extended_Pictographic}|\u200d|\ufe0f|[♪☆★!！]|\s)$/u;

/** A short answer without the emoji around it: they decorate the message, they are no part of a name or a word. */
function withoutDecoration(text: string): string {
  const chars = [...text];
  if (chars.length > 30) return text;
  let start = 0;
  let end = chars.length;
  while (start < end && DECORATION.test(chars[start]!) && !/[!！]/.test(chars[start]!)) start++;
  while (end > start && DECORATION.test(chars[end - 1]!)) end--;
  return end > start ? chars.slice(start, end).join('') : text;
}

function skipped(lang: SessionLanguage, facts: readonly FactDefinition[], field: FormField): ReviewOutcome {
  const reason = skippedText(lang);
  return {
    passed: true,
    skipped: true,
    feedback: reason,
    extracted_facts: [],
    factResults: facts.map((fact) => ({
      factKey: fact.factKey,
      fact: fact.fact,
      type: classifyFact(fact, field, { fieldContext: facts.length === 1 }),
      satisfied: false,
      verdict: { code: 'missing' as const },
      reason,
      value: null,
    })),
    missing: [],
    notice: null,
  };
}
