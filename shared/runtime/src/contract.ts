/**
 * The public contract's schemas, and nothing that needs Redis or BullMQ: what
 * a client (packages/client, the chat page) may import. Every module here
 * depends on zod only.
 */
export { AGENT_NAMES, type AgentName as AgentNameValue } from './agents-list.js';
export * from './schemas/api.js';
export * from './schemas/events.js';
export * from './schemas/faq.js';
export * from './schemas/form.js';
export * from './schemas/run-step.js';
export * from './schemas/session.js';
export * from './schemas/workbench.js';
