import { withinTextBudget } from '@convo/text';
import { isKnownCountry, libraryCountryName, matchPlaces, type PlaceMatch, type PlaceValue } from './place-index.js';
import { findTown } from './gazetteer.js';
import { SUBDIVISION_CODES } from './places-en.js';
import { normalizeText, type SessionLanguage } from './text.js';

/**
 * A country found in a respondent's words. `matched` is the text that named
 * the country (or, when only a city was named, the city); `city` is the city,
 * state or prefecture as written, and `timezone` its IANA zone, both null when
 * no place below country level was recognised.
 */
export type CountryMatch = {
  code: string;
  nameEn: string;
  nameJa: string;
  matched: string;
  city: string | null;
  timezone: string | null;
};

/** A city or region recognised within a known country. */
export type PlaceFound = { city: string; timezone: string };

// "live in", "based in" before a name / "に住んで", "在住" after it mark where the respondent lives
// (as opposed to where they are from).
const RESIDENCE_BEFORE =
  /\b(?:live|lives|living|reside|resides|residing|based|located|stay|staying|moved|relocated)\s+(?:in|to)\s+(?:the\s+)?$/i;
const RESIDENCE_AFTER = /^(?:都|府|県|州|市)?\s*(?:に住|在住|で暮ら|に滞在|に在住|に引っ越|に移住|で生活|住まい)/;

// "Evanston, IL", "Halifax, NS B3H 1A1", "beaverton OR": a state or province code right after a city (its comma
// optional when the code ends the reply).
const CITY_CODE =
  /(?:,\s*([A-Z]{2})(?=(?:\s*(?:\d{5}(?:-\d{4})?|[A-Z]\d[A-Z]\s?\d[A-Z]\d))?\s*(?:[.,;!]|$))|(?<=\p{L})\s+([A-Z]{2})(?=(?:\s*[.!])?\s*$))/u;

/** The text with a trailing state or province code spelled out, so the place index can read it. */
function withSubdivisionName(text: string): string {
  const match = CITY_CODE.exec(text);
  const code = match?.[1] ?? match?.[2];
  const name = code ? SUBDIVISION_CODES[code] : undefined;
  return match && name ? `${text.slice(0, match.index)}, ${name}${text.slice(match.index + match[0].length)}` : text;
}

/**
 * Finds the country a respondent lives in from free text in Japanese or
 * English: country names and aliases ("USA", "the UK", "カナダ"), cities
 * ("Toronto", "New York", "東京"), states and prefectures ("大阪在住").
 *
 * When several countries are named, each scores one point per mention (a city
 * counts for its country) plus one when the words mark residence ("live in",
 * "に住んでいます"); the highest score wins, ties go to the first mentioned.
 * So "Toronto, Canada" is Canada with the Toronto zone, and "I'm from Japan
 * but live in Canada" is Canada.
 */
export function findCountry(text: string, options: { towns?: boolean } = {}): CountryMatch | null {
  return withinTextBudget(() => countryIn(text, options));
}

function countryIn(text: string, options: { towns?: boolean }): CountryMatch | null {
  const normalized = withSubdivisionName(normalizeText(text));
  const matches = matchPlaces(normalized);
  const code = bestCountry(normalized, matches);
  // Towns only where a residence is being read: "Atlantis" names no country.
  if (!code) return options.towns ? townCountry(normalized) : null;
  const named = matches.find((match) => match.values.some((value) => value.kind === 'country' && value.code === code));
  const place = pickPlace(normalized, matches, code);
  return {
    code,
    nameEn: countryName(code, 'en'),
    nameJa: countryName(code, 'ja'),
    matched: named?.text ?? place?.city ?? '',
    city: place?.city ?? null,
    timezone: place?.timezone ?? null,
  };
}

/**
 * A city, state or prefecture of the given country named in the text (e.g.
 * "Toronto" for CA), or null. Used to pick a time zone once the country is known.
 */
export function findPlaceInCountry(text: string, code: string): PlaceFound | null {
  // ("maple grove MN": the state code after a town names the state, as it does when the country is read.)
  const normalized = withSubdivisionName(normalizeText(text));
  const place = pickPlace(normalized, matchPlaces(normalized), code.toUpperCase());
  if (place) return place;
  const town = findTown(normalized);
  return town && town.country === code.toUpperCase() && town.timezone ? { city: town.name, timezone: town.timezone } : null;
}

/** A town the place index does not know ("Mississauga"), from the gazetteer. */
function townCountry(text: string): CountryMatch | null {
  const town = findTown(text);
  if (!town || !isKnownCountry(town.country)) return null;
  return {
    code: town.country,
    nameEn: countryName(town.country, 'en'),
    nameJa: countryName(town.country, 'ja'),
    matched: town.name,
    city: town.name,
    timezone: town.timezone,
  };
}

/**
 * A country's name for display: ICU's (CLDR) name or the library's official
 * one, whichever is shorter — "United States" rather than "United States of
 * America", but "Hong Kong" rather than "Hong Kong SAR China". An unknown code
 * gives the empty string, so the result doubles as a validity check.
 */
export function countryName(code: string, lang: SessionLanguage): string {
  const upper = code.trim().toUpperCase();
  if (!/^[A-Z]{2}$/.test(upper) || !isKnownCountry(upper)) return '';
  const fromLibrary = libraryCountryName(upper, lang);
  let fromIcu: string | undefined;
  try {
    fromIcu = new Intl.DisplayNames(lang, { type: 'region', fallback: 'none' }).of(upper);
  } catch {
    fromIcu = undefined;
  }
  const names = [fromIcu, fromLibrary].filter((name): name is string => Boolean(name));
  return names.sort((a, b) => a.length - b.length)[0] ?? upper;
}

function bestCountry(text: string, matches: PlaceMatch[]): string | null {
  const scores = new Map<string, { score: number; first: number }>();
  for (const match of matches) {
    // "Cambridge, Massachusetts", "London, Ontario": the region after a place says which country's place it is.
    const qualifies = matches.some(
      (previous) => previous !== match && previous.end <= match.start && /^\s*(?:,\s*)?$/.test(text.slice(previous.end, match.start)),
    );
    const bonus = (marksResidence(text, match) ? 1 : 0) + (qualifies ? 1 : 0);
    for (const code of new Set(match.values.map((value) => value.code))) {
      const tally = scores.get(code) ?? { score: 0, first: match.start };
      tally.score += 1 + bonus;
      scores.set(code, tally);
    }
  }
  const ranked = [...scores.entries()].sort((a, b) => b[1].score - a[1].score || a[1].first - b[1].first);
  return ranked[0]?.[0] ?? null;
}

function pickPlace(text: string, matches: PlaceMatch[], code: string): PlaceFound | null {
  const places = matches
    .map((match) => ({
      m: match,
      v: match.values.find((value): value is Extract<PlaceValue, { kind: 'place' }> => value.kind === 'place' && value.code === code),
    }))
    .filter((found): found is { m: PlaceMatch; v: Extract<PlaceValue, { kind: 'place' }> } => found.v !== undefined);
  const chosen = places.find((found) => marksResidence(text, found.m)) ?? places[0];
  return chosen ? { city: chosen.m.text, timezone: chosen.v.timezone } : null;
}

function marksResidence(text: string, match: PlaceMatch): boolean {
  return RESIDENCE_BEFORE.test(text.slice(0, match.start)) || RESIDENCE_AFTER.test(text.slice(match.end));
}
