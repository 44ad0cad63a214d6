import { systemStepHandler } from '@convo/shared/agents/agent-step';
import { runAgentService, runMain } from '@convo/shared/agents/agent-service';
import { FORM_TURNS } from '@convo/shared/domain/turn-intake';
import { auditorAgent } from './agent.js';
import { auditorPolicy } from './offline.js';

runMain(() =>
  runAgentService('auditor', ({ config, llm }) =>
    systemStepHandler(auditorAgent, { llm, model: config.llm.models.auditor, maxTurns: config.agentMaxTurns }),
    { ...FORM_TURNS, offline: auditorPolicy },
  ),
);
