import { FORM_TURNS, needsAudit } from '@convo/forms';
import { runAgentService, runMain, subtaskStepHandler } from '@convo/agent-kit';
import { createCheckerAgent } from './agent.js';
import { checkerPolicy } from './offline.js';

runMain(() =>
  runAgentService('checker', ({ config, llm }) =>
    subtaskStepHandler(
      createCheckerAgent({ maxRephrasings: config.checkMaxRephrasings }),
      { llm, model: config.llm.models.checker, maxTurns: config.agentMaxTurns },
      // A skipped last field ends the interview: the auditor runs before the interviewer closes.
      { then: (draft) => (needsAudit(draft.state) ? 'auditor' : null) },
    ),
    { ...FORM_TURNS, offline: checkerPolicy },
  ),
);
