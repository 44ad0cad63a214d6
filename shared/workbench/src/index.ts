/**
 * The problem workbench product (docs/seeds/003): worksheet generation, the
 * consistency checker, auto-fixer, quality scorer, suggestions and editor the
 * problem-management agent uses, and the worksheet PDF. Built on
 * @convo/runtime and @convo/text. Modules not listed here are internal:
 * tests reach them as `@convo/workbench/internal/<path>`.
 */
export * from './check.js';
export * from './fix.js';
export * from './quality.js';
export * from './subjects.js';
export * from './numbers.js';
export * from './solve.js';
export * from './pdf.js';
export * from './edit.js';
export * from './suggest.js';
export * from './worksheet.js';
export * from './workbench-draft.js';
export * from './jobs.js';
export * from './config.js';
export { MATH_TOPICS, mathTopicOf, mathTopics, type MathTopic } from './generate/math.js';
export * from './remake.js';
export { recordKey } from './generate/random.js';
