/**
 * The multi-step FAQ dialog product. Built on @convo/agent-kit, @convo/runtime and @convo/text.
 * Modules not listed here are internal: tests reach them as `@convo/faq/internal/<path>`.
 */
export * from './answer.js';
export * from './corpus-replica.js';
export * from './corpus-store.js';
export * from './crew-client.js';
export * from './dialog.js';
export * from './faq-draft.js';
export * from './jobs.js';
export * from './eval/metrics.js';
export * from './hybrid/index.js';
export * from './planner/index.js';
export * from './search/baseline.js';
export * from './search/engine.js';
export * from './search/index.js';
export * from './config.js';
