// Test runner config: engine and e2e tests drive real Chromium, so they get room and run files in parallel on 2 cores.
import { defineConfig } from 'vitest/config';

/**
 * Folders of plain in-process tests (no vi.mock, no browser, no timing ratios): they share one module graph per worker,
 * which spares each file a fresh process and its imports (measured: ~1 s a file on a loaded 2-core box).
 */
const SHARED = ['policy', 'control', 'core', 'mcp', 'bridge', 'clients'].map((dir) => `test/${dir}/**/*.test.ts`);

// What each project runs with. Not inherited from the root (extends): that would run the global setup once per project.
const PROJECT = { testTimeout: 30_000, hookTimeout: 60_000, pool: 'forks' } as const;

export default defineConfig({
  test: {
    maxWorkers: 2,
    // Builds dist/ when stale: the stdio tests spawn the real `chrome-mcp` binary. Builds the extension the test
    // browsers load, once.
    globalSetup: ['./test/support/global-setup.ts', './test/support/extension-build.ts'],
    reporters: ['default', './test/support/summary-reporter.ts'],
    projects: [
      { test: { ...PROJECT, name: 'shared', include: SHARED, isolate: false } },
      { test: { ...PROJECT, name: 'isolated', include: ['test/**/*.test.ts'], exclude: SHARED } },
    ],
  },
});
