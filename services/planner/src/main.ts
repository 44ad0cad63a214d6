import { UnrecoverableError } from 'bullmq';
import { runAgentService, runMain } from '@convo/shared/runtime/agent-service';

// The planner agent is filled in by issue #4; until then its worker runs and refuses steps loudly.
runMain(() =>
  runAgentService('planner', () => async () => {
    throw new UnrecoverableError('the planner agent is not implemented yet (issue #4)');
  }),
);
