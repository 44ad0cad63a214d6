import { loopStepHandler } from '@convo/shared/agents/agent-step';
import { runAgentService, runMain } from '@convo/shared/agents/agent-service';
import { FORM_TURNS } from '@convo/shared/domain/turn-intake';
import { greeterAgent } from './agent.js';
import { greeterPolicy } from './offline.js';

runMain(() =>
  runAgentService('greeter', ({ config, llm }) =>
    loopStepHandler(greeterAgent, { llm, model: config.llm.models.greeter, maxTurns: config.agentMaxTurns }),
    { ...FORM_TURNS, offline: greeterPolicy },
  ),
);
