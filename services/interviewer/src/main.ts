import { loopDeps, loopStepHandler, runAgentService, runMain } from '@convo/agent-kit';
import { FORM_TURNS, loadFormsConfig } from '@convo/forms';
import { createInterviewerAgent } from './agent.js';
import { interviewerPolicy } from './offline.js';

runMain(() => {
  const FORMS_CONFIG = loadFormsConfig();
  return runAgentService(
    'interviewer',
    ({ config, llm }) =>
      loopStepHandler(
        createInterviewerAgent({ maxSessionTurns: FORMS_CONFIG.maxSessionTurns, maxFollowUps: FORMS_CONFIG.maxFollowUps }),
        loopDeps(config, 'interviewer', llm),
      ),
    { ...FORM_TURNS, offline: interviewerPolicy },
  );
});
