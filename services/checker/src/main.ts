import { needsAudit } from '@convo/shared/domain/form-flow';
import { subtaskStepHandler } from '@convo/shared/agents/agent-step';
import { runAgentService, runMain } from '@convo/shared/agents/agent-service';
import { FORM_TURNS } from '@convo/shared/domain/turn-intake';
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
