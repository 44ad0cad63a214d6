/**
 * The structured facts this agent's prompt is rendered from. Remote models
 * read them inside the system prompt; the offline policy reads them as data.
 */
export type GreeterContext = {
  agent: 'greeter';
  language: string | null;
  country: string | null;
  timezone: string | null;
  timezoneAsked: boolean;
  formTitle: string | null;
  /** The respondent's message of this turn (null on the bootstrap run). */
  userMessage: string | null;
};
