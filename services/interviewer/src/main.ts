import { loopStepHandler } from '@convo/shared/runtime/agent-step';
import { runAgentService, runMain } from '@convo/shared/runtime/agent-service';
import { interviewerAgent } from './agent.js';

runMain(() =>
  runAgentService('interviewer', ({ config, llm }) =>
    loopStepHandler(interviewerAgent, { llm, model: config.llm.models.interviewer, maxTurns: config.agentMaxTurns }),
  ),
);
