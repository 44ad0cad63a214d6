import { loopDeps, runAgentService, runMain, systemStepHandler } from '@convo/agent-kit';
import { readsAnswers, APPLICATION_TURNS } from '@convo/forms';
import { auditorAgent } from './agent.js';
import { auditorPolicy } from './offline.js';

runMain(() =>
  runAgentService('auditor', ({ config, llm }) => systemStepHandler(auditorAgent, loopDeps(config, 'auditor', llm)), {
    ...APPLICATION_TURNS,
    ...readsAnswers,
    offline: auditorPolicy,
  }),
);
