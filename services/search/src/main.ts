import { readFileSync } from 'node:fs';
import { FAQ, loadFaqConfig, openFaqSearch, parseSynonymGroups, SEARCH_QUERY_JOB } from '@convo/faq';
import { runAgentService, runMain } from '@convo/agent-kit';
import { createSearchHandler, runSearchQuery } from './agent.js';
import { searchPolicy } from './offline.js';

runMain(() =>
  runAgentService(
    'search',
    async ({ config: core, llm, log, redis, metrics }) => {
      const config = { ...core, faq: loadFaqConfig() };
      const synonymGroups = config.faq.synonymsFile ? parseSynonymGroups(readFileSync(config.faq.synonymsFile, 'utf8')) : [];
      const { replica, retrieve } = await openFaqSearch({
        redis,
        keyPrefix: config.keyPrefix,
        log,
        refreshMs: config.faq.refreshMs,
        indexWaitMs: config.faq.indexWaitMs,
        synonymGroups,
        embeddings: config.faq.embeddings,
        registry: metrics.registry,
      });
      const deps = { replica, retrieve, llm, model: config.llm.models.search, config, log };
      return { step: createSearchHandler(deps), jobs: { [SEARCH_QUERY_JOB.name]: (data, signal) => runSearchQuery(data, deps, signal) } };
    },
    { offline: searchPolicy, product: FAQ },
  ),
);
