import type { FieldStatus } from '../schemas/session.js';
import type { ReviewResult } from '../schemas/form.js';

/**
 * The structured facts each agent's prompt is rendered from. Remote models
 * read them inside the system prompt; the offline model reads them as data.
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

export type ArchitectContext = {
  agent: 'architect';
  language: string | null;
  fields: Array<{ fieldId: string; label: string; intent: string | null; required: boolean; sortOrder: number }>;
};

export type FactView = { factKey: string; fact: string; doneCriteria: string; questioningHints: string | null };

export type FieldView = {
  fieldId: string;
  label: string;
  intent: string | null;
  required: boolean;
  facts: FactView[];
  status: FieldStatus;
  followUps: number;
  lastReview: ReviewResult | null;
  /** Failed quick-checks of questions for this field so far (application). */
  failedChecks: number;
};

export type InterviewerContext = {
  agent: 'interviewer';
  kind: 'form' | 'application' | 'faq';
  language: 'ja' | 'en';
  formTitle: string | null;
  sessionStatus: string;
  current: FieldView | null;
  /** The respondent answered the current field in this turn and it has not been reviewed since. */
  answerPending: boolean;
  /** No interviewer question has been asked yet in this session. */
  firstQuestion: boolean;
  /** The current field is a required one that was reopened after running out of follow-ups. */
  reopened: boolean;
  bootstrap: { country: string | null; timezone: string | null };
  /** Failed quick-checks of the closing message (application). */
  closingFailedChecks: number;
  summary: Array<{ fieldId: string; label: string; value: string | null; status: FieldStatus }>;
};

export type ReviewerContext = {
  agent: 'reviewer';
  language: 'ja' | 'en';
  country: string | null;
  field: { fieldId: string; id: string; label: string; intent: string | null; required: boolean; sortOrder: number };
  facts: Array<{ id: string; formFieldId: string; factKey: string; fact: string; doneCriteria: string; questioningHints: string | null }>;
  answers: string[];
  note: string | null;
};

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

export type AuditorContext = {
  agent: 'auditor';
  language: 'ja' | 'en';
  messages: Array<{ role: 'user' | 'assistant'; text: string; fieldId: string | null }>;
  fields: Array<{ fieldId: string; label: string; intent: string | null; required: boolean; status: string; value: string | null }>;
  facts: Array<{ formFieldId: string; factKey: string; fact: string }>;
  prohibitedTopics: string[];
  /** Prohibited topics the applicant volunteered; their text was masked before it was stored. */
  volunteered: Array<{ messageId: string; topics: string[] }>;
};
