/**
 * Dependency rules, checked by `npm test` (`npm run deps`). Layers, lowest first:
 * runtime (store, queues, runtime, redis, metrics, config, errors, logger, schemas)
 * → agent kit (agents, llm) → products (nlu, compliance, domain: forms; faq).
 * A layer may import the ones below it, never those above; services and scripts
 * sit on top; shared code never imports a service, a script or a test.
 */
const RUNTIME = '^shared/src/(store|queues|runtime|redis|metrics|schemas)/|^shared/src/(config|errors|logger|agents-list)\\.ts$';
const KIT = '^shared/src/(agents|llm)/';
const PRODUCTS = '^shared/src/(nlu|compliance|domain|faq)/';

module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', comment: 'An import cycle ties modules that should stand apart.', from: {}, to: { circular: true } },
    { name: 'runtime-below-kit', severity: 'error', comment: 'The runtime knows nothing of agents or models.', from: { path: RUNTIME }, to: { path: KIT } },
    { name: 'runtime-below-products', severity: 'error', comment: 'The runtime knows nothing of forms or FAQs.', from: { path: RUNTIME }, to: { path: PRODUCTS } },
    { name: 'shared-below-apps', severity: 'error', comment: 'Shared code never reaches into a service, script or test.', from: { path: '^shared/' }, to: { path: '^(services|scripts|test)/' } },
    { name: 'services-apart', severity: 'error', comment: 'A service talks to another through queues, not imports.', from: { path: '^services/([^/]+)/' }, to: { path: '^services/', pathNot: '^services/$1/' } },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist)/|^\\.scratch/' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
  },
};
