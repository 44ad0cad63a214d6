import { loopStepHandler, runAgentService, runMain } from '@convo/agent-kit';
import { FORM_TURNS } from '@convo/forms';
import { architectAgent } from './agent.js';
import { architectPolicy } from './offline.js';

runMain(() =>
  runAgentService('architect', ({ config, llm }) =>
    loopStepHandler(architectAgent, { llm, model: config.llm.models.architect, maxTurns: config.agentMaxTurns }),
    { ...FORM_TURNS, offline: architectPolicy },
  ),
);
