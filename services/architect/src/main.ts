import { loopStepHandler } from '@convo/shared/agents/agent-step';
import { runAgentService, runMain } from '@convo/shared/agents/agent-service';
import { FORM_TURNS } from '@convo/shared/domain/turn-intake';
import { architectAgent } from './agent.js';
import { architectPolicy } from './offline.js';

runMain(() =>
  runAgentService('architect', ({ config, llm }) =>
    loopStepHandler(architectAgent, { llm, model: config.llm.models.architect, maxTurns: config.agentMaxTurns }),
    { ...FORM_TURNS, offline: architectPolicy },
  ),
);
