import type { FieldView } from '@convo/forms';
import type { FieldStatus } from '@convo/contract';

/**
 * The structured facts this agent's prompt is rendered from. Remote models
 * read them inside the system prompt; the offline policy reads them as data.
 */
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
