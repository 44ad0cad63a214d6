import { loopStepHandler, runAgentService, runMain } from '@convo/agent-kit';
import { FORM_TURNS } from '@convo/forms';
import { createInterviewerAgent } from './agent.js';
import { interviewerPolicy } from './offline.js';

runMain(() =>
  runAgentService('interviewer', ({ config, llm }) =>
    loopStepHandler(createInterviewerAgent({ maxSessionTurns: config.maxSessionTurns, maxFollowUps: config.maxFollowUps }), { llm, model: config.llm.models.interviewer, maxTurns: config.agentMaxTurns }),
    { ...FORM_TURNS, offline: interviewerPolicy },
  ),
);
