import { loopStepHandler } from '@convo/shared/runtime/agent-step';
import { runAgentService, runMain } from '@convo/shared/runtime/agent-service';
import { greeterAgent } from './agent.js';

runMain(() =>
  runAgentService('greeter', ({ config, llm }) =>
    loopStepHandler(greeterAgent, { llm, model: config.llm.models.greeter, maxTurns: config.agentMaxTurns }),
  ),
);
