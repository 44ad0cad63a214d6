import type { FactDefinition, FormField, ReviewResult } from '../schemas/form.js';
import { isNilAnswer, isNonAnswer, isSkipRequest } from './answer-intent.js';
import { extractChoice, extractPostalCode, extractYesNo } from './answer-values.js';
import { answerSpec, asksForBirthDate, asksForOneNamePart, classifyFact, factTexts, type FactType } from './fact-type.js';
import { extractDuration, extractPeriod, extractTime, extractYear } from './time-values.js';
import { optionalHintText, requiredText, skippedText, verdictText, type Verdict } from './review-messages.js';
import { judgeTextFacts, type FactJudgement, type FactSpec } from './text-facts.js';
import { hasJapanese, normalizeText, type SessionLanguage } from './text.js';
import { contactSpans, extractDate, extractEmail, extractName, extractNumber, extractPhone, extractUrl, stripSpans, type Extraction } from './typed-values.js';

export { answerSpec, classifyFact, type AnswerSpec, type ClassifyOptions, type FactType } from './fact-type.js';
export { isNilAnswer, isNonAnswer, isSkipRequest } from './answer-intent.js';
export { CONTENT_THRESHOLDS } from './free-text.js';

/** How one fact fared: its type, whether it is satisfied, why (in the session language) and the value found. */
export type FactResult = {
  factKey: string;
  fact: string;
  type: FactType;
  satisfied: boolean;
  reason: string;
  value: string | null;
};

/** The reviewer's verdict plus the per-fact explanation behind it. */
export type ReviewOutcome = ReviewResult & { factResults: FactResult[] };

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
  const lang = input.language;
  const answers = input.answers.map(normalizeText).filter((a) => a.length > 0);
  const latest = answers.at(-1) ?? '';
  const facts = input.facts.length > 0 ? input.facts : [factFromField(input.field)];
  if (!input.field.required && latest && (isSkipRequest(latest) || isNilAnswer(latest))) return skipped(lang, facts, input.field);

  const specs = facts.map((fact) => specOf(fact, input.field, facts.length > 1));
  const judged = new Map<FactSpec, FactJudgement>();
  for (const s of specs.filter((x) => x.type !== 'text')) judged.set(s, judgeTyped(s, answers, input));
  // A soft choice ("work, studies or experience") that no option matched is a description: judged as free text.
  const asText = specs.filter((s) => s.type === 'text' || (s.soft && !judged.get(s)?.satisfied));
  const typed = specs.filter((s) => !asText.includes(s));
  const text = judgeTextFacts(asText, answers, {
    stripContacts: typed.some((s) => ['email', 'phone', 'url'].includes(s.type)),
    country: phoneCountry(input),
  });
  for (const t of text.results) judged.set(t.spec, t);

  const results = specs.map((s) => toFactResult(lang, judged.get(s) ?? missing(s), asText.includes(s) ? 'text' : s.type));
  const extracted = results.filter((r) => r.satisfied && r.value !== null).map((r) => `${r.factKey}: ${(r.value ?? '').replace(/\n/g, ' / ')}`);
  if (results.every((r) => r.satisfied)) {
    return { passed: true, extracted_facts: extracted, field_value: fieldValue(results, text.usedAnswers), factResults: results };
  }
  return {
    passed: false,
    feedback: feedbackFor(lang, input.field, latest, results),
    missing_facts: results.filter((r) => !r.satisfied).map((r) => r.fact),
    extracted_facts: extracted,
    factResults: results,
  };
}

function specOf(fact: FactDefinition, field: FormField, multi: boolean): FactSpec {
  const { type, options, soft } = answerSpec(fact, field, { fieldContext: !multi });
  const texts = multi ? factTexts(fact) : [...factTexts(fact), field.label, field.intent ?? ''];
  return { fact, type, options, texts, ...(soft ? { soft } : {}) };
}

/** A field defined without facts is one fact: its label, with the intent as the criterion. */
function factFromField(field: FormField): FactDefinition {
  return { id: field.id, formFieldId: field.id, factKey: field.fieldId, fact: field.label, doneCriteria: field.intent ?? '', questioningHints: null };
}

function judgeTyped(spec: FactSpec, answers: string[], input: ReviewInput): FactJudgement {
  let rejected: Extraction | null = null;
  for (const answer of [...answers].reverse()) {
    const x = extract(spec, answer, input);
    if (x.value !== null) return { spec, verdict: { code: 'found', value: x.value }, satisfied: true, value: x.value };
    if (x.rejected !== null) rejected ??= x;
  }
  const confirmed = confirmedEarlier(spec, answers, input);
  if (confirmed) return { spec, verdict: { code: 'found', value: confirmed }, satisfied: true, value: confirmed };
  if (!rejected?.rejected) return missing(spec);
  const text = rejected.rejected;
  const p = rejected.problem;
  const code = p === 'no_year' || p === 'incomplete_name' || p === 'ambiguous' || p === 'not_an_option' ? p : 'invalid';
  const verdict: Verdict = code === 'ambiguous' || code === 'not_an_option' ? { code, text, options: spec.options } : { code, text };
  return { spec, verdict, satisfied: false, value: null };
}

/** A value of this fact the respondent gave earlier, now confirmed by the latest answer ("yes", 「はい」). */
function confirmedEarlier(spec: FactSpec, answers: string[], input: ReviewInput): string | null {
  const latest = answers.at(-1);
  if (!latest || !input.earlierAnswers?.length || !CANDIDATE_TYPES.has(spec.type)) return null;
  if (extractYesNo(latest).value !== 'yes') return null;
  return candidateValue(spec, input.earlierAnswers, input);
}

/** The kinds of value safe to carry from one field's answer to another: they cannot be mistaken for something else. */
const CANDIDATE_TYPES: ReadonlySet<FactType> = new Set(['email', 'phone', 'url', 'postal_code', 'choice']);

/** The latest value of the fact's kind in `texts`, or null. */
export function candidateValue(spec: Pick<FactSpec, 'type' | 'options' | 'texts'>, texts: readonly string[], input: Pick<ReviewInput, 'language' | 'country' | 'now' | 'timezone'>): string | null {
  if (!CANDIDATE_TYPES.has(spec.type)) return null;
  if (spec.type === 'choice' && spec.options.some((o) => [...o].length < 3)) return null;
  for (const t of [...texts].reverse()) {
    const x = extract(spec as FactSpec, normalizeText(t), input as ReviewInput);
    if (x.value !== null) return x.value;
  }
  return null;
}

function extract(spec: FactSpec, answer: string, input: ReviewInput): Extraction {
  if (spec.options.length > 0 && spec.type !== 'choice' && spec.type !== 'yes_no') {
    const picked = extractChoice(answer, spec.options);
    if (picked.value !== null) return picked;
  }
  return extractKind(spec, answer, input);
}

function extractKind(spec: FactSpec, answer: string, input: ReviewInput): Extraction {
  const time = { language: input.language, now: input.now ?? new Date(), timezone: input.timezone ?? null };
  switch (spec.type) {
    case 'choice':
      return extractChoice(answer, spec.options, spec.texts);
    case 'yes_no':
      return extractYesNo(answer, spec.options);
    case 'time':
      return extractTime(answer, time);
    case 'year':
      return extractYear(answer, time);
    case 'period':
      return extractPeriod(answer, time);
    case 'duration':
      return extractDuration(answer, time);
    case 'postal_code':
      return extractPostalCode(answer, input.country);
    case 'email':
      return extractEmail(answer);
    case 'phone':
      return extractPhone(answer, phoneCountry(input));
    case 'url':
      return extractUrl(answer);
    case 'date':
      return extractDate(answer, { ...time, country: input.country, requireYear: asksForBirthDate(spec.texts) });
    case 'number':
      return extractNumber(answer);
    case 'name':
      return extractName(stripSpans(answer, contactSpans(answer, phoneCountry(input))), asksForOneNamePart(spec.texts) ? 1 : 2);
    case 'text':
      return { value: null, rejected: null };
  }
}

/** National phone formats are read in the respondent's country; without one, a Japanese session assumes Japan. */
function phoneCountry(input: ReviewInput): string | null {
  return input.country ?? (input.language === 'ja' ? 'JP' : null);
}

function missing(spec: FactSpec): FactJudgement {
  return { spec, verdict: { code: 'missing' }, satisfied: false, value: null };
}

function toFactResult(lang: SessionLanguage, j: FactJudgement, type: FactType): FactResult {
  // Feedback is read by the respondent's interviewer: a fact written in the other language is named by its kind.
  const shown = (lang === 'ja') === hasJapanese(j.spec.fact.fact) ? j.spec.fact.fact : lang === 'ja' ? 'この項目' : 'this item';
  return {
    factKey: j.spec.fact.factKey,
    fact: j.spec.fact.fact,
    type,
    satisfied: j.satisfied,
    reason: verdictText(lang, type, shown, j.verdict),
    value: j.value,
  };
}

function feedbackFor(lang: SessionLanguage, field: FormField, latest: string, results: FactResult[]): string {
  const parts: string[] = [];
  if (field.required && latest && isSkipRequest(latest)) parts.push(requiredText(lang, 'skip'));
  else if (latest && isNonAnswer(latest)) parts.push(field.required ? requiredText(lang, 'non_answer') : optionalHintText(lang));
  for (const r of results) if (!r.satisfied) parts.push(r.reason);
  return parts.join(lang === 'ja' ? '' : ' ');
}

/**
 * One typed fact: its normalised value. Otherwise the typed values first,
 * then the answers that carried the free-text facts, one per line.
 */
function fieldValue(results: FactResult[], textAnswers: string[]): string {
  const typed = results.filter((r) => r.type !== 'text' && r.value !== null).map((r) => r.value as string);
  if (results.length === 1 && typed.length === 1) return typed[0] ?? '';
  return [...typed, ...textAnswers].join('\n');
}

function skipped(lang: SessionLanguage, facts: FactDefinition[], field: FormField): ReviewOutcome {
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
      reason,
      value: null,
    })),
  };
}
