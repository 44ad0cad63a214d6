/**
 * What the time-zone data cannot tell: the names people use for a zone
 * instead of a city ("Eastern", "PST", "東部"), and which of a country's many
 * zones are the ones most people live in (the libraries carry no population),
 * so the question "which time zone?" offers useful examples first.
 */

export type ZoneWord = { names: readonly string[]; timezone: string };

const zoneWord = (timezone: string, ...names: string[]): ZoneWord => ({ names, timezone });

/** Zone names and abbreviations by country. Two- and three-letter codes only match in capitals. */
export const ZONE_WORDS: Readonly<Record<string, readonly ZoneWord[]>> = {
  US: [
    zoneWord('America/New_York', 'Eastern', 'Eastern Time', 'East Coast', 'EST', 'EDT', 'ET', '東部', '東部時間', '東海岸'),
    zoneWord('America/Chicago', 'Central', 'Central Time', 'CST', 'CDT', 'CT', '中部', '中部時間'),
    zoneWord('America/Denver', 'Mountain', 'Mountain Time', 'MST', 'MDT', 'MT', '山岳部', '山岳部時間', '山岳'),
    zoneWord('America/Los_Angeles', 'Pacific', 'Pacific Time', 'West Coast', 'PST', 'PDT', 'PT', '太平洋', '太平洋時間', '西海岸'),
    zoneWord('America/Anchorage', 'Alaska', 'Alaska Time', 'AKST', 'AKDT', 'アラスカ'),
    zoneWord('Pacific/Honolulu', 'Hawaii', 'Hawaii Time', 'HST', 'ハワイ'),
  ],
  CA: [
    zoneWord('America/Toronto', 'Eastern', 'Eastern Time', 'EST', 'EDT', 'ET', '東部', '東部時間'),
    zoneWord('America/Winnipeg', 'Central', 'Central Time', 'CST', 'CDT', 'CT', '中部', '中部時間'),
    zoneWord('America/Edmonton', 'Mountain', 'Mountain Time', 'MST', 'MDT', 'MT', '山岳部', '山岳部時間', '山岳'),
    zoneWord('America/Vancouver', 'Pacific', 'Pacific Time', 'PST', 'PDT', 'PT', '太平洋', '太平洋時間'),
    zoneWord('America/Halifax', 'Atlantic', 'Atlantic Time', 'AST', 'ADT', '大西洋', '大西洋時間'),
    zoneWord('America/St_Johns', 'Newfoundland', 'Newfoundland Time', 'NST', 'NDT', 'ニューファンドランド'),
  ],
  AU: [
    zoneWord('Australia/Sydney', 'Eastern', 'AEST', 'AEDT', '東部'),
    zoneWord('Australia/Adelaide', 'Central', 'ACST', 'ACDT', '中部'),
    zoneWord('Australia/Perth', 'Western', 'AWST', '西部'),
  ],
};

/** The zones most of a country's people live in, in the order to offer them. */
export const PRINCIPAL_ZONES: Readonly<Record<string, readonly string[]>> = {
  US: [
    'America/New_York',
    'America/Chicago',
    'America/Denver',
    'America/Los_Angeles',
    'America/Phoenix',
    'America/Anchorage',
    'Pacific/Honolulu',
  ],
  CA: [
    'America/Toronto',
    'America/Vancouver',
    'America/Edmonton',
    'America/Winnipeg',
    'America/Halifax',
    'America/St_Johns',
    'America/Regina',
  ],
  AU: [
    'Australia/Sydney',
    'Australia/Melbourne',
    'Australia/Brisbane',
    'Australia/Perth',
    'Australia/Adelaide',
    'Australia/Darwin',
    'Australia/Hobart',
  ],
  BR: ['America/Sao_Paulo', 'America/Manaus', 'America/Fortaleza', 'America/Belem', 'America/Rio_Branco'],
  MX: ['America/Mexico_City', 'America/Tijuana', 'America/Cancun', 'America/Monterrey', 'America/Hermosillo'],
  RU: ['Europe/Moscow', 'Asia/Yekaterinburg', 'Asia/Novosibirsk', 'Asia/Vladivostok', 'Europe/Kaliningrad'],
  ID: ['Asia/Jakarta', 'Asia/Makassar', 'Asia/Jayapura'],
  CN: ['Asia/Shanghai'],
  ES: ['Europe/Madrid', 'Atlantic/Canary'],
  PT: ['Europe/Lisbon', 'Atlantic/Azores'],
  NZ: ['Pacific/Auckland'],
  CL: ['America/Santiago'],
  AR: ['America/Argentina/Buenos_Aires'],
  KZ: ['Asia/Almaty'],
};
