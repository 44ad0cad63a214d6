import type { EchoDue, FieldView } from '@convo/forms';
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
  /**
   * What this message must show of the answer just reviewed: the reading to confirm ("Just to check: …?") or the
   * value just stored, written as `shown` (docs/api.md#certainty). A message without it is refused.
   */
  echo: EchoDue | null;
  summary: Array<{ fieldId: string; label: string; value: string | null; status: FieldStatus; needsReview: boolean }>;
};
