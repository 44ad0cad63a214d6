import type { FactType, FactView } from '@convo/forms';

/**
 * The structured facts this agent's prompt is rendered from. Remote models
 * read them inside the system prompt; the offline policy reads them as data.
 */
export type ReviewerContext = {
  agent: 'reviewer';
  language: 'ja' | 'en';
  country: string | null;
  timezone: string | null;
  /** The moment relative dates ("tomorrow", "next Friday") are read from, ISO 8601 (the session's reference date, or now). */
  now: string;
  field: { fieldId: string; id: string; label: string; intent: string | null; required: boolean; sortOrder: number };
  facts: Array<FactView & { id: string; formFieldId: string }>;
  /** The respondent's answers to this field, oldest first (after a confirmation question, only the reply to it). */
  answers: string[];
  /** The respondent's messages about other fields, oldest first (they may already contain this field's fact). */
  earlierAnswers: string[];
  /** The seed's sub-session summary: the conversation so far, one line per message, the latest last. */
  summary: string[];
  /** Facts collected so far: label → value of every resolved field. */
  collected: Record<string, string>;
  /** The form's other fields and the kinds of value they ask for: an answer may be about one of them instead. */
  otherFields: Array<{ fieldId: string; label: string; kinds: FactType[] }>;
  /** The latest answer corrects this field after it was resolved. */
  correction: boolean;
  /** The value a correction would replace (null otherwise). */
  currentValue: string | null;
  /** The reading the respondent was just asked to confirm ("Just to check: …?"), or null. */
  proposal: string | null;
  note: string | null;
};
