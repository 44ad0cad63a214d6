import { describe, expect, it } from 'vitest';
import { countryName, findCountry, findPlaceInCountry, isValidTimezone } from '@convo/forms';
import { JAPAN_PLACES, WORLD_PLACES_JA } from '@convo/forms/internal/nlu/places-ja';

describe('findCountry', () => {
  it.each([
    ['東京に住んでいます', 'JP', '東京', 'Asia/Tokyo'],
    ['大阪在住', 'JP', '大阪', 'Asia/Tokyo'],
    ['北海道の札幌です', 'JP', '北海道', 'Asia/Tokyo'],
    ['I live in Osaka', 'JP', 'Osaka', 'Asia/Tokyo'],
    ['Toronto, Canada', 'CA', 'Toronto', 'America/Toronto'],
    // The region after a place says which country's place it is.
    ['Cambridge, MA', 'US', 'Massachusetts', 'America/New_York'],
    ['London, Ontario', 'CA', 'Ontario', 'America/Toronto'],
    ['New York', 'US', 'New York', 'America/New_York'],
    ['ニューヨーク在住です', 'US', 'ニューヨーク', 'America/New_York'],
    ['Vancouver', 'CA', 'Vancouver', 'America/Vancouver'],
    // A state or province code after a city's comma.
    ['Evanston, IL', 'US', 'Illinois', 'America/Chicago'],
    ['Red Deer, AB', 'CA', 'Alberta', 'America/Edmonton'],
    // ... or ending the reply without the comma.
    ['beaverton OR', 'US', 'Oregon', 'America/Los_Angeles'],
    // Towns the place index does not know, from the GeoNames gazetteer, in the zone of the nearest large city.
    ['Mississauga', 'CA', 'Mississauga', 'America/Toronto'],
    // Typed in lower case, a reply that is nothing but a city still names it.
    ['mississauga', 'CA', 'Mississauga', 'America/Toronto'],
    ['I live in Evanston', 'US', 'Evanston', 'America/Chicago'],
    ['イギリスのロンドンです', 'GB', 'ロンドン', 'Europe/London'],
    ['Mexico City', 'MX', 'Mexico City', 'America/Mexico_City'],
    ['New Mexico', 'US', 'New Mexico', 'America/Denver'],
  ])('reads %j as %s with the city %s (%s)', (text, code, city, timezone) => {
    expect(findCountry(text, { towns: true })).toMatchObject({ code, city, timezone });
  });

  it.each([
    ['I live in Canada', 'CA', 'Canada'],
    ['カナダです', 'CA', 'カナダ'],
    ['United States', 'US', 'United States'],
    ['USA', 'US', 'USA'],
    ['the UK', 'GB', 'UK'],
    ['アメリカに住んでいます', 'US', 'アメリカ'],
    ['韓国です', 'KR', '韓国'],
    ['I live in america', 'US', 'america'],
    ['france', 'FR', 'france'],
  ])('reads %j as the country %s without a city', (text, code, matched) => {
    expect(findCountry(text)).toMatchObject({ code, matched, city: null, timezone: null });
  });

  it('gives the country name in English and Japanese', () => {
    expect(findCountry('I live in Canada')).toMatchObject({ nameEn: 'Canada', nameJa: 'カナダ' });
  });

  it('reads two- and three-letter codes only in capitals ("tell us" is not the US)', () => {
    expect(findCountry('Could you tell us more?')).toBeNull();
    expect(findCountry('uk')).toBeNull();
    expect(findCountry('I live in the US')?.code).toBe('US');
  });

  it('reads a lower-case reply as a place only when it is all the reply and a city', () => {
    // "home" and "ok" are places too, of fewer people.
    expect(findCountry('home', { towns: true })).toBeNull();
    expect(findCountry('i live near mississauga now', { towns: true })).toBeNull();
  });

  it('does not take a language name for a country ("日本語でお願いします")', () => {
    expect(findCountry('日本語でお願いします')).toBeNull();
    expect(findCountry('フランス語')).toBeNull();
  });

  it('does not find a katakana country inside a longer katakana word ("マリオ" is not Mali)', () => {
    expect(findCountry('マリオが好きです')).toBeNull();
  });

  it('prefers where the respondent lives over where they are from', () => {
    expect(findCountry("I'm from Japan but I live in Canada")?.code).toBe('CA');
    expect(findCountry('カナダに住んでいる日本人です')?.code).toBe('CA');
  });

  it('lets a city vote for its country ("Georgia, USA" is the US state)', () => {
    expect(findCountry('I live in Georgia, USA')).toMatchObject({ code: 'US', city: 'Georgia', timezone: 'America/New_York' });
  });

  it('returns null when no place is named', () => {
    expect(findCountry('hello')).toBeNull();
    expect(findCountry('わかりません')).toBeNull();
    expect(findCountry('')).toBeNull();
  });
});

describe('findPlaceInCountry', () => {
  it('finds a city of the given country and ignores other countries’ cities', () => {
    expect(findPlaceInCountry('Toronto', 'CA')).toEqual({ city: 'Toronto', timezone: 'America/Toronto' });
    expect(findPlaceInCountry('Toronto', 'US')).toBeNull();
  });
});

describe('countryName', () => {
  it('names a country in English and Japanese, preferring the shorter common name', () => {
    expect(countryName('US', 'en')).toBe('United States');
    expect(countryName('US', 'ja')).toBe('アメリカ合衆国');
    expect(countryName('KR', 'ja')).toBe('韓国');
    expect(countryName('HK', 'en')).toBe('Hong Kong');
    expect(countryName('jp', 'ja')).toBe('日本');
  });

  it('returns the empty string for an unknown code, so it doubles as a validity check', () => {
    expect(countryName('XX', 'en')).toBe('');
    expect(countryName('Japan', 'en')).toBe('');
  });
});

describe('the Japanese place table', () => {
  it('covers all 47 prefectures, each in Japan on Asia/Tokyo', () => {
    expect(JAPAN_PLACES).toHaveLength(47);
    for (const p of JAPAN_PLACES) expect(p).toMatchObject({ country: 'JP', timezone: 'Asia/Tokyo' });
  });

  it('maps every world city to a valid IANA zone', () => {
    for (const p of WORLD_PLACES_JA) expect(isValidTimezone(p.timezone), p.timezone).toBe(true);
  });

  it.each([
    ['ロンドン', 'GB', 'Europe/London'],
    ['パリ', 'FR', 'Europe/Paris'],
    ['トロント', 'CA', 'America/Toronto'],
    ['バンクーバー', 'CA', 'America/Vancouver'],
    ['ロサンゼルス', 'US', 'America/Los_Angeles'],
    ['シドニー', 'AU', 'Australia/Sydney'],
    ['ソウル', 'KR', 'Asia/Seoul'],
    ['上海', 'CN', 'Asia/Shanghai'],
    ['シンガポール', 'SG', 'Asia/Singapore'],
  ])('knows %s (%s, %s)', (text, code, timezone) => {
    expect(findCountry(`${text}に住んでいます`)).toMatchObject({ code, timezone });
  });
});

describe('a place in a country already known', () => {
  it('reads a state code after a town, as the country reader does ("maple grove MN")', async () => {
    const { findPlaceInCountry } = await import('@convo/forms/internal/nlu/country');
    expect(findPlaceInCountry('maple grove MN', 'US')).toMatchObject({ timezone: 'America/Chicago' });
  });
});
