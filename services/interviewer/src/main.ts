import { loopStepHandler } from '@convo/shared/runtime/agent-step';
import { runAgentService, runMain } from '@convo/shared/runtime/agent-service';
import { createInterviewerAgent } from './agent.js';

runMain(() =>
  runAgentService('interviewer', ({ config, llm }) =>
    loopStepHandler(createInterviewerAgent({ maxSessionTurns: config.maxSessionTurns, maxFollowUps: config.maxFollowUps }), { llm, model: config.llm.models.interviewer, maxTurns: config.agentMaxTurns }),
  ),
);
