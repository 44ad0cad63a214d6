import { APPLICATION_TURNS, needsAudit, loadFormsConfig } from '@convo/forms';
import { loopDeps, runAgentService, runMain, subtaskStepHandler } from '@convo/agent-kit';
import { createCheckerAgent } from './agent.js';
import { checkerPolicy } from './offline.js';

runMain(() => {
  const forms = loadFormsConfig();
  return runAgentService(
    'checker',
    ({ config, llm }) =>
      subtaskStepHandler(
        createCheckerAgent({ maxRephrasings: forms.checkMaxRephrasings }),
        loopDeps(config, 'checker', llm),
        // A skipped last field ends the interview: the auditor runs before the interviewer closes.
        { then: (draft) => (needsAudit(draft.state) ? 'auditor' : null) },
      ),
    { ...APPLICATION_TURNS, offline: checkerPolicy },
  );
});
