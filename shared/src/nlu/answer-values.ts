import { postcodeValidator, postcodeValidatorExistsForCountry } from 'postcode-validator';
import { isNonAnswer, isSkipRequest } from './answer-intent.js';
import { matchOption } from './options.js';
import { normalizeText, trimPunctuation } from './text.js';
import type { Extraction } from './typed-values.js';

/** Extractors for choices, yes/no answers and postal codes (see typed-values.ts and time-values.ts for the rest). */

const NONE: Extraction = { value: null, rejected: null };

/**
 * The option a reply picks, as the form writes it ("Medium (M)" → "M",
 * 「Mサイズです」 → "M"). A reply that could mean several options, or none, is
 * rejected so the follow-up can list the options.
 */
export function extractChoice(text: string, options: readonly string[], echo: readonly string[] = []): Extraction {
  if (options.length === 0 || saysNothing(text)) return NONE;
  const m = matchOption(text, options, echo);
  if (m && 'option' in m) return { value: m.option, rejected: null };
  const said = trimPunctuation(normalizeText(text));
  if (!said) return NONE;
  return { value: null, rejected: clip(said), problem: m ? 'ambiguous' : 'not_an_option' };
}

// A reply's first word settles it ("No, I don't", "Yes — I do not mind"); otherwise its verbs do.
const LEADING_YES = /^(?:yes|yeah|yep|yup|sure|of course|certainly|definitely|absolutely|correct|right|indeed|affirmative|はい|ええ|うん|そうです|あります|有り|あり|有)(?![\p{L}])/iu;
const LEADING_NO = /^(?:no|nope|nah|not really|never|negative|いいえ|いえ|ううん|なし|無し|無|ありません|ないです|ない)(?![\p{L}])/iu;
const NEGATIVE =
  /\b(?:don'?t|do not|doesn'?t|does not|didn'?t|did not|haven'?t|have not|hasn'?t|has not|won'?t|will not|can'?t|cannot|not|never|no|none|neither)\b|ません|ないです|ない(?:[。、]|$)|なかった|なし|無し|無い|不要|結構です/i;
const POSITIVE =
  /\b(?:i do|i did|i have|i am|i'm|i will|i'll|i can|i would|we do|we have|we will|please|need|needs|want|would like)\b|ます(?:[。、!！]|$)|です(?:[。、!！]|$)|あります|います|必要|希望します|お願いします/i;

/** "yes" or "no" from a reply to a yes/no question, in English or Japanese. */
export function extractYesNo(text: string, options: readonly string[] = []): Extraction {
  const t = trimPunctuation(normalizeText(text).toLowerCase());
  if (!t || saysNothing(text)) return NONE;
  if (options.length === 2) {
    const m = matchOption(t, options);
    if (m && 'option' in m) return { value: YES_OPTION.test(m.option.trim()) ? 'yes' : 'no', rejected: null };
  }
  if (LEADING_NO.test(t)) return { value: 'no', rejected: null };
  if (LEADING_YES.test(t)) return { value: 'yes', rejected: null };
  if (NEGATIVE.test(t)) return { value: 'no', rejected: null };
  if (POSITIVE.test(t)) return { value: 'yes', rejected: null };
  return NONE;
}

const YES_OPTION = /^(?:yes|y|はい|有|あり|有り|する|ある)$/i;

// Letters and digits in the shapes postal codes take (〒150-0001, M5V 2T6, SW1A 1AA, 94105-1234, 75008).
const POSTAL_CANDIDATE = /(?<![\p{Script=Latin}\p{N}])(?:\d{3}-?\d{4}|\d{5}(?:-\d{4})?|\d{4}|\d{6}|[A-Z]\d[A-Z] ?\d[A-Z]\d|[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}|\d{2}-?\d{3}|\d{4} ?[A-Z]{2})(?![\p{Script=Latin}\p{N}])/giu;
const FALLBACK_COUNTRIES = ['JP', 'US', 'CA', 'GB', 'AU', 'DE', 'FR'];

/**
 * A postal code valid for the respondent's country (postcode-validator's
 * patterns), written as on an envelope: 1500001 → 150-0001, m5v2t6 → M5V 2T6.
 */
export function extractPostalCode(text: string, country: string | null): Extraction {
  const countries = country && postcodeValidatorExistsForCountry(country) ? [country] : FALLBACK_COUNTRIES;
  let rejected: string | null = null;
  for (const m of normalizeText(text).toUpperCase().matchAll(POSTAL_CANDIDATE)) {
    const candidate = m[0];
    // Written without its hyphen (1500001) a Japanese code is still the same code.
    const fits = countries.find((c) => postcodeValidator(candidate, c) || (c === 'JP' && /^\d{7}$/.test(candidate) && postcodeValidator(`${candidate.slice(0, 3)}-${candidate.slice(3)}`, c)));
    if (fits) return { value: formatPostal(candidate, fits), rejected: null };
    rejected ??= candidate;
  }
  return rejected ? { value: null, rejected, problem: 'invalid' } : NONE;
}

function formatPostal(code: string, country: string): string {
  const compact = code.replace(/[\s-]/g, '');
  if (country === 'JP' && /^\d{7}$/.test(compact)) return `${compact.slice(0, 3)}-${compact.slice(3)}`;
  if ((country === 'CA' || country === 'GB') && compact.length > 3) return `${compact.slice(0, -3)} ${compact.slice(-3)}`;
  return code.trim();
}

/** "I'm not sure", "skip", 「わかりません」: a reply that picks nothing, whatever letters it happens to contain. */
function saysNothing(text: string): boolean {
  return isNonAnswer(text) || isSkipRequest(text);
}

function clip(s: string): string {
  return [...s].length > 40 ? `${[...s].slice(0, 40).join('')}…` : s;
}
