import { loopStepHandler, runAgentService, runMain } from '@convo/agent-kit';
import { FORM_TURNS } from '@convo/forms';
import { greeterAgent } from './agent.js';
import { greeterPolicy } from './offline.js';

runMain(() =>
  runAgentService('greeter', ({ config, llm }) =>
    loopStepHandler(greeterAgent, { llm, model: config.llm.models.greeter, maxTurns: config.agentMaxTurns }),
    { ...FORM_TURNS, offline: greeterPolicy },
  ),
);
