/**
 * Everything the offline agents say, in Japanese (です/ます) and English: the
 * greeter's messages (phrasing-bootstrap.ts) and the interviewer's
 * (phrasing-interview.ts), gathered in one import.
 */
export {
  askCountryText,
  askTimezoneText,
  bootstrapDoneText,
  countryNotUnderstoodText,
  greetingText,
  languageNotUnderstoodText,
  languageUnsupportedText,
} from './phrasing-bootstrap.js';
export {
  alreadyCompleteText,
  completionText,
  followUpText,
  questionText,
  confirmCandidateText,
  correctionText,
  isForeign,
  keptForReviewText,
  lastChanceText,
  toRespondent,
  type QuestionFact,
  type QuestionField,
} from './phrasing-interview.js';
