/**
 * The agent kit: tools, the tool-calling loop, model providers (openai, offline) and the agent service wrapper. Built on @convo/runtime.
 * Modules not listed here are internal: tests reach them as `@convo/agent-kit/internal/<path>`.
 */
export * from './agent-service.js';
export * from './agent-step.js';
export * from './agent.js';
export { estimateTokens, type PromptLimits } from './history.js';
export * from './ask-tool.js';
export * from './llm/offline/protocol.js';
export * from './llm/openai-client.js';
export * from './llm/rate-limited.js';
export * from './llm/types.js';
export * from './tool.js';
export * from './llm/json-schema.js';
