import { readFileSync } from 'node:fs';
import { openFaqSearch, parseSynonymGroups } from '@convo/faq';
import { runAgentService, runMain } from '@convo/agent-kit';
import { SEARCH_QUERY_JOB_NAME } from '@convo/runtime';
import { createSearchHandler, runSearchQuery } from './agent.js';
import { searchPolicy } from './offline.js';

runMain(() =>
  runAgentService('search', async ({ config, llm, log, redis, metrics }) => {
    const synonymGroups = config.faq.synonymsFile ? parseSynonymGroups(readFileSync(config.faq.synonymsFile, 'utf8')) : [];
    const { replica, retrieve } = await openFaqSearch({
      redis,
      keyPrefix: config.keyPrefix,
      log,
      refreshMs: config.faq.refreshMs,
      synonymGroups,
      embeddings: config.embeddings,
      registry: metrics.registry,
    });
    const deps = { replica, retrieve, llm, model: config.llm.models.search, config, log };
    return { step: createSearchHandler(deps), jobs: { [SEARCH_QUERY_JOB_NAME]: (data, signal) => runSearchQuery(data, deps, signal) } };
  }, { offline: searchPolicy }),
);
