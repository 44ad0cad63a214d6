import { CorpusReplica } from '@convo/shared/faq/corpus-replica';
import { CorpusStore } from '@convo/shared/faq/corpus-store';
import { runAgentService, runMain } from '@convo/shared/runtime/agent-service';
import { SEARCH_QUERY_JOB_NAME } from '@convo/shared/queues/catalog';
import { createSearchHandler, runSearchQuery } from './agent.js';

runMain(() =>
  runAgentService('search', async ({ config, llm, log, redis }) => {
    const replica = await CorpusReplica.open(new CorpusStore(redis, config.keyPrefix), log, { refreshMs: config.faq.refreshMs });
    const deps = { replica, llm, model: config.llm.models.search, config, log };
    return { step: createSearchHandler(deps), jobs: { [SEARCH_QUERY_JOB_NAME]: (data, signal) => runSearchQuery(data, deps, signal) } };
  }),
);
