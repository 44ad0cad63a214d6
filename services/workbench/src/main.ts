import { runAgentService, runMain } from '@convo/agent-kit';
import { createWorkbenchHandler } from './agent.js';
import { workbenchPolicy } from './offline.js';

/** The longest plan (improve: five tools, a fix round and an improvement round, then the answer) needs 12 model calls. */
const WORKBENCH_MIN_TURNS = 16;

runMain(() =>
  runAgentService('workbench', ({ config, llm }) => createWorkbenchHandler({ llm, model: config.llm.models.workbench, maxTurns: Math.max(config.agentMaxTurns, WORKBENCH_MIN_TURNS) }), {
    offline: workbenchPolicy,
  }),
);
