/**
 * Dependency rules, checked by `npm test` (`npm run deps`). Packages by layer, lowest first:
 * @convo/contract (zod only) → @convo/runtime, and @convo/text beside it → @convo/agent-kit →
 * products (@convo/forms, @convo/faq, @convo/workbench).
 * A package may import the ones below it, never those above or beside it; services and
 * scripts sit on top and talk to each other through queues; shared code never imports a
 * service, a script or a test; outside a package, code imports its entry, not its files
 * (tests may reach internals through `@convo/<package>/internal/…`).
 */
const CONTRACT = '^shared/contract/';
const RUNTIME = '^shared/runtime/';
const TEXT = '^shared/text/';
const KIT = '^shared/agent-kit/';
const FORMS = '^shared/forms/';
const FAQ = '^shared/faq/';
const WORKBENCH = '^shared/workbench/';
const PRODUCTS = `${FORMS}|${FAQ}|${WORKBENCH}`;

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'An import cycle ties modules that should stand apart.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'contract-is-schemas-only',
      severity: 'error',
      comment: 'The contract is zod schemas and nothing else: clients and browsers load it.',
      from: { path: CONTRACT },
      to: { path: '^(shared|services|packages|scripts|test)/|node_modules/', pathNot: [CONTRACT, 'node_modules/zod/'] },
    },
    {
      name: 'runtime-at-the-bottom',
      severity: 'error',
      comment: 'The runtime knows nothing of agents, models, text analysis or products.',
      from: { path: RUNTIME },
      to: { path: `${KIT}|${TEXT}|${PRODUCTS}` },
    },
    {
      name: 'text-stands-alone',
      severity: 'error',
      comment: 'Text analysis is a leaf: it knows no runtime, agent or product.',
      from: { path: TEXT },
      to: { path: `${CONTRACT}|${RUNTIME}|${KIT}|${PRODUCTS}` },
    },
    {
      name: 'kit-below-products',
      severity: 'error',
      comment: 'The agent kit knows nothing of forms or FAQs.',
      from: { path: KIT },
      to: { path: PRODUCTS },
    },
    {
      name: 'products-apart',
      severity: 'error',
      comment: 'One product never imports another.',
      from: { path: '^shared/(forms|faq|workbench)/' },
      to: { path: PRODUCTS, pathNot: '^shared/$1/' },
    },
    {
      name: 'shared-below-apps',
      severity: 'error',
      comment: 'Shared code never reaches into a service, script or test.',
      from: { path: '^shared/' },
      to: { path: '^(services|scripts|test)/' },
    },
    {
      name: 'services-apart',
      severity: 'error',
      comment: 'A service talks to another through queues, not imports.',
      from: { path: '^services/([^/]+)/' },
      to: { path: '^services/', pathNot: '^services/$1/' },
    },
    {
      name: 'packages-through-their-entry',
      severity: 'error',
      comment: 'Outside a package, production code imports its index (`@convo/<package>`), not its files.',
      from: { path: '^(services|scripts|shared/([^/]+))/' },
      to: { path: '^shared/([^/]+)/src/', pathNot: ['^shared/$2/', '^shared/[^/]+/src/index\\.ts$'] },
    },
    {
      name: 'client-on-the-contract-only',
      severity: 'error',
      comment: 'The client package runs in browsers: it may use the contract schemas (zod only), never Redis, BullMQ or a service.',
      from: { path: '^packages/client/' },
      to: { path: '^(shared|services|scripts|test)/', pathNot: CONTRACT },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // scripts/bench/peers/ imports the peers' packages, which only the bench installs (tsconfig.json excludes it too).
    exclude: { path: '(^|/)(node_modules|dist)/|^\\.scratch/|^scripts/bench/peers/' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
  },
};
