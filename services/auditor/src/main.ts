import { systemStepHandler } from '@convo/shared/runtime/agent-step';
import { runAgentService, runMain } from '@convo/shared/runtime/agent-service';
import { auditorAgent } from './agent.js';

runMain(() =>
  runAgentService('auditor', ({ config, llm }) =>
    systemStepHandler(auditorAgent, { llm, model: config.llm.models.auditor, maxTurns: config.agentMaxTurns }),
  ),
);
