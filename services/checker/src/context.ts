/**
 * The structured facts this agent's prompt is rendered from. Remote models
 * read them inside the system prompt; the offline policy reads them as data.
 */
export type CheckerContext = {
  agent: 'checker';
  language: 'ja' | 'en';
  question: string;
  /** null for the closing message, which belongs to no field. */
  field: { fieldId: string; label: string; intent: string | null; required: boolean } | null;
  facts: Array<{ factKey: string; fact: string; doneCriteria: string; questioningHints: string | null }>;
  answered: Array<{ fieldId: string; label: string; facts: string[] }>;
  prohibitedTopics: string[];
};
