import { needsAudit } from '@convo/shared/domain/form-flow';
import { subtaskStepHandler } from '@convo/shared/agents/agent-step';
import { runAgentService, runMain } from '@convo/shared/agents/agent-service';
import { FORM_TURNS } from '@convo/shared/domain/turn-intake';
import { createReviewerAgent } from './agent.js';
import { reviewerPolicy } from './offline.js';

runMain(() =>
  runAgentService('reviewer', ({ config, llm }) =>
    subtaskStepHandler(
      createReviewerAgent({ maxFollowUps: config.maxFollowUps }),
      { llm, model: config.llm.models.reviewer, maxTurns: config.agentMaxTurns },
      // Seed 001: after the last field of an application the auditor always runs, before the interviewer closes.
      { then: (draft) => (needsAudit(draft.state) ? 'auditor' : null) },
    ),
    { ...FORM_TURNS, offline: reviewerPolicy },
  ),
);
