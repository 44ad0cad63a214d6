import type { GreeterContext } from './context.js';
import { findCountry, countryName } from '@convo/shared/nlu/country';
import { detectLanguageChoice } from '@convo/shared/nlu/language';
import {
  askCountryText,
  askTimezoneText,
  countryNotUnderstoodText,
  greetingText,
  languageNotUnderstoodText,
  languageUnsupportedText,
} from '@convo/shared/nlu/phrasing';
import { ask, call, type Policy } from '@convo/shared/llm/offline/protocol';

/** The offline greeter: the seed's getSection order (language → country → time zone), one step per model call. */
export const greeterPolicy: Policy = (req, tail) => {
  const ctx = req.context as GreeterContext;
  const text = ctx.userMessage;
  const done = (name: string) => tail.find((t) => t.name === name);
  const lang = ctx.language === 'ja' ? 'ja' : 'en';

  if (!ctx.language) {
    if (!text) return ask(greetingText(null, ctx.formTitle));
    if (done('set_language')) return ask(languageNotUnderstoodText());
    const choice = detectLanguageChoice(text);
    if (choice.language) return call('set_language', { language: choice.language });
    if (choice.requested) return ask(languageUnsupportedText(choice.requested));
    return ask(languageNotUnderstoodText());
  }
  if (!ctx.country) {
    if (!text) return ask(`${greetingText(lang, ctx.formTitle)}`);
    const found = findCountry(text, { towns: true });
    if (found && !done('set_country')) return call('set_country', { country: found.code });
    // The language answer alone ("日本語") rarely names a country: then simply ask for it.
    if (done('set_language') && !found) return ask(askCountryText(lang));
    return ask(countryNotUnderstoodText(lang));
  }
  if (!ctx.timezone) {
    const tz = done('set_timezone');
    if (tz && tz.status === 'success' && Array.isArray(tz.result.candidates)) {
      return ask(askTimezoneText(lang, countryName(ctx.country, lang), tz.result.candidates as string[]));
    }
    if (!tz) return call('set_timezone', { timezone: null, hint: text });
  }
  return { text: 'Done.' };
};
