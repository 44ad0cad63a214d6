import type { GreeterContext } from './context.js';
import { countryName, detectLanguageChoice, findCountry } from '@convo/forms';
import {
  askCountryText,
  askTimezoneText,
  countryNotUnderstoodText,
  greetingText,
  languageNotUnderstoodText,
  languageUnsupportedText,
} from './phrasing.js';
import { ask, call, callsOf, type Policy, type ToolRef } from '@convo/agent-kit';
import { setCountry, setLanguage, setTimezone } from './agent.js';

/** The offline greeter: the seed's getSection order (language → country → time zone), one step per model call. */
export const greeterPolicy: Policy = (req, tail) => {
  const ctx = req.context as GreeterContext;
  const text = ctx.userMessage;
  const done = (tool: ToolRef) => callsOf(tail, tool)[0];
  const lang = ctx.language === 'ja' ? 'ja' : 'en';

  if (!ctx.language) {
    if (!text) return ask(greetingText(null, ctx.formTitle));
    if (done(setLanguage)) return ask(languageNotUnderstoodText());
    const choice = detectLanguageChoice(text);
    if (choice.language) return call(setLanguage, { language: choice.language });
    if (choice.requested) return ask(languageUnsupportedText(choice.requested));
    return ask(languageNotUnderstoodText());
  }
  if (!ctx.country) {
    if (!text) return ask(`${greetingText(lang, ctx.formTitle)}`);
    const found = findCountry(text, { towns: true });
    if (found && !done(setCountry)) return call(setCountry, { country: found.code });
    // The language answer alone ("日本語") rarely names a country: then simply ask for it.
    if (done(setLanguage) && !found) return ask(askCountryText(lang));
    return ask(countryNotUnderstoodText(lang));
  }
  if (!ctx.timezone) {
    const tz = done(setTimezone);
    if (tz && tz.status === 'success' && Array.isArray(tz.result.candidates)) {
      return ask(askTimezoneText(lang, countryName(ctx.country, lang), tz.result.candidates as string[]));
    }
    if (!tz) return call(setTimezone, { timezone: null, hint: text });
  }
  return { text: 'Done.' };
};
