import { loopDeps, loopStepHandler, runAgentService, runMain } from '@convo/agent-kit';
import { FORM_TURNS } from '@convo/forms';
import { createInterviewerAgent } from './agent.js';
import { interviewerPolicy } from './offline.js';

runMain(() =>
  runAgentService('interviewer', ({ config, llm }) =>
    loopStepHandler(createInterviewerAgent({ maxSessionTurns: config.maxSessionTurns, maxFollowUps: config.maxFollowUps }), loopDeps(config, 'interviewer', llm)),
    { ...FORM_TURNS, offline: interviewerPolicy },
  ),
);
