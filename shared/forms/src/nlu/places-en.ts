import type { CountryAlias, PlaceEntry } from './place.js';

/**
 * Places written in English that the time-zone database does not name:
 * US states, Canadian provinces and Australian states (what people answer to
 * "which time zone?" in countries with several) and big cities whose zone is
 * named after another city (Montreal → America/Toronto). Zone names the
 * database does carry (Toronto, Chicago, Tokyo…) are indexed from it instead.
 */

const at = (country: string, timezone: string, ...names: string[]): PlaceEntry => ({ names, country, timezone });

export const SUBDIVISIONS_EN: readonly PlaceEntry[] = [
  at('US', 'America/New_York',
    'New York State', 'Connecticut', 'Delaware', 'Florida', 'Georgia', 'Maine', 'Maryland', 'Massachusetts',
    'New Hampshire', 'New Jersey', 'North Carolina', 'Ohio', 'Pennsylvania', 'Rhode Island', 'South Carolina',
    'Vermont', 'Virginia', 'West Virginia', 'District of Columbia', 'Washington DC', 'Washington D.C.',
    'Washington, D.C.', 'Boston', 'Philadelphia', 'Miami', 'Atlanta', 'Pittsburgh', 'Baltimore'),
  at('US', 'America/Chicago',
    'Alabama', 'Arkansas', 'Illinois', 'Iowa', 'Kansas', 'Louisiana', 'Minnesota', 'Mississippi', 'Missouri',
    'Nebraska', 'North Dakota', 'Oklahoma', 'South Dakota', 'Tennessee', 'Texas', 'Wisconsin', 'Houston', 'Dallas',
    'Austin', 'San Antonio', 'Nashville', 'New Orleans', 'Minneapolis', 'St. Louis', 'Kansas City'),
  at('US', 'America/Denver', 'Colorado', 'Montana', 'New Mexico', 'Utah', 'Wyoming', 'Salt Lake City', 'Albuquerque'),
  at('US', 'America/Phoenix', 'Arizona'),
  at('US', 'America/Boise', 'Idaho'),
  at('US', 'America/Indiana/Indianapolis', 'Indiana'),
  at('US', 'America/Kentucky/Louisville', 'Kentucky'),
  at('US', 'America/Detroit', 'Michigan'),
  at('US', 'America/Los_Angeles',
    'California', 'Nevada', 'Oregon', 'Washington', 'Washington State', 'San Francisco', 'San Diego', 'San Jose',
    'Seattle', 'Portland', 'Las Vegas', 'Sacramento', 'Silicon Valley', 'Bay Area'),
  at('US', 'America/Anchorage', 'Alaska'),
  at('US', 'Pacific/Honolulu', 'Hawaii'),
  at('CA', 'America/Toronto', 'Ontario', 'Quebec', 'Québec', 'Montreal', 'Montréal', 'Ottawa', 'Quebec City'),
  at('CA', 'America/Vancouver', 'British Columbia', 'BC'),
  at('CA', 'America/Edmonton', 'Alberta', 'Calgary', 'Northwest Territories'),
  at('CA', 'America/Winnipeg', 'Manitoba'),
  at('CA', 'America/Regina', 'Saskatchewan', 'Saskatoon'),
  at('CA', 'America/Halifax', 'Nova Scotia', 'Prince Edward Island', 'PEI'),
  at('CA', 'America/Moncton', 'New Brunswick'),
  at('CA', 'America/St_Johns', 'Newfoundland', 'Newfoundland and Labrador'),
  at('CA', 'America/Whitehorse', 'Yukon'),
  at('CA', 'America/Iqaluit', 'Nunavut'),
  at('AU', 'Australia/Sydney', 'New South Wales', 'NSW', 'Canberra', 'ACT'),
  at('AU', 'Australia/Melbourne', 'Victoria'),
  at('AU', 'Australia/Brisbane', 'Queensland', 'Gold Coast'),
  at('AU', 'Australia/Adelaide', 'South Australia'),
  at('AU', 'Australia/Perth', 'Western Australia'),
  at('AU', 'Australia/Hobart', 'Tasmania'),
  at('AU', 'Australia/Darwin', 'Northern Territory'),
  at('GB', 'Europe/London',
    'England', 'Scotland', 'Wales', 'Northern Ireland', 'Manchester', 'Edinburgh', 'Birmingham', 'Liverpool',
    'Glasgow', 'Bristol', 'Leeds', 'Cambridge', 'Oxford'),
  at('DE', 'Europe/Berlin', 'Munich', 'Frankfurt', 'Hamburg', 'Cologne', 'Düsseldorf', 'Stuttgart'),
  at('FR', 'Europe/Paris', 'Lyon', 'Marseille', 'Toulouse'),
  at('IT', 'Europe/Rome', 'Milan', 'Florence', 'Venice', 'Naples'),
  at('ES', 'Europe/Madrid', 'Barcelona', 'Valencia', 'Seville'),
  at('NL', 'Europe/Amsterdam', 'Rotterdam', 'The Hague'),
  at('CH', 'Europe/Zurich', 'Geneva', 'Bern', 'Basel'),
  at('CN', 'Asia/Shanghai', 'Beijing', 'Guangzhou', 'Shenzhen', 'Chengdu', 'Hangzhou'),
  at('KR', 'Asia/Seoul', 'Busan'),
  at('IN', 'Asia/Kolkata', 'Mumbai', 'Delhi', 'New Delhi', 'Bangalore', 'Bengaluru', 'Chennai', 'Hyderabad', 'Pune'),
  at('VN', 'Asia/Ho_Chi_Minh', 'Hanoi', 'Ho Chi Minh City', 'Saigon'),
  at('ID', 'Asia/Makassar', 'Bali'),
  at('BR', 'America/Sao_Paulo', 'Rio de Janeiro', 'Brasília', 'Brasilia'),
  at('AE', 'Asia/Dubai', 'Abu Dhabi'),
  at('ZA', 'Africa/Johannesburg', 'Cape Town', 'Pretoria', 'Durban'),
  at('NZ', 'Pacific/Auckland', 'Wellington', 'Christchurch'),
];

/** Everyday English country names the libraries lack. */
export const COUNTRY_ALIASES_EN: readonly CountryAlias[] = [
  { name: 'America', country: 'US' },
  { name: 'the States', country: 'US' },
  { name: 'Britain', country: 'GB' },
  { name: 'Holland', country: 'NL' },
  { name: 'Korea', country: 'KR' },
  { name: 'Burma', country: 'MM' },
  { name: 'Macau', country: 'MO' },
  { name: 'Swaziland', country: 'SZ' },
  { name: 'NZ', country: 'NZ' },
];

/**
 * The postal abbreviations of US states and Canadian provinces, as people write them after a city ("Evanston,
 * IL", "Halifax, NS"): read only in that position, since many are also words ("IN", "OR", "ME").
 */
export const SUBDIVISION_CODES: Readonly<Record<string, string>> = {
  AL: 'Alabama', AK: 'Alaska', AZ: 'Arizona', AR: 'Arkansas', CA: 'California', CO: 'Colorado', CT: 'Connecticut',
  DE: 'Delaware', DC: 'District of Columbia', FL: 'Florida', GA: 'Georgia', HI: 'Hawaii', ID: 'Idaho', IL: 'Illinois',
  IN: 'Indiana', IA: 'Iowa', KS: 'Kansas', KY: 'Kentucky', LA: 'Louisiana', ME: 'Maine', MD: 'Maryland',
  MA: 'Massachusetts', MI: 'Michigan', MN: 'Minnesota', MS: 'Mississippi', MO: 'Missouri', MT: 'Montana',
  NE: 'Nebraska', NV: 'Nevada', NH: 'New Hampshire', NJ: 'New Jersey', NM: 'New Mexico', NY: 'New York State',
  NC: 'North Carolina', ND: 'North Dakota', OH: 'Ohio', OK: 'Oklahoma', OR: 'Oregon', PA: 'Pennsylvania',
  RI: 'Rhode Island', SC: 'South Carolina', SD: 'South Dakota', TN: 'Tennessee', TX: 'Texas', UT: 'Utah',
  VT: 'Vermont', VA: 'Virginia', WA: 'Washington State', WV: 'West Virginia', WI: 'Wisconsin', WY: 'Wyoming',
  ON: 'Ontario', QC: 'Quebec', AB: 'Alberta', MB: 'Manitoba', SK: 'Saskatchewan', NS: 'Nova Scotia',
  NB: 'New Brunswick', NL: 'Newfoundland', PE: 'Prince Edward Island', YT: 'Yukon', NT: 'Northwest Territories', NU: 'Nunavut',
};
