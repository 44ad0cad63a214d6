import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * Three projects, run as two layers (docs: README "Tests"):
 * - fast (`npm run test:fast`): `unit` and `smoke`, after lint, types and the dependency rules;
 * - full (`npm run test:full`): `system`, the integration, browser and chaos tests.
 * `npm test` runs both, fast first.
 */
/** What every project shares; not `extends: true`, which would run the global setup once per project. */
const common = {
  testTimeout: 60_000,
  hookTimeout: 180_000,
  // Separate processes, so a test that leaks handles cannot stall another file.
  pool: 'forks',
} as const;

/**
 * @convo/client from its source, as tsconfig.json's `paths` has it for tsc and tsx (see there why).
 * The alias reaches every import vitest resolves; `import.meta.resolve` in a module it runs asks
 * Node, which reads the package's `exports` (dist/): the tests of the gateway's page bundle start
 * the gateway as a process, under tsx, where the mapping holds.
 */
const resolve = {
  alias: [{ find: /^@convo\/client$/, replacement: fileURLToPath(new URL('packages/client/src/index.ts', import.meta.url)) }],
};

export default defineConfig({
  test: {
    // One Redis and the shared-stack broker for the whole run, whatever projects it runs (test/support/global-setup.ts).
    globalSetup: ['test/support/global-setup.ts'],
    projects: [
      {
        resolve,
        test: {
          ...common,
          name: 'unit',
          // A package's own tests sit in its test/ (`npm test -w <package>` runs them alone); test/unit keeps those
          // that need test/support, a service, a script or several products.
          include: ['test/unit/**/*.test.ts', 'shared/*/test/**/*.test.ts', 'services/*/test/**/*.test.ts', 'packages/*/test/**/*.test.ts'],
          // Unit files start no process and change no global state, so they share
          // module instances (the dictionaries load once per worker instead of once
          // per file) and run on every core.
          isolate: false,
          fileParallelism: true,
        },
      },
      {
        resolve,
        test: { ...common, name: 'smoke', include: ['test/smoke/**/*.test.ts'] },
      },
      {
        resolve,
        test: {
          ...common,
          name: 'system',
          include: ['test/integration/**/*.test.ts', 'test/e2e/**/*.test.ts', 'test/bounds/**/*.test.ts'],
          // Two files at a time: most of a system test is waiting (on turns, streams,
          // a browser, a fault's recovery), so a second file uses the idle core.
          // More would not fit two cores and a few GB of service processes per
          // file; the run's start slots keep the two files' starts from piling up.
          fileParallelism: true,
          maxWorkers: Math.min(2, availableParallelism()),
          // A system file's own imports (the products, the client, the support) are the same in every
          // file: loaded once per worker, not once per file (about 2 s each). No system test mocks a
          // module or changes a global that another file reads; what they start, they stop.
          isolate: false,
        },
      },
    ],
  },
});
