import { loopDeps, loopStepHandler, runAgentService, runMain } from '@convo/agent-kit';
import { FORM_TURNS } from '@convo/forms';
import { greeterAgent } from './agent.js';
import { greeterPolicy } from './offline.js';

runMain(() =>
  runAgentService('greeter', ({ config, llm }) => loopStepHandler(greeterAgent, loopDeps(config, 'greeter', llm)), {
    ...FORM_TURNS,
    offline: greeterPolicy,
  }),
);
