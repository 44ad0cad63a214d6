import { CorpusReplica, CorpusStore, FAQ, loadFaqConfig } from '@convo/faq';
import { loadAnalyzer } from '@convo/text';
import { runAgentService, runMain } from '@convo/agent-kit';
import { createPlannerHandler } from './agent.js';
import { plannerPolicy } from './offline.js';

runMain(() =>
  runAgentService(
    'planner',
    async ({ config: core, llm, log, redis }) => {
      const config = { ...core, faq: loadFaqConfig() };
      const [analyzer, replica] = await Promise.all([
        loadAnalyzer(),
        CorpusReplica.open(new CorpusStore(redis, config.keyPrefix), log, {
          refreshMs: config.faq.refreshMs,
          waitMs: config.faq.indexWaitMs,
        }),
      ]);
      return createPlannerHandler({ replica, analyzer, llm, model: config.llm.models.planner, config });
    },
    { offline: plannerPolicy, product: FAQ },
  ),
);
