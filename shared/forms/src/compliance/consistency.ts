import { classifyFact, type FactType } from '../nlu/fact-type.js';
import { normalizeText } from '../nlu/text.js';
import { extractDate } from '../nlu/date-values.js';
import { extractNumber, extractPhone } from '../nlu/typed-values.js';

/**
 * Answers that contradict each other or cannot be right, per field: two
 * different values of a typed field given in different messages (or two
 * email addresses in one), a start date already past, more years of
 * experience than a working life. Each is a warning: a correction ("sorry,
 * 5 years") also gives two values, and a person should look.
 */

export type ConsistencyField = { fieldId: string; label: string; intent: string | null; status: string; value: string | null };
export type ConsistencyFact = { formFieldId?: string; fieldId?: string; factKey: string; fact: string };
export type ConsistencyMessage = { role: 'user' | 'assistant'; text: string; fieldId: string | null };

/** More years of experience than this is taken for a typo or a misunderstanding. */
export const MAX_PLAUSIBLE_EXPERIENCE_YEARS = 50;

const EMAIL_LOCAL = /[A-Za-z0-9._%+'-]/;
const EMAIL_DOMAIN = /[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/y;
const START = /\b(?:start|starting|join|joining|onboard\w*|available|availability|commence)\b|入社|開始|着任|勤務|入職|就業|稼働/i;
const EXPERIENCE = /\bexperience\b|\byears? of\b|経験|年数/i;

/**
 * The email addresses in a text, as the global regex `[A-Za-z0-9._%+'-]+@domain` found them: each "@" with the
 * address characters before it (back to the last address found) and a domain after it. From the "@" outwards: the
 * regex scanned a long run of address characters without an "@" from each of its positions.
 */
function emailsIn(text: string): string[] {
  const out: string[] = [];
  let from = 0;
  for (let at = text.indexOf('@'); at >= 0; at = text.indexOf('@', at + 1)) {
    let start = at;
    while (start > from && EMAIL_LOCAL.test(text[start - 1]!)) start--;
    if (start === at) continue;
    EMAIL_DOMAIN.lastIndex = at + 1;
    const domain = EMAIL_DOMAIN.exec(text);
    if (!domain) continue;
    from = at + 1 + domain[0].length;
    out.push(text.slice(start, from));
  }
  return out;
}

export function findInconsistencies(input: {
  language: 'ja' | 'en';
  messages: readonly ConsistencyMessage[];
  fields: readonly ConsistencyField[];
  facts: readonly ConsistencyFact[];
  now: Date;
}): string[] {
  const out: string[] = [];
  for (const field of input.fields) {
    const answers = input.messages
      .filter((message) => message.role === 'user' && message.fieldId === field.fieldId)
      .map((message) => normalizeText(message.text));
    const type = fieldType(field, input.facts);
    const name = `"${field.label}" (${field.fieldId})`;
    const distinct = distinctValues(type, answers, input);
    if (distinct.length > 1) out.push(`different ${TYPE_NAME[type]} values were given for ${name}: ${distinct.join(', ')}`);
    const latest = field.value ?? distinct.at(-1) ?? null;
    const texts = [field.label, field.intent ?? '', ...factsOf(field, input.facts).map((fact) => fact.fact)].join(' ');
    if (type === 'date' && latest && START.test(texts)) {
      const today = isoDay(input.now);
      if (/^\d{4}-\d{2}(?:-\d{2})?$/.test(latest) && latest < today.slice(0, latest.length)) {
        out.push(`the start date ${latest} given for ${name} is before today (${today})`);
      }
    }
    if ((type === 'number' || type === 'duration') && latest && EXPERIENCE.test(texts)) {
      const years = Number(extractNumber(latest).value ?? NaN);
      if (Number.isFinite(years) && years > MAX_PLAUSIBLE_EXPERIENCE_YEARS) {
        out.push(`${latest} years of experience for ${name} is implausible (more than ${MAX_PLAUSIBLE_EXPERIENCE_YEARS})`);
      }
    }
  }
  return out;
}

const TYPE_NAME: Readonly<Partial<Record<FactType, string>>> = {
  email: 'email address',
  phone: 'phone number',
  date: 'date',
  number: 'number',
  duration: 'number',
  url: 'URL',
  name: 'name',
  text: 'text',
};

function factsOf(field: ConsistencyField, facts: readonly ConsistencyFact[]): ConsistencyFact[] {
  return facts.filter((fact) => fact.fieldId === field.fieldId || fact.formFieldId === field.fieldId);
}

/** The field's type: its single typed fact's, else what its own key, label and intent say. */
function fieldType(field: ConsistencyField, facts: readonly ConsistencyFact[]): FactType {
  const own = factsOf(field, facts);
  const words = { label: field.label, intent: field.intent };
  if (own.length === 1 && own[0]) return classifyFact({ factKey: own[0].factKey, fact: own[0].fact, doneCriteria: '' }, words);
  if (own.length > 1) return 'text';
  return classifyFact({ factKey: field.fieldId, fact: field.label, doneCriteria: field.intent ?? '' }, words);
}

/** The distinct values of a typed field across its answers, in order; emails also within one answer. */
function distinctValues(type: FactType, answers: readonly string[], input: { language: 'ja' | 'en'; now: Date }): string[] {
  const values: string[] = [];
  for (const answer of answers) {
    if (type === 'email') values.push(...emailsIn(answer).map((email) => email.toLowerCase()));
    else if (type === 'phone') pushValue(values, extractPhone(answer, input.language === 'ja' ? 'JP' : null).value);
    else if (type === 'number' || type === 'duration') pushValue(values, extractNumber(answer).value);
    else if (type === 'date')
      pushValue(values, extractDate(answer, { language: input.language, now: input.now, requireYear: false }).value);
  }
  return [...new Set(values)];
}

function pushValue(values: string[], value: string | null): void {
  if (value !== null) values.push(value);
}

function isoDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}
