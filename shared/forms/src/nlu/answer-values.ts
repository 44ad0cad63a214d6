import { postcodeValidator, postcodeValidatorExistsForCountry } from 'postcode-validator';
import { isNonAnswer, isSkipRequest } from './answer-intent.js';
import { matchOption } from './options.js';
import { answerPolarity } from './polarity.js';
import { clip, normalizeText, trimPunctuation } from './text.js';
import type { Extraction } from './typed-values.js';

/** Extractors for choices, yes/no answers and postal codes (see typed-values.ts and time-values.ts for the rest). */

const NONE: Extraction = { value: null, rejected: null };

/**
 * The option a reply picks, as the form writes it ("Medium (M)" → "M",
 * 「Mサイズです」 → "M"). A reply that could mean several options, or none, is
 * rejected so the follow-up can list the options.
 */
export function extractChoice(
  text: string,
  options: readonly string[],
  echo: readonly string[] = [],
  aliases: Record<string, string[]> = {},
): Extraction {
  if (options.length === 0) return NONE;
  // An option first: "Not sure" or "No preference" may well be one of them.
  const matched = matchOption(text, options, echo, aliases);
  if (matched && 'option' in matched) return { value: matched.option, rejected: null };
  if (saysNothing(text)) return NONE;
  const said = trimPunctuation(normalizeText(text));
  if (!said) return NONE;
  return { value: null, rejected: clip(said), problem: matched ? 'ambiguous' : 'not_an_option' };
}

/**
 * "yes" or "no" from a reply to a yes/no question, in English or Japanese
 * (see polarity.ts). A form's own pair of options ("利用する・しない", "Yes/No")
 * is read first when the reply is one of them.
 */
export function extractYesNo(text: string, options: readonly string[] = []): Extraction {
  const cleaned = trimPunctuation(normalizeText(text));
  // "No thanks" declines an offer, which is an answer to a yes/no question; "skip" is not.
  if (!cleaned || isNonAnswer(text) || (isSkipRequest(text) && !POLAR_LEAD.test(cleaned))) return NONE;
  if (options.length === 2) {
    const exact = options.find(
      (option) => normalizeText(option).toLowerCase() === cleaned.toLowerCase().replace(/(?:です|でお願いします|します)$/, ''),
    );
    if (exact) return { value: polarOf(exact, options), rejected: null };
  }
  const polarity = answerPolarity(cleaned);
  if (polarity !== null) return { value: polarity, rejected: null };
  if (options.length === 2) {
    const matched = matchOption(cleaned, options);
    if (matched && 'option' in matched) return { value: polarOf(matched.option, options), rejected: null };
  }
  return NONE;
}

const POLAR_LEAD = /^(?:(?:yes|no|nope|nah)(?![\p{L}])|はい|いいえ)/iu;
const YES_OPTION = /^(?:yes|y|はい|有|あり|有り|する|ある|いる|要|必要)$/i;
const NO_OPTION = /^(?:no|n|いいえ|無|なし|無し|しない|ない|いない|不要)$/i;

/** Which side of a yes/no pair an option is: the negative word, or the one that negates the other. */
export function polarOf(option: string, options: readonly string[]): 'yes' | 'no' {
  const trimmed = option.trim();
  if (NO_OPTION.test(trimmed)) return 'no';
  if (YES_OPTION.test(trimmed)) return 'yes';
  const other = options.find((candidate) => candidate !== option)?.trim() ?? '';
  return trimmed.length > other.length && (trimmed.startsWith('不') || /ない$|^not\b/i.test(trimmed)) ? 'no' : 'yes';
}

// Letters and digits in the shapes postal codes take (〒150-0001, M5V 2T6, SW1A 1AA, 94105-1234, 75008).
// A postal code stands on its own: not part of a longer number (070-2468-1357 holds no code), nor one group of a number
// written in groups (0412 345 678 holds none either).
const POSTAL_CANDIDATE =
  /(?<![\p{Script=Latin}\p{N}]|\p{N}[-‐ ])(?!\d{2,4} \d{3})(?:\d{3}-?\d{4}|\d{5}(?:-\d{4})?|\d{4}|\d{6}|[A-Z]\d[A-Z] ?\d[A-Z]\d|[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}|\d{2}-?\d{3}|\d{4} ?[A-Z]{2})(?![\p{Script=Latin}\p{N}]|[-‐]\p{N}|\s*年)/giu;
const FALLBACK_COUNTRIES = ['JP', 'US', 'CA', 'GB', 'AU', 'DE', 'FR'];

/**
 * A postal code valid for the respondent's country (postcode-validator's
 * patterns), written as on an envelope: 1500001 → 150-0001, m5v2t6 → M5V 2T6.
 */
export function extractPostalCode(text: string, country: string | null): Extraction {
  const countries = country && postcodeValidatorExistsForCountry(country) ? [country] : FALLBACK_COUNTRIES;
  // Without the respondent's country, four bare digits are as likely a year as a code.
  const loose = countries === FALLBACK_COUNTRIES;
  let rejected: string | null = null;
  for (const match of normalizeText(text).toUpperCase().matchAll(POSTAL_CANDIDATE)) {
    const candidate = match[0];
    if (loose && /^\d{4}$/.test(candidate)) continue;
    // Written without its hyphen (1500001) a Japanese code is still the same code.
    const fits = countries.find(
      (code) =>
        postcodeValidator(candidate, code) ||
        (code === 'JP' && /^\d{7}$/.test(candidate) && postcodeValidator(`${candidate.slice(0, 3)}-${candidate.slice(3)}`, code)),
    );
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
