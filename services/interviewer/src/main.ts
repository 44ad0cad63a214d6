import { loopDeps, loopStepHandler, runAgentService, runMain } from '@convo/agent-kit';
import { readsAnswers, FORM_TURNS, loadFormsConfig } from '@convo/forms';
import { createInterviewerAgent } from './agent.js';
import { interviewerPolicy } from './offline.js';

runMain(() => {
  const forms = loadFormsConfig();
  return runAgentService(
    'interviewer',
    ({ config, llm }) =>
      loopStepHandler(
        createInterviewerAgent({ maxSessionTurns: forms.maxSessionTurns, maxFollowUps: forms.maxFollowUps }),
        loopDeps(config, 'interviewer', llm),
      ),
    { ...FORM_TURNS, ...readsAnswers, offline: interviewerPolicy },
  );
});
