import { hasJapanese, type SessionLanguage, WORLD_PLACES_JA, zoneCityName } from '@convo/forms';

/**
 * What the offline greeter says while settling language, country and time
 * zone: polite Japanese (です/ます) and plain, friendly English. Before the
 * language is known every message is bilingual.
 */

/**
 * The first message. Without a language it greets in both languages and asks
 * which one to use. With a language already chosen (set by the form or an
 * earlier turn) it greets in that language and moves on to the next thing the
 * greeter needs, the country, so the reply is never a pointless "yes".
 */
export function greetingText(language: SessionLanguage | null, formTitle: string | null): string {
  // A title in the other language is left out rather than pasted into the greeting.
  const raw = formTitle?.trim() || null;
  const title = raw && language !== null && (language === 'en') === hasJapanese(raw) ? null : raw;
  const ja = title
    ? `こんにちは！「${title}」へのご回答にご協力いただき、ありがとうございます。`
    : 'こんにちは！ご回答にご協力いただき、ありがとうございます。';
  const en = title
    ? `Hello! Thank you for taking the time to answer “${title}”.`
    : 'Hello! Thank you for taking the time to answer a few questions.';
  if (language === 'ja') return `${ja}\n${askCountryText('ja')}`;
  if (language === 'en') return `${en}\n${askCountryText('en')}`;
  return `${ja}\n日本語と英語のどちらで進めましょうか？\n\n${en}\nWould you like to continue in Japanese or English?`;
}

/** Asks where the respondent lives; the city helps with countries that span several time zones. */
export function askCountryText(lang: SessionLanguage): string {
  return lang === 'ja'
    ? '現在お住まいの国を教えていただけますか？（都市名も添えていただくと、タイムゾーンをより正確に設定できます。）'
    : 'Which country do you currently live in? (If you also mention your city, I can set your time zone more precisely.)';
}

/**
 * Asks for the city or time zone in a country with several, offering up to
 * five of the candidates as examples ("New York (America/New_York)").
 */
export function askTimezoneText(lang: SessionLanguage, countryName: string, candidates: string[]): string {
  const examples = candidates.slice(0, 5).map((z) => `${cityLabel(z, lang)}${lang === 'ja' ? `（${z}）` : ` (${z})`}`);
  if (lang === 'ja') {
    const list = examples.length > 0 ? `\n例：${examples.join('、')}` : '';
    return `${countryName}には複数のタイムゾーンがあります。お住まいの都市名、またはタイムゾーンを教えていただけますか？${list}`;
  }
  const list = examples.length > 0 ? `\nFor example: ${examples.join(', ')}` : '';
  return `${countryName} has several time zones. Which city do you live in, or which time zone are you in?${list}`;
}

/** Bilingual: the requested language is not available; Japanese or English are. */
export function languageUnsupportedText(requested: string): string {
  const ja = languageName(requested, 'ja');
  const en = languageName(requested, 'en');
  return (
    `申し訳ありません。${ja}での対応はできませんが、日本語または英語で進めることができます。どちらがよろしいですか？\n\n` +
    `Sorry, I can't continue in ${en}, but we can continue in Japanese or English. Which would you prefer?`
  );
}

/** Bilingual: the reply named no language we could recognise. */
export function languageNotUnderstoodText(): string {
  return (
    'すみません、ご希望の言語を確認できませんでした。「日本語」または「English」とお答えいただけますか？\n\n' +
    'Sorry, I couldn’t tell which language you would like. Could you reply “English” or “日本語”?'
  );
}

/** The reply named no country we could recognise. */
export function countryNotUnderstoodText(lang: SessionLanguage): string {
  return lang === 'ja'
    ? 'すみません、国名を認識できませんでした。お住まいの国を「日本」「アメリカ」のように、国名で教えていただけますか？'
    : 'Sorry, I couldn’t recognise the country. Could you tell me the name of the country you live in, for example “Japan” or “Canada”?';
}

/** A city name for a zone: in Japanese from the katakana table when it has one ("ニューヨーク"). */
function cityLabel(zone: string, lang: SessionLanguage): string {
  if (lang === 'ja') {
    const place = WORLD_PLACES_JA.find((p) => p.timezone === zone);
    if (place?.names[0]) return place.names[0];
  }
  return zoneCityName(zone);
}

function languageName(code: string, lang: SessionLanguage): string {
  try {
    return new Intl.DisplayNames(lang, { type: 'language', fallback: 'none' }).of(code) ?? code;
  } catch {
    return code;
  }
}
