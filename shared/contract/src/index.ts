/**
 * The public contract's schemas, and nothing that needs Redis or BullMQ: what
 * a client (packages/client, the chat page) may import. Every module here
 * depends on zod only.
 */
export { AGENT_NAMES, type AgentName as AgentNameValue } from './agents-list.js';
export * from './api.js';
export * from './events.js';
export * from './faq.js';
export * from './form.js';
export * from './run-step.js';
export * from './session.js';
export * from './workbench.js';
export * from './jobs.js';
