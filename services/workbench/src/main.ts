import { runAgentService, runMain } from '@convo/agent-kit';
import { SessionStore, storeOptions } from '@convo/runtime';
import { WORKBENCH, WORKBENCH_REQUEST_JOB } from '@convo/workbench';
import { createWorkbenchHandler } from './agent.js';
import { modelGenerator } from './generate.js';
import { workbenchPolicy } from './offline.js';
import { runWorkbenchRequest } from './requests.js';

/** The longest plan (improve: five tools, a fix round and an improvement round, then the answer) needs 12 model calls. */
const WORKBENCH_MIN_TURNS = 16;

runMain(() =>
  runAgentService(
    'workbench',
    ({ config, llm, redis, log }) => {
      const model = config.llm.models.workbench;
      // Offline, the generators make the worksheet; with a model, the model does (checked and repaired).
      const generate = config.llm.provider === 'openai' ? modelGenerator({ llm, model }) : undefined;
      const requestDeps = {
        store: new SessionStore(redis, storeOptions(config)),
        redis,
        keyPrefix: config.keyPrefix,
        ttlSeconds: config.sessionTtlSeconds,
        log,
      };
      return {
        step: createWorkbenchHandler({ llm, model, maxTurns: Math.max(config.agentMaxTurns, WORKBENCH_MIN_TURNS), generate }),
        jobs: { [WORKBENCH_REQUEST_JOB.name]: (data) => runWorkbenchRequest(data, requestDeps) },
      };
    },
    {
      offline: workbenchPolicy,
      product: WORKBENCH,
    },
  ),
);
