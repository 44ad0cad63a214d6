/**
 * The runtime: session store and Lua commands, queues, the step runner, configuration, errors, logging, metrics, and the schemas of jobs, events, sessions and the API.
 * Modules not listed here are internal: tests reach them as `@convo/runtime/internal/<path>`.
 */
export * from './config.js';
export * from './errors.js';
export * from './logger.js';
export * from './metrics/metrics-store.js';
export * from './metrics/runtime-metrics.js';
export * from './queues/catalog.js';
export * from './queues/versions.js';
export * from './redis/connection.js';
export * from './redis/script.js';
export * from './runner/commit.js';
export * from './runner/draft.js';
export * from './runner/health-server.js';
export * from './runner/live.js';
export * from './runner/product.js';
export * from './runner/step-handler.js';
export * from './runner/step-runner.js';
export * from './runner/sweeper.js';
export * from './store/session-store.js';
export { sessionKeys, type SessionKeys } from './store/keys.js';
export * from './tracing/env.js';
export * from './tracing/propagation.js';
export * from './tracing/setup.js';
export * from './tracing/spans.js';
