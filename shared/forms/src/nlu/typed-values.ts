import { findPhoneNumbersInText, isSupportedCountry, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';
import validator from 'validator';
import { findCountry } from './country.js';
import { preferAsserted } from './discourse.js';
import { findNumbers } from './numbers.js';

/**
 * Extractors for typed facts. Each reads one normalized answer and returns the
 * normalised value it found, or — when there is something that looks like an
 * attempt but is not valid ("foo@") — that text, so feedback can name it.
 */
export type Extraction = {
  value: string | null;
  rejected: string | null;
  problem?: 'invalid' | 'no_year' | 'incomplete_name' | 'ambiguous' | 'not_an_option';
  /** For `ambiguous` without listed options: the values the respondent hesitated between ("2012? Or 2013?"). */
  alternatives?: string[];
};

const NONE: Extraction = { value: null, rejected: null };

const EMAIL_LOCAL = /[A-Za-z0-9._%+'-]/;
const EMAIL_DOMAIN = /[A-Za-z0-9.-]*/y;

/**
 * What the global regex `[A-Za-z0-9._%+'-]*@[A-Za-z0-9.-]*` matched: each "@" with the address characters before it (back to where
 * the last candidate ended) and after it. Found from the "@" outwards: the regex scanned a long run of address
 * characters without one from each of its positions.
 */
function emailCandidates(text: string): Array<{ text: string; index: number }> {
  const out: Array<{ text: string; index: number }> = [];
  let from = 0;
  for (let at = text.indexOf('@'); at >= 0; at = text.indexOf('@', from)) {
    let start = at;
    while (start > from && EMAIL_LOCAL.test(text[start - 1]!)) start--;
    EMAIL_DOMAIN.lastIndex = at + 1;
    const end = at + 1 + EMAIL_DOMAIN.exec(text)![0].length;
    out.push({ text: text.slice(start, end), index: start });
    from = end;
  }
  return out;
}

/** An email address (validator.isEmail), lowercased. */
export function extractEmail(text: string): Extraction {
  let rejected: string | null = null;
  // "s.hasegawa@… ではなく satoshi.hasegawa@…": an address the respondent takes back is not the answer.
  const candidates = preferAsserted(text, emailCandidates(text), (match) => [match.index, match.index + match.text.length]);
  for (const match of candidates) {
    // "…setsuko.t@docomo.ne.jp": an ellipsis before an address is not part of it.
    const candidate = match.text.replace(/(?<![.-])[.-]+$/, '').replace(/^[.'-]+/, '');
    if (candidate.length < 2) continue;
    if (validator.isEmail(candidate)) return { value: candidate.toLowerCase(), rejected: null };
    rejected ??= candidate;
  }
  return rejected ? { value: null, rejected, problem: 'invalid' } : NONE;
}

/**
 * A valid phone number in E.164, read with the respondent's country as the
 * default for national formats (090-1234-5678 in JP → +819012345678).
 */
export function extractPhone(text: string, country: string | null, options: { mobile?: boolean } = {}): Extraction {
  // "07700 900456 - that's a UK number": a country the reply names is the region its national format is read in.
  const named = findCountry(text)?.code ?? null;
  const regions = [...new Set([named, country])].filter((region): region is CountryCode => region !== null && isSupportedCountry(region));
  for (const region of regions.length > 0 ? regions : [undefined]) {
    const found = findPhoneNumbersInText(text, region ? { defaultCountry: region } : undefined);
    const valid = preferAsserted(text, found, (phone) => [phone.startsAt, phone.endsAt]).filter((phone) => phone.number.isValid());
    // "Desk 029 2018 4471, mobile 07700 900812" to a question about a mobile: the mobile.
    const mobile = options.mobile
      ? (valid.find((phone) => /MOBILE/.test(phone.number.getType() ?? ''))?.number.number ?? namedMobile(text, region))
      : null;
    const wanted = mobile ?? valid[0]?.number.number;
    if (wanted) return { value: wanted, rejected: null };
  }
  // (Not digits of a code: "HK-2024-0087" holds no phone number.)
  const attempt = /(?<![\p{L}\d]|[\p{L}\d][-‐])\+?\d[\d\s().-]{3,}\d(?![\p{L}])/u.exec(text)?.[0];
  if (!attempt) return NONE;
  // A number of the right length for the respondent's country (or one the reply names), in a range not (yet)
  // allocated, is kept as given: a clerk records it and a staff member can check it.
  for (const region of regions) {
    const possible = parsePhoneNumberFromString(attempt, region);
    if (possible?.isPossible()) return { value: possible.number, rejected: null };
  }
  return { value: null, rejected: attempt.trim(), problem: 'invalid' };
}

/**
 * A number the reply itself calls the mobile ("the mobile's better: 07700 900812", 「携帯は090…」), kept
 * when it has a possible length even if its range is not allocated (test and fictional ranges).
 */
function namedMobile(text: string, region: CountryCode | undefined): string | null {
  for (const match of text.matchAll(/(?:\b(?:mobile|cell)(?:'s)?\b|携帯)[^\d+]{0,20}(\+?\d[\d\s().-]{5,}\d)/gi)) {
    const parsed = parsePhoneNumberFromString(match[1]!, region);
    if (parsed?.isPossible()) return parsed.number;
  }
  return null;
}

/** Where emails, URLs and phone numbers sit in a text, so free-text rules can ignore them. */
export function contactSpans(text: string, country: string | null): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  for (const match of emailCandidates(text)) if (match.text.length > 1) spans.push([match.index, match.index + match.text.length]);
  for (const url of urlCandidates(text)) spans.push([url.index, url.index + url.candidate.length]);
  const defaultCountry = country && isSupportedCountry(country) ? (country as CountryCode) : undefined;
  for (const found of findPhoneNumbersInText(text, defaultCountry ? { defaultCountry } : undefined))
    spans.push([found.startsAt, found.endsAt]);
  return spans;
}

/** The text with the given spans blanked out. */
export function stripSpans(text: string, spans: Array<[number, number]>): string {
  let out = text;
  for (const [start, end] of [...spans].sort((a, b) => b[0] - a[0])) out = out.slice(0, start) + ' ' + out.slice(end);
  return out;
}

// An address with a protocol, or a bare domain (its name, port and path captured apart; see urlMatches).
const URL_CANDIDATE =
  /\bhttps?:\/\/[^\s<>"'「」『』、。]*|(?<![@\w.-])((?:www\.)?(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,})(:\d+)?(\/[^\s<>"'「」『』、。]*)?/gi;
const ADDRESS_CHAR = /[\w.+-]/;
// "Node.js" or "README.md" are file names, not sites, unless they carry a path or www.
const FILE_LIKE = /\.(?:js|ts|py|rb|md|txt|json|html?|css|java|go|rs|sh|ya?ml|exe|pdf|docx?|xlsx?|pptx?|png|jpe?g|gif|zip)$/i;

/** A web address (http/https or a bare domain such as example.com/portfolio), with https:// added when missing. */
export function extractUrl(text: string): Extraction {
  let rejected: string | null = null;
  for (const { candidate, hasProtocol } of preferAsserted(text, [...urlCandidates(text)], (url) => [
    url.index,
    url.index + url.candidate.length,
  ])) {
    if (validator.isURL(candidate, { protocols: ['http', 'https'], require_tld: true })) {
      return { value: hasProtocol ? candidate : `https://${candidate}`, rejected: null };
    }
    if (hasProtocol) rejected ??= candidate;
  }
  return rejected ? { value: null, rejected, problem: 'invalid' } : NONE;
}

/**
 * The addresses URL_CANDIDATE finds, where a bare domain must not be the local part of an email address (jane.doe@…
 * is not the site jane.doe). That was a lookahead, `(?![\w.+-]*@)`, at the end of the regex: when it failed, the
 * regex backed off the path, the port, then the domain alone, and scanned ahead again at each step (quadratic on a
 * long name before an "@"). Here the same ends are tried, longest first, against where each one's run of address
 * characters stops, worked out once for the text.
 */
function urlMatches(text: string): Array<{ index: number; text: string }> {
  const out: Array<{ index: number; text: string }> = [];
  let runEnd: Int32Array | null = null;
  URL_CANDIDATE.lastIndex = 0;
  for (let found = URL_CANDIDATE.exec(text); found; found = URL_CANDIDATE.exec(text)) {
    const start = found.index;
    let end = start + found[0].length;
    if (found[1] !== undefined) {
      if (!runEnd) {
        runEnd = new Int32Array(text.length + 1).fill(text.length);
        for (let at = text.length - 1; at >= 0; at--) runEnd[at] = ADDRESS_CHAR.test(text[at]!) ? runEnd[at + 1]! : at;
      }
      const domainEnd = start + found[1].length;
      const hasPort = found[2] !== undefined;
      let kept = -1;
      for (let at = end; at >= domainEnd && kept < 0; at--) {
        // (A port is ":" and at least one digit.)
        if (hasPort && at === domainEnd + 1) continue;
        if (text[runEnd[at]!] !== '@') kept = at;
      }
      if (kept < 0) {
        URL_CANDIDATE.lastIndex = start + 1;
        continue;
      }
      end = kept;
      URL_CANDIDATE.lastIndex = end;
    }
    out.push({ index: start, text: text.slice(start, end) });
  }
  return out;
}

function* urlCandidates(text: string): Generator<{ candidate: string; index: number; hasProtocol: boolean }> {
  for (const match of urlMatches(text)) {
    const candidate = match.text.replace(/(?<![.,;:!?)\]])[.,;:!?)\]]+$/, '');
    const hasProtocol = /^https?:\/\//i.test(candidate);
    if (!hasProtocol && !candidate.includes('/') && !/^www\./i.test(candidate) && FILE_LIKE.test(candidate)) continue;
    yield { candidate, index: match.index, hasProtocol };
  }
}

/** The first number in the answer, as a plain number string ("5", "2.5"). */
export function extractNumber(text: string): Extraction {
  const first = findNumbers(text)[0];
  return first ? { value: first.value, rejected: null } : NONE;
}
