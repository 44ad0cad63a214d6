/** Every agent of the platform; each one is its own worker service on its own queue. */
export const AGENT_NAMES = [
  'greeter',
  'architect',
  'interviewer',
  'reviewer',
  'checker',
  'auditor',
  'planner',
  'search',
  'workbench',
] as const;
export type AgentName = (typeof AGENT_NAMES)[number];
