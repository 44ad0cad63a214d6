import { enqueueRequest, type AgentQueues, type RequestJobKind } from '@convo/runtime';
import { WorkbenchRequestJob } from '@convo/contract';

/**
 * Job `request` on the workbench agent's queue: analysis a request waits for (WorkbenchRequest); its return
 * value is a WorkbenchRequestResult. Analysis is deterministic: a failed one would fail again, so one attempt.
 */
export const WORKBENCH_REQUEST_JOB: RequestJobKind<WorkbenchRequestJob> = {
  agent: 'workbench',
  name: 'request',
  schema: WorkbenchRequestJob,
  options: { attempts: 1 },
};

export function enqueueWorkbenchRequest(queues: AgentQueues, payload: WorkbenchRequestJob): ReturnType<typeof enqueueRequest> {
  return enqueueRequest(queues, WORKBENCH_REQUEST_JOB, payload);
}
