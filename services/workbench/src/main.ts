import { runAgentService, runMain } from '@convo/agent-kit';
import { createWorkbenchHandler } from './agent.js';
import { workbenchPolicy } from './offline.js';

runMain(() =>
  runAgentService('workbench', ({ config, llm }) => createWorkbenchHandler({ llm, model: config.llm.models.workbench, maxTurns: config.agentMaxTurns }), {
    offline: workbenchPolicy,
  }),
);
