/**
 * The structured facts this agent's prompt is rendered from. Remote models
 * read them inside the system prompt; the offline policy reads them as data.
 */
export type AuditorContext = {
  agent: 'auditor';
  language: 'ja' | 'en';
  messages: Array<{ role: 'user' | 'assistant'; text: string; fieldId: string | null }>;
  fields: Array<{
    fieldId: string;
    label: string;
    intent: string | null;
    required: boolean;
    status: string;
    value: string | null;
    needsReview?: boolean;
  }>;
  facts: Array<{ formFieldId: string; factKey: string; fact: string }>;
  prohibitedTopics: string[];
  /** Prohibited topics the applicant volunteered; their text was masked before it was stored. */
  volunteered: Array<{ messageId: string; topics: string[] }>;
};
