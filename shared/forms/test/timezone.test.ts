import { describe, expect, it } from 'vitest';
import { FALLBACK_TIMEZONE, isValidTimezone, resolveTimezone } from '@convo/forms';

describe('resolveTimezone', () => {
  it('is ambiguous for Canada, offering the principal zones first', () => {
    const resolution = resolveTimezone('CA');
    expect(resolution.source).toBe('ambiguous');
    expect(resolution.timezone).toBeNull();
    expect(resolution.candidates.slice(0, 2)).toEqual(['America/Toronto', 'America/Vancouver']);
    expect(resolution.candidates).toContain('America/Halifax');
  });

  it('is ambiguous for the United States, offering the main zones first', () => {
    const resolution = resolveTimezone('US', null);
    expect(resolution.source).toBe('ambiguous');
    expect(resolution.candidates.slice(0, 4)).toEqual(['America/New_York', 'America/Chicago', 'America/Denver', 'America/Los_Angeles']);
  });

  it('is single for Japan: Asia/Tokyo', () => {
    expect(resolveTimezone('JP')).toEqual({ timezone: 'Asia/Tokyo', source: 'single', candidates: ['Asia/Tokyo'] });
  });

  it('ignores a zone the library lists for a country but that belongs to a neighbour (Germany is Europe/Berlin)', () => {
    expect(resolveTimezone('DE')).toMatchObject({ timezone: 'Europe/Berlin', source: 'single' });
  });

  it("gives a country without a zone of its own the library's link named after its city", () => {
    expect(resolveTimezone('NL')).toMatchObject({ timezone: 'Europe/Amsterdam', source: 'single' });
  });

  it('treats a country whose zones keep one clock, or that has one principal zone, as single', () => {
    expect(resolveTimezone('CN')).toMatchObject({ timezone: 'Asia/Shanghai', source: 'single' });
    expect(resolveTimezone('AR').source).toBe('single');
  });

  it('picks the zone of a city named in the hint ("Toronto" → America/Toronto)', () => {
    expect(resolveTimezone('CA', 'Toronto')).toMatchObject({ timezone: 'America/Toronto', source: 'city' });
    expect(resolveTimezone('CA', 'I live in Toronto, Canada').timezone).toBe('America/Toronto');
    expect(resolveTimezone('CA', 'モントリオールです').timezone).toBe('America/Toronto');
    expect(resolveTimezone('US', 'New York').timezone).toBe('America/New_York');
    expect(resolveTimezone('US', 'カリフォルニア').timezone).toBe('America/Los_Angeles');
  });

  it.each([
    ['Pacific', 'America/Los_Angeles'],
    ['PST', 'America/Los_Angeles'],
    ['pst', 'America/Los_Angeles'],
    ['太平洋時間です', 'America/Los_Angeles'],
    ['Eastern time', 'America/New_York'],
    ['東部', 'America/New_York'],
    ['Central', 'America/Chicago'],
    ['Mountain', 'America/Denver'],
    ['Texas', 'America/Chicago'],
    ['America/Chicago', 'America/Chicago'],
    ['america/denver', 'America/Denver'],
    ['UTC-5', 'America/New_York'],
  ])('reads the US hint %j as %s', (hint, timezone) => {
    expect(resolveTimezone('US', hint)).toMatchObject({ timezone, source: 'city' });
  });

  it('reads zone words per country ("Pacific" in Canada is Vancouver)', () => {
    expect(resolveTimezone('CA', 'Pacific').timezone).toBe('America/Vancouver');
    expect(resolveTimezone('CA', 'Atlantic').timezone).toBe('America/Halifax');
    expect(resolveTimezone('AU', 'Western Australia').timezone).toBe('Australia/Perth');
  });

  it('ignores a city of another country and stays ambiguous', () => {
    expect(resolveTimezone('US', 'Toronto')).toMatchObject({ timezone: null, source: 'ambiguous' });
  });

  it('accepts lower-case country codes', () => {
    expect(resolveTimezone('jp').timezone).toBe('Asia/Tokyo');
  });

  it('is unknown for a code the library does not know', () => {
    expect(resolveTimezone('XX', 'Tokyo')).toEqual({ timezone: null, source: 'unknown', candidates: [] });
  });

  it('only ever offers zones the runtime accepts', () => {
    for (const code of ['US', 'CA', 'AU', 'BR', 'RU', 'MX', 'ID']) {
      for (const z of resolveTimezone(code).candidates) expect(isValidTimezone(z), z).toBe(true);
    }
  });
});

describe('isValidTimezone', () => {
  it('accepts IANA zones and rejects anything else', () => {
    expect(isValidTimezone('Asia/Tokyo')).toBe(true);
    expect(isValidTimezone('America/New_York')).toBe(true);
    expect(isValidTimezone('Mars/Olympus_Mons')).toBe(false);
    expect(isValidTimezone('')).toBe(false);
  });
});

describe('FALLBACK_TIMEZONE', () => {
  it("is the seed's Asia/Tokyo", () => {
    expect(FALLBACK_TIMEZONE).toBe('Asia/Tokyo');
  });
});
