import ct from 'countries-and-timezones';
import { withinTextBudget } from '@convo/text';
import { findPlaceInCountry } from './country.js';
import { createNameMatcher, type NameEntry, type NameMatch } from './name-matcher.js';
import { PRINCIPAL_ZONES, ZONE_WORDS } from './timezone-hints.js';
import { normalizeText } from './text.js';
import { cityNameVariants, primaryCountry, resolvedZone, zoneArea, zoneCityName, zoneCountries, zonesIncludingLinks } from './zones.js';

export { zoneCityName } from './zones.js';

/** The seed's fallback when the time zone cannot be told (設計書: 失敗時は Asia/Tokyo). */
export const FALLBACK_TIMEZONE = 'Asia/Tokyo';

/**
 * How a country's time zone was decided: `city` from the hint (a city, state,
 * zone name, abbreviation or UTC offset); `single` because the country has one
 * zone in practice (one zone, zones that all keep the same clock, or one
 * principal zone as in China); `ambiguous` when it has several (see
 * `candidates`, principal zones first); `unknown` when the country code is not
 * known. The Asia/Tokyo fallback is the caller's decision.
 */
export type TimezoneResolution = {
  timezone: string | null;
  source: 'city' | 'single' | 'ambiguous' | 'unknown';
  candidates: string[];
};

/**
 * Resolves the respondent's time zone from the country and, optionally, their
 * own words (hint): "Toronto" → America/Toronto, "Pacific"/"PST"/"太平洋" →
 * America/Los_Angeles (US), "America/Chicago", "UTC-5".
 */
export function resolveTimezone(countryCode: string, hint?: string | null): TimezoneResolution {
  return withinTextBudget(() => resolve(countryCode, hint));
}

function resolve(countryCode: string, hint?: string | null): TimezoneResolution {
  const code = countryCode.trim().toUpperCase();
  const candidates = countryZones(code);
  if (!candidates) return { timezone: null, source: 'unknown', candidates: [] };
  const fromHint = hint ? zoneFromHint(code, normalizeText(hint), candidates) : null;
  if (fromHint) return { timezone: fromHint, source: 'city', candidates };
  if (candidates.length === 0) return { timezone: null, source: 'unknown', candidates };
  if (isSingleInPractice(code, candidates)) return { timezone: candidates[0] ?? null, source: 'single', candidates };
  return { timezone: null, source: 'ambiguous', candidates };
}

/**
 * One zone, or several that keep the same clock all year (Argentina's twelve
 * zones), or one principal zone for nearly everyone (China: Asia/Shanghai, not
 * the unofficial Asia/Urumqi). Asking "which time zone?" there would only confuse.
 */
function isSingleInPractice(code: string, candidates: string[]): boolean {
  if (candidates.length === 1 || PRINCIPAL_ZONES[code]?.length === 1) return true;
  const all = zonesIncludingLinks();
  const clocks = new Set(candidates.map((zone) => `${all[zone]?.utcOffset}/${all[zone]?.dstOffset}`));
  return clocks.size === 1;
}

/** Whether the runtime (ICU) accepts this IANA zone name. */
export function isValidTimezone(tz: string): boolean {
  if (!tz.trim()) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/**
 * The zones to consider for a country, principal ones first, or null for an
 * unknown country. The library lists, per country, every canonical zone used
 * there, including zones shared with a neighbour (Germany lists Europe/Zurich
 * for Büsingen, Australia Asia/Tokyo); only zones the library associates
 * *first* with this country are kept, so Germany is simply Europe/Berlin. A
 * country with no zone of its own (the Netherlands shares Europe/Brussels)
 * gets the library's link named after its own city (Europe/Amsterdam).
 */
export function countryZones(code: string): string[] | null {
  const country = ct.getCountry(code);
  if (!country) return null;
  const own = country.timezones.filter((zone) => primaryCountry(zone) === code);
  const zones = own.length > 0 ? own : ownLinks(code, country.timezones);
  return orderByPrincipal(code, zones.filter(isValidTimezone));
}

function ownLinks(code: string, canonical: readonly string[]): string[] {
  const byTarget = new Map<string, string>();
  for (const zone of Object.values(zonesIncludingLinks())) {
    if (
      zone.aliasOf &&
      canonical.includes(zone.aliasOf) &&
      zone.countries[0] === code &&
      zoneArea(zone.name) &&
      !byTarget.has(zone.aliasOf)
    ) {
      byTarget.set(zone.aliasOf, zone.name);
    }
  }
  return canonical.map((zone) => byTarget.get(zone) ?? zone);
}

function orderByPrincipal(code: string, zones: string[]): string[] {
  const principal = PRINCIPAL_ZONES[code] ?? [];
  const rank = (zone: string) => (principal.includes(zone) ? principal.indexOf(zone) : principal.length);
  return [...zones].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

function zoneFromHint(code: string, hint: string, candidates: string[]): string | null {
  return (
    explicitZone(code, hint) ??
    findPlaceInCountry(hint, code)?.timezone ??
    zoneWordMatcher(code)(hint)[0]?.values[0] ??
    zoneFromOffset(hint, candidates)
  );
}

/** An IANA name typed out ("America/Chicago", "asia/tokyo") that belongs to the country. */
function explicitZone(code: string, hint: string): string | null {
  const all = zonesIncludingLinks();
  // (From the first letter of a word, the lookbehind: tried from each letter of a long word, the search was quadratic.)
  for (const match of hint.matchAll(/(?<![A-Za-z])[A-Za-z]+(?:\/[A-Za-z0-9_+-]+)+/g)) {
    const name = Object.keys(all).find((zone) => zone.toLowerCase() === match[0].toLowerCase());
    if (name && zoneCountries(name).includes(code)) return resolvedZone(name);
  }
  return null;
}

/** "UTC-5", "GMT+9", "UTC+05:30": the first candidate whose standard or summer offset matches. */
function zoneFromOffset(hint: string, candidates: string[]): string | null {
  const match = /\b(?:UTC|GMT)\s*([+-])\s*(\d{1,2})(?::?(\d{2}))?\b/i.exec(hint);
  if (!match) return null;
  const minutes = (match[1] === '-' ? -1 : 1) * (Number(match[2]) * 60 + Number(match[3] ?? 0));
  const all = zonesIncludingLinks();
  return candidates.find((zone) => all[zone]?.utcOffset === minutes || all[zone]?.dstOffset === minutes) ?? null;
}

const wordMatchers = new Map<string, (text: string) => NameMatch<string>[]>();

/**
 * Every name the data gives a zone of this country — its city, and legacy
 * names such as US/Eastern ("Eastern") or Canada/Saskatchewan — plus the
 * curated abbreviations. Scoped to one country, so "Pacific" is safe here.
 */
function zoneWordMatcher(code: string): (text: string) => NameMatch<string>[] {
  const cached = wordMatchers.get(code);
  if (cached) return cached;
  const entries: NameEntry<string>[] = [];
  for (const word of ZONE_WORDS[code] ?? []) for (const name of word.names) entries.push({ name, value: word.timezone });
  for (const zone of Object.values(zonesIncludingLinks())) {
    if (!zoneCountries(zone.name).includes(code) || !zoneArea(zone.name) || zoneArea(zone.name) === 'Etc') continue;
    const city = zoneCityName(zone.name).replace(/-/g, ' ');
    for (const name of cityNameVariants(city)) entries.push({ name, value: resolvedZone(zone.name) });
  }
  const matcher = createNameMatcher(entries, { codesInAnyCase: true });
  wordMatchers.set(code, matcher);
  return matcher;
}
