import { UnrecoverableError } from 'bullmq';
import { runAgentService, runMain } from '@convo/shared/runtime/agent-service';

// The checker agent is filled in by issue #3; until then its worker runs and refuses steps loudly.
runMain(() =>
  runAgentService('checker', () => async () => {
    throw new UnrecoverableError('the checker agent is not implemented yet (issue #3)');
  }),
);
