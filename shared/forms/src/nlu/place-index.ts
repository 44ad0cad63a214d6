import countries from 'i18n-iso-countries';
import enLocale from 'i18n-iso-countries/langs/en.json' with { type: 'json' };
import jaLocale from 'i18n-iso-countries/langs/ja.json' with { type: 'json' };
import { createNameMatcher, type NameEntry, type NameMatch } from './name-matcher.js';
import type { PlaceEntry } from './place.js';
import { COUNTRY_ALIASES_EN, SUBDIVISIONS_EN } from './places-en.js';
import { COUNTRY_ALIASES_JA, JAPAN_PLACES, WORLD_PLACES_JA } from './places-ja.js';
import { cityNameVariants, primaryCountry, resolvedZone, zoneArea, zoneCityName, zonesIncludingLinks } from './zones.js';

// Node's entry of the library registers every locale, its browser entry none: register ours either way.
countries.registerLocale(enLocale);
countries.registerLocale(jaLocale);

/** What a name in the index stands for: a country, or a place (city, state, prefecture) with its zone. */
export type PlaceValue = { kind: 'country'; code: string } | { kind: 'place'; code: string; timezone: string };

export type PlaceMatch = NameMatch<PlaceValue>;

// Areas whose zone names are real cities (not "Etc", not research stations in Antarctica).
const CITY_AREAS = new Set(['Africa', 'America', 'Arctic', 'Asia', 'Atlantic', 'Australia', 'Europe', 'Indian', 'Pacific']);

/**
 * Zone "cities" that are ordinary English words, given names or compass
 * regions ("Center", "Christmas", "Stanley", "North"): fine once the country
 * is known (see the time-zone hint matcher), misleading when guessing it.
 */
const AMBIGUOUS_CITY_NAMES = new Set(
  `center resolute christmas easter wake midway reunion stanley knox beulah dawson chatham johnston norfolk currie lindeman
  north south west east central eastern western pacific mountain atlantic general continental victoria yancowinna lhi act nsw`
    .split(/\s+/)
    .filter(Boolean),
);

// "日本語" and "フランス語" name languages, not countries.
const NOT_A_PLACE_AFTER = /^語/;

let matcher: ((text: string) => PlaceMatch[]) | null = null;

/** All country and place names found in the text, longest first, without overlaps. */
export function matchPlaces(text: string): PlaceMatch[] {
  matcher ??= createNameMatcher([...countryNames(), ...placeNames()], { rejectFollowing: NOT_A_PLACE_AFTER });
  return matcher(text);
}

/** Every name of every country: i18n-iso-countries (with aliases), ICU's long and short names, curated aliases. */
function countryNames(): NameEntry<PlaceValue>[] {
  const out: NameEntry<PlaceValue>[] = [];
  const add = (name: string | undefined, code: string) => {
    if (name) out.push({ name, value: countryValue(code) });
  };
  for (const lang of ['en', 'ja']) {
    const all = countries.getNames(lang, { select: 'all' });
    for (const [code, names] of Object.entries(all)) for (const name of names) add(name, code);
    for (const style of ['long', 'short'] as const) {
      const display = new Intl.DisplayNames(lang, { type: 'region', style, fallback: 'none' });
      for (const code of Object.keys(all)) add(display.of(code), code);
    }
  }
  for (const alias of [...COUNTRY_ALIASES_EN, ...COUNTRY_ALIASES_JA]) add(alias.name, alias.country);
  return out;
}

/** Cities from zone names (America/New_York → "New York"), then the curated tables. */
function placeNames(): NameEntry<PlaceValue>[] {
  const out: NameEntry<PlaceValue>[] = [];
  for (const zone of Object.keys(zonesIncludingLinks())) {
    const area = zoneArea(zone);
    const code = primaryCountry(zone);
    const city = zoneCityName(zone);
    if (!area || !CITY_AREAS.has(area) || !code || AMBIGUOUS_CITY_NAMES.has(city.toLowerCase())) continue;
    for (const name of cityNameVariants(city)) out.push({ name, value: placeValue(code, resolvedZone(zone)) });
  }
  for (const place of curatedPlaces()) for (const name of place.names) out.push({ name, value: placeValue(place.country, place.timezone) });
  return out;
}

/** The hand-written tables, for places the libraries do not name. */
export function curatedPlaces(): readonly PlaceEntry[] {
  return [...JAPAN_PLACES, ...WORLD_PLACES_JA, ...SUBDIVISIONS_EN];
}

// One value object per country/place, so the matcher's de-duplication (by identity) works.
const countryValues = new Map<string, PlaceValue>();
const placeValues = new Map<string, PlaceValue>();

function countryValue(code: string): PlaceValue {
  const value = countryValues.get(code) ?? { kind: 'country', code };
  countryValues.set(code, value);
  return value;
}

function placeValue(code: string, timezone: string): PlaceValue {
  const key = `${code}|${timezone}`;
  const value = placeValues.get(key) ?? { kind: 'place', code, timezone };
  placeValues.set(key, value);
  return value;
}

/** The library's official name of a country in a language, or undefined. */
export function libraryCountryName(code: string, lang: 'en' | 'ja'): string | undefined {
  return countries.getName(code, lang);
}

/** Whether the library knows this alpha-2 code. */
export function isKnownCountry(code: string): boolean {
  return countries.isValid(code);
}
