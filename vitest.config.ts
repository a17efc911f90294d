// Test runner config: engine and e2e tests drive real Chromium, so they get room and run files in parallel on 2 cores.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
    // Builds dist/ when stale: the stdio tests spawn the real `chrome-mcp` binary.
    globalSetup: ['./test/support/global-setup.ts'],
    reporters: ['default', './test/support/summary-reporter.ts'],
  },
});
