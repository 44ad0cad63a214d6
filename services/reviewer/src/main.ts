import { subtaskStepHandler } from '@convo/shared/runtime/agent-step';
import { runAgentService, runMain } from '@convo/shared/runtime/agent-service';
import { createReviewerAgent } from './agent.js';

runMain(() =>
  runAgentService('reviewer', ({ config, llm }) =>
    subtaskStepHandler(createReviewerAgent({ maxFollowUps: config.maxFollowUps }), {
      llm,
      model: config.llm.models.reviewer,
      maxTurns: config.agentMaxTurns,
    }),
  ),
);
