import { loopStepHandler } from '@convo/shared/agents/agent-step';
import { runAgentService, runMain } from '@convo/shared/agents/agent-service';
import { FORM_TURNS } from '@convo/shared/domain/turn-intake';
import { createInterviewerAgent } from './agent.js';
import { interviewerPolicy } from './offline.js';

runMain(() =>
  runAgentService('interviewer', ({ config, llm }) =>
    loopStepHandler(createInterviewerAgent({ maxSessionTurns: config.maxSessionTurns, maxFollowUps: config.maxFollowUps }), { llm, model: config.llm.models.interviewer, maxTurns: config.agentMaxTurns }),
    { ...FORM_TURNS, offline: interviewerPolicy },
  ),
);
