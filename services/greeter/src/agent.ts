import { createAgent, createAskTool, createTool, failure, success } from '@convo/agent-kit';
import type { FormDraft } from '@convo/forms';
import type { GreeterContext } from './context.js';
import { type FormSessionView, Language } from '@convo/contract';
import { detectLanguage } from '@convo/text';
import { countryName, FALLBACK_TIMEZONE, findCountry, isValidTimezone, resolveTimezone } from '@convo/forms';
import { z } from 'zod';
import { GREETER_PROMPT } from './prompt.js';

export const SetLanguageInput = z.object({
  language: z.string().describe('ISO 639-1 code of the language the respondent chose, e.g. "ja" or "en".'),
});
export const SetCountryInput = z.object({
  country: z.string().describe('The country the respondent lives in: ISO 3166-1 alpha-2 code or its name.'),
});
export const SetTimezoneInput = z.object({
  timezone: z.union([z.string(), z.null()]).describe('IANA time zone if known, else null to infer it from the country.'),
  hint: z.union([z.string(), z.null()]).describe("The respondent's words about where they live (city, region), or null."),
});

/** set_language: only languages the interview can be held in. */
export const setLanguage = createTool({
  name: 'set_language',
  description: "Set the respondent's language (ja or en).",
  schema: SetLanguageInput,
  execute(args, { draft }) {
    const code = Language.safeParse(args.language.trim().toLowerCase().slice(0, 2));
    if (!code.success) {
      return { result: failure(`Language ${args.language} is not supported. Offer Japanese (ja) or English (en).`) };
    }
    draft.setLanguage(code.data);
    return { result: success(`Language set to ${code.data}.`) };
  },
});

/** set_country: tolerant, accepts a code or any Japanese/English name (docs/seeds/004: tolerant lookups). */
export const setCountry = createTool({
  name: 'set_country',
  description: "Set the respondent's country of residence.",
  schema: SetCountryInput,
  execute(args, { draft }) {
    const raw = args.country.trim();
    const code = /^[A-Za-z]{2}$/.test(raw) ? raw.toUpperCase() : (findCountry(raw)?.code ?? null);
    if (!code || !countryName(code, 'en')) return { result: failure(`Unknown country "${raw}". Ask the respondent again.`) };
    draft.setCountry(code);
    return { result: success(`Country set to ${countryName(code, 'en')} (${code}).`) };
  },
});

/**
 * set_timezone: an explicit zone wins; otherwise the zone is inferred from the
 * country and the respondent's words. A country with several zones gets one
 * question about the city; failing that, the seed's Asia/Tokyo fallback.
 */
export const setTimezone = createTool({
  name: 'set_timezone',
  description: "Set the respondent's time zone, inferring it from the country (and a city hint) when timezone is null.",
  schema: SetTimezoneInput,
  execute(args, { draft }) {
    const bootstrap = draft.state.bootstrap;
    if (args.timezone && isValidTimezone(args.timezone)) {
      draft.setTimezone(args.timezone, 'explicit');
      return { result: success(`Time zone set to ${args.timezone}.`) };
    }
    if (!bootstrap.country) return { result: failure('Set the country first.') };
    const resolved = resolveTimezone(bootstrap.country, args.hint);
    if (resolved.timezone && (resolved.source === 'city' || resolved.source === 'single')) {
      draft.setTimezone(resolved.timezone, resolved.source);
      return { result: success(`Time zone set to ${resolved.timezone}.`) };
    }
    if (resolved.source === 'ambiguous' && !bootstrap.timezoneAsked) {
      draft.markTimezoneAsked();
      return {
        result: success(
          `${countryName(bootstrap.country, 'en')} has several time zones (${resolved.candidates.slice(0, 5).join(', ')}). Ask which city the respondent lives in, then call set_timezone with it as hint.`,
          { candidates: resolved.candidates },
        ),
      };
    }
    draft.setTimezone(FALLBACK_TIMEZONE, 'fallback');
    return { result: success(`Could not tell the time zone; using ${FALLBACK_TIMEZONE}.`) };
  },
});

/** Messages the greeter may send (the greeting included) before it goes on with what it has: every loop with a person ends. */
export const GREETER_MAX_MESSAGES = 4;

/**
 * The greeter's ask, bounded: once it has sent {@link GREETER_MAX_MESSAGES}
 * and language, country and time zone are still not settled, it may not ask
 * again; the interview goes on with the language the respondent writes in, no
 * country, and the seed's Asia/Tokyo fallback time zone.
 */
const boundedAsk = createAskTool((draft: FormDraft) => {
  const bootstrap = draft.state.bootstrap;
  const sent = draft.state.messages.filter((message) => message.role === 'assistant' && message.agent === 'greeter').length;
  if (sent < GREETER_MAX_MESSAGES || (bootstrap.language && bootstrap.country && bootstrap.timezone)) return { fieldId: null };
  const replies = draft.state.messages.filter((message) => message.role === 'user').map((message) => message.text);
  if (!bootstrap.language) draft.setLanguage(detectLanguage(replies.join(' ')));
  if (!bootstrap.country) draft.markCountryUnknown();
  if (!bootstrap.timezone) draft.setTimezone(FALLBACK_TIMEZONE, 'fallback');
  return { refuse: 'The greeting has asked enough: the interview goes on with what is known.' };
});

export const greeterAgent = createAgent<FormDraft>({
  name: 'greeter',
  tools: [boundedAsk, setLanguage, setCountry, setTimezone],
  instructions: () => GREETER_PROMPT,
  // The respondent's message is in the conversation (a user message), not in the state.
  state: (draft) => `Current state:\n${JSON.stringify({ ...greeterContext(draft.state, null), userMessage: undefined })}`,
  context: (draft, turn) => greeterContext(draft.state, turn.message),
  // The seed's GreeterAgent.getRemainingTasks.
  remainingTasks: (draft) => {
    const bootstrap = draft.state.bootstrap;
    const tasks: string[] = [];
    if (!bootstrap.language) tasks.push('Set the user language using set_language');
    if (!bootstrap.country) tasks.push('Set the user country using set_country');
    if (!bootstrap.timezone) tasks.push('Set the timezone using set_timezone');
    return tasks;
  },
  completion: (draft) => {
    const bootstrap = draft.state.bootstrap;
    return bootstrap.language && (bootstrap.country || bootstrap.countryUnknown) && bootstrap.timezone
      ? { type: 'handoff', to: 'architect' }
      : null;
  },
});

function greeterContext(state: FormSessionView, userMessage: string | null): GreeterContext {
  return {
    agent: 'greeter',
    language: state.bootstrap.language,
    country: state.bootstrap.country,
    timezone: state.bootstrap.timezone,
    timezoneAsked: state.bootstrap.timezoneAsked,
    formTitle: state.form?.title || null,
    userMessage,
  };
}
