/**
 * The form and job-application interview product. Built on @convo/runtime and @convo/text.
 * Modules not listed here are internal: tests reach them as `@convo/forms/internal/<path>`.
 */
export * from './compliance/audit.js';
export * from './compliance/quick-check.js';
export * from './compliance/topics.js';
export * from './domain/checker-output.js';
export * from './domain/compliance-flow.js';
export * from './domain/field-views.js';
export * from './domain/form-draft.js';
export * from './domain/form-flow.js';
export * from './domain/reviewer-output.js';
export * from './domain/sub-agent-results.js';
export * from './domain/subtask.js';
export * from './domain/turn-intake.js';
export * from './domain/value-reading.js';
export * from './nlu/answer-intent.js';
export * from './nlu/certainty.js';
export * from './nlu/content.js';
export * from './nlu/country.js';
export * from './nlu/fact-type.js';
export { endsInPlainVerb } from './nlu/japanese.js';
export * from './nlu/language.js';
export * from './nlu/review-rules.js';
export * from './nlu/timezone.js';
export * from './nlu/places-ja.js';
export * from './nlu/text.js';
export * from './nlu/zones.js';
export * from './nlu/review-messages.js';
export * from './nlu/transliterate.js';
export * from './config.js';
