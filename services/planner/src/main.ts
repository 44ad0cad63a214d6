import { CorpusReplica } from '@convo/shared/faq/corpus-replica';
import { CorpusStore } from '@convo/shared/faq/corpus-store';
import { loadAnalyzer } from '@convo/shared/faq/text/analyzer';
import { runAgentService, runMain } from '@convo/shared/agents/agent-service';
import { createPlannerHandler } from './agent.js';
import { plannerPolicy } from './offline.js';

runMain(() =>
  runAgentService('planner', async ({ config, llm, log, redis }) => {
    const [analyzer, replica] = await Promise.all([loadAnalyzer(), CorpusReplica.open(new CorpusStore(redis, config.keyPrefix), log, { refreshMs: config.faq.refreshMs })]);
    return createPlannerHandler({ replica, analyzer, llm, model: config.llm.models.planner, config });
  }, { offline: plannerPolicy }),
);
