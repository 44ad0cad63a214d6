import { loopStepHandler } from '@convo/shared/runtime/agent-step';
import { runAgentService, runMain } from '@convo/shared/runtime/agent-service';
import { architectAgent } from './agent.js';

runMain(() =>
  runAgentService('architect', ({ config, llm }) =>
    loopStepHandler(architectAgent, { llm, model: config.llm.models.architect, maxTurns: config.agentMaxTurns }),
  ),
);
