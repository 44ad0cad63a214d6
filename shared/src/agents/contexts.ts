import type { FactType } from '../nlu/fact-type.js';
import type { FieldStatus } from '../schemas/session.js';
import type { AnswerType, ReviewResult } from '../schemas/form.js';

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

/** A fact as agents see it, with the kind of value it asks for (stated by the form or inferred) and a choice's options. */
export type FactView = {
  factKey: string;
  fact: string;
  doneCriteria: string;
  questioningHints: string | null;
  /** The form's explicit answerType, when it states one. */
  answerType?: AnswerType;
  kind: AnswerType;
  options: string[];
  /** The options were named in prose and may describe what counts rather than what to pick. */
  optionsDescribe?: boolean;
};

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
  /** The field's question has been shown to the respondent. */
  asked: boolean;
  /** The next failed verdict ends the field: say what is still needed, offer the choices or an example, and a way out. */
  finalAttempt: boolean;
  /** A value for this field the respondent already gave while answering another one: confirm it instead of asking. */
  candidate: string | null;
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
  /** The respondent's latest message corrects this earlier, resolved field: review it for that field first. */
  correction: { fieldId: string; label: string } | null;
  bootstrap: { country: string | null; timezone: string | null };
  /** Failed quick-checks of the closing message (application). */
  closingFailedChecks: number;
  summary: Array<{ fieldId: string; label: string; value: string | null; status: FieldStatus; needsReview: boolean }>;
};

export type ReviewerContext = {
  agent: 'reviewer';
  language: 'ja' | 'en';
  country: string | null;
  timezone: string | null;
  field: { fieldId: string; id: string; label: string; intent: string | null; required: boolean; sortOrder: number };
  facts: Array<FactView & { id: string; formFieldId: string }>;
  /** The respondent's answers to this field, oldest first. */
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
  fields: Array<{ fieldId: string; label: string; intent: string | null; required: boolean; status: string; value: string | null; needsReview?: boolean }>;
  facts: Array<{ formFieldId: string; factKey: string; fact: string }>;
  prohibitedTopics: string[];
  /** Prohibited topics the applicant volunteered; their text was masked before it was stored. */
  volunteered: Array<{ messageId: string; topics: string[] }>;
};
