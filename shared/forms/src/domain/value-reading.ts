import type { Derivation, FactDefinition, FormField } from '@convo/contract';
import { withinTextBudget } from '@convo/text';
import { assessReading, foldValue, type Reading } from '../nlu/certainty.js';
import { answerSpec, type AnswerSpec, factsOrField, factTexts } from '../nlu/fact-type.js';
import { affirms } from '../nlu/polarity.js';
import { polarOf } from '../nlu/answer-values.js';
import { readValue } from '../nlu/review-rules.js';
import { proposedValue, type ReviewedField } from './form-flow.js';
import { hasJapanese, type SessionLanguage } from '../nlu/text.js';
import { optionInLanguage } from '../nlu/transliterate.js';

/**
 * The certainty rule applied to a field (docs/api.md#certainty): which kind of
 * value the field holds, how sure the value read from the answers is, and
 * whether a reply to "Just to check: …?" settles it. Code, not a prompt: the
 * review tool applies it to every verdict, the offline rules' and a model's.
 */

type Reference = { language: SessionLanguage; country: string | null; timezone: string | null; now?: Date };

/**
 * The field's one kind of value: its single fact's, or (with no facts) the one its label asks for. A field of
 * several facts is stored as their values together, each shown back; it is read as text.
 */
export function valueSpec(field: FormField, facts: readonly FactDefinition[]): AnswerSpec & { texts: string[] } {
  const own = factsOrField(field, facts);
  if (own.length > 1) return { type: 'text', options: [], texts: [] };
  const fact = own[0]!;
  const spec = answerSpec(fact, field, { fieldContext: true });
  return { ...spec, texts: [...factTexts(fact), field.label, field.intent ?? ''] };
}

export type VerdictReading = { derivation: Derivation; confirm: boolean };

/**
 * How sure a passed verdict's value is: the rule's reading of it against the
 * answers, made less sure (never more) by what the verdict itself says.
 */
export function readingOfVerdict(
  input: Reference & {
    field: FormField;
    facts: readonly FactDefinition[];
    value: string;
    answers: readonly string[];
    verdict: { derivation: Derivation | null; certain: boolean | null };
  },
): VerdictReading {
  const spec = valueSpec(input.field, input.facts);
  const reading: Reading = withinTextBudget(() => assessReading({ ...input, kind: spec.type, options: spec.options }));
  if (!reading.certain) return { derivation: reading.derivation, confirm: true };
  const claimed = input.verdict.derivation;
  const claimsDoubt = input.verdict.certain === false || (claimed !== null && UNSURE.has(claimed));
  if (claimsDoubt) return { derivation: claimed && UNSURE.has(claimed) ? claimed : 'inferred', confirm: true };
  return { derivation: reading.derivation, confirm: false };
}

const UNSURE: ReadonlySet<Derivation> = new Set(['option_loose', 'inferred', 'conflicting', 'partial']);

/**
 * The reply settles the reading it was asked to confirm: it says yes ("Yes, that's right", 「はい、そうです」) and
 * gives no other value of the field's kind. A reply with a value of its own is an answer, reviewed as one.
 */
export function affirmsProposal(
  input: Reference & { field: FormField; facts: readonly FactDefinition[]; proposal: string; reply: string },
): boolean {
  return withinTextBudget(() => {
    if (!affirms(input.reply)) return false;
    const spec = valueSpec(input.field, input.facts);
    if (spec.type === 'yes_no' || spec.type === 'text') return true;
    const own = readValue(spec, input.reply, input);
    return own === null || foldValue(own) === foldValue(input.proposal);
  });
}

/**
 * A value as it is stored: a yes or a no to a fact whose `options` are its own pair is that option, in the form's
 * words (「利用しない」, not "no"; "Yes" as the form writes it). Only options the form declares count: a pair read
 * from prose (「ある・ないが分かること」) names the question, not values to store. Any other value is stored as read.
 */
export function storedValue(input: { field: FormField; facts: readonly FactDefinition[]; value: string }): string {
  const declared = input.facts.length === 1 ? (input.facts[0]?.options ?? []) : [];
  if (declared.length !== 2 || valueSpec(input.field, input.facts).type !== 'yes_no') return input.value;
  const said = input.value.trim();
  const polarity = /^(?:yes|はい)$/i.test(said) ? 'yes' : /^(?:no|いいえ)$/i.test(said) ? 'no' : null;
  return (polarity && declared.find((option) => polarOf(option, declared) === polarity)) ?? input.value;
}

const TIME_RANGE = /^(\d{2}:\d{2})\/(\d{2}:\d{2})$/;
const DATE_RANGE = /^(\d{4}-\d{2}-\d{2})\/(\d{4}-\d{2}-\d{2})$/;
const DATETIME = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})$/;

/**
 * A stored value as the respondent is shown it when it is acknowledged or confirmed: the documented shapes made
 * readable (13:00–15:00, 2026-05-03 19:30), yes and no in the session language, several values on one line.
 */
export function shownReading(value: string, language: SessionLanguage): string {
  const dash = language === 'ja' ? '〜' : '–';
  return value
    .split('\n')
    .map((line) => {
      const trimmed = line.trim();
      if (language === 'ja' && /^(?:yes|no)$/i.test(trimmed)) return trimmed.toLowerCase() === 'yes' ? 'はい' : 'いいえ';
      // A Japanese form's option shown to an English-speaking respondent: romanised, as it was offered.
      if (language === 'en' && hasJapanese(trimmed)) return optionInLanguage(trimmed, language) ?? trimmed;
      const range = TIME_RANGE.exec(trimmed) ?? DATE_RANGE.exec(trimmed);
      if (range) return `${range[1]}${dash}${range[2]}`;
      const at = DATETIME.exec(trimmed);
      return at ? `${at[1]} ${at[2]}` : trimmed;
    })
    .filter(Boolean)
    .join(' / ');
}

/** Past this length a value in the respondent's own words is not read back to them: they have just written it. */
const ECHO_LIMIT = 80;

export type EchoDue = { fieldId: string; mode: 'confirm' | 'ack'; shown: string };

/**
 * What the next message must show of the answer just reviewed (docs/api.md#certainty): the reading to confirm, or
 * the value just stored, so that no value is taken without the respondent seeing it. Null when nothing was stored
 * in this turn, or the value is a long text in their own words.
 */
export function echoDue(state: {
  messages: ReadonlyArray<{ role: string; messageId: string; fieldId?: string | null }>;
  fields: ReadonlyArray<
    ReviewedField & {
      fieldId: string;
      value: string | null;
      needsReview: boolean;
      reviewedMessageId: string | null;
      lastReview: (NonNullable<ReviewedField['lastReview']> & { derivation?: Derivation }) | null;
    }
  >;
  bootstrap: { language: string | null };
}): EchoDue | null {
  const last = state.messages.findLast((message) => message.role === 'user');
  if (!last) return null;
  const field = state.fields.find((candidate) => candidate.reviewedMessageId === last.messageId);
  const review = field?.lastReview;
  if (!field || !review?.passed || review.skipped) return null;
  const language: SessionLanguage = state.bootstrap.language === 'ja' ? 'ja' : 'en';
  const proposal = proposedValue(field);
  if (proposal !== null) return { fieldId: field.fieldId, mode: 'confirm', shown: shownReading(proposal, language) };
  // A reading they have just confirmed was shown to them in the question they said yes to.
  if (field.status !== 'done' || field.needsReview || !field.value || review.derivation === 'confirmed') return null;
  const shown = shownReading(field.value, language);
  const ownWords = review.derivation === 'verbatim' || review.derivation === 'extracted';
  if (ownWords && [...shown].length > ECHO_LIMIT) return null;
  return { fieldId: field.fieldId, mode: 'ack', shown };
}

/** Whether a message shows the value (case, width and spacing aside). */
export function showsReading(message: string, shown: string): boolean {
  const squash = (text: string) => foldValue(text).replace(/\s+/g, '');
  return squash(message).includes(squash(shown));
}
