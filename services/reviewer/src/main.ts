import { readsAnswers, FORM_TURNS, needsAudit, loadFormsConfig } from '@convo/forms';
import { loopDeps, runAgentService, runMain, subtaskStepHandler } from '@convo/agent-kit';
import { createReviewerAgent } from './agent.js';
import { reviewerPolicy } from './offline.js';

runMain(() => {
  const forms = loadFormsConfig();
  return runAgentService(
    'reviewer',
    ({ config, llm }) =>
      subtaskStepHandler(
        createReviewerAgent({ maxFollowUps: forms.maxFollowUps }),
        loopDeps(config, 'reviewer', llm),
        // Seed 001: after the last field of an application the auditor always runs, before the interviewer closes.
        { then: (draft) => (needsAudit(draft.state) ? 'auditor' : null) },
      ),
    { ...FORM_TURNS, ...readsAnswers, offline: reviewerPolicy },
  );
});
