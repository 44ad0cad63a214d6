import { loopDeps, loopStepHandler, runAgentService, runMain } from '@convo/agent-kit';
import { FORM_TURNS } from '@convo/forms';
import { architectAgent } from './agent.js';
import { architectPolicy } from './offline.js';

runMain(() =>
  runAgentService('architect', ({ config, llm }) => loopStepHandler(architectAgent, loopDeps(config, 'architect', llm)), {
    ...FORM_TURNS,
    offline: architectPolicy,
  }),
);
