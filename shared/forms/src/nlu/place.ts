/**
 * A place the libraries do not name (a prefecture, a state, a city written in
 * katakana): every way of writing it, its country (ISO 3166-1 alpha-2) and the
 * IANA time zone of the place.
 */
export type PlaceEntry = { names: readonly string[]; country: string; timezone: string };

/** A colloquial country name the libraries lack ("America", "米国"). */
export type CountryAlias = { name: string; country: string };
