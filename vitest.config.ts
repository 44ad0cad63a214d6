import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    // Integration tests start the gateway and several agents as real processes.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Separate processes, so a test that leaks handles cannot stall another file.
    pool: 'forks',
    // Two cores, and an integration file spawns about six Node processes:
    // running files one at a time keeps timings stable.
    fileParallelism: false,
  },
});
