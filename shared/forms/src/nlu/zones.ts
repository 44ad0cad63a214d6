import ct, { type Timezone } from 'countries-and-timezones';

/**
 * Read-only views of the countries-and-timezones data that the place and
 * time-zone rules share: every zone including links, the city a zone is named
 * after, and which zone a name should resolve to.
 */

let allZones: Record<string, Timezone> | null = null;

/** Every zone the library knows, links ("Europe/Amsterdam", "US/Eastern") included. */
export function zonesIncludingLinks(): Record<string, Timezone> {
  allZones ??= ct.getAllTimezones({ deprecated: true });
  return allZones;
}

/** The country a zone is most associated with (the library lists it first). */
export function primaryCountry(zone: string): string | null {
  return zonesIncludingLinks()[zone]?.countries[0] ?? null;
}

/** Countries that use a zone. */
export function zoneCountries(zone: string): readonly string[] {
  return zonesIncludingLinks()[zone]?.countries ?? [];
}

/**
 * The zone a name should resolve to. A link that only renames a zone of the
 * same country (Asia/Calcutta → Asia/Kolkata, US/Eastern → America/New_York)
 * resolves to its target; a link that gives another country its own city
 * (Europe/Amsterdam → Europe/Brussels) is kept, so a Dutch respondent gets
 * "Europe/Amsterdam", which is just as valid and reads right.
 */
export function resolvedZone(zone: string): string {
  const entry = zonesIncludingLinks()[zone];
  if (!entry?.aliasOf) return zone;
  return primaryCountry(entry.aliasOf) === entry.countries[0] || entry.countries.length === 0 ? entry.aliasOf : zone;
}

/** "America/New_York" → "New York", "America/Indiana/Indianapolis" → "Indianapolis". */
export function zoneCityName(zone: string): string {
  const last = zone.split('/').at(-1) ?? zone;
  return last.replace(/_/g, ' ');
}

/** The area of a zone name ("America", "Asia"…), or null for legacy single names ("Japan", "EST"). */
export function zoneArea(zone: string): string | null {
  return zone.includes('/') ? (zone.split('/')[0] ?? null) : null;
}

/** Ways people write a zone's city: "St Johns" is also "St. Johns" and "Saint Johns". */
export function cityNameVariants(city: string): string[] {
  const out = [city];
  if (city.startsWith('St ')) out.push(`St. ${city.slice(3)}`, `Saint ${city.slice(3)}`);
  const plain = city.normalize('NFD').replace(/\p{M}/gu, '');
  if (plain !== city) out.push(plain);
  return out;
}
