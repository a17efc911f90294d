// The fallback executor on a real browser: launches lazily and once, closes what it launched, and starts again
// after the browser is killed, with old tab handles then reported stale.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FallbackExecutor } from '../../electron/core/fallback/fallback-executor.js';
import { ctx, failure } from '../support/engine-suite.js';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { TEST_POLICY } from '../support/test-policy.js';
import { removeDir } from '../support/remove-dir.js';

let server: FixtureServer;
let profileDir: string;

beforeAll(async () => {
  server = await startFixtureServer();
  profileDir = mkdtempSync(join(tmpdir(), 'chrome-mcp-fallback-'));
});
afterAll(async () => {
  await server?.close();
  removeDir(profileDir);
});

/** Processes started on this profile; `main` is the browser itself (its helpers carry --type=). */
function browserProcesses(): { all: number[]; main: number[] } {
  const all: number[] = [];
  const main: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let args: string[];
    try {
      args = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
    } catch {
      continue;
    }
    if (!args.includes(`--user-data-dir=${profileDir}`)) continue;
    all.push(Number(entry));
    if (!args.some((arg) => arg.startsWith('--type='))) main.push(Number(entry));
  }
  return { all, main };
}

async function until(check: () => boolean, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not reached');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('fallback executor', () => {
  it('launches on the first call only, once for concurrent first calls, and closes what it launched', async () => {
    const lines: string[] = [];
    const executor = new FallbackExecutor({
      headless: true,
      profileDir,
      log: (line) => lines.push(line),
      policy: () => TEST_POLICY,
    });
    try {
      expect(browserProcesses().all).toEqual([]);
      expect(await executor.state()).toMatchObject({
        launched: false,
        headless: true,
        profileDir,
        tabs: 0,
        currentTab: null,
      });

      const pages = await Promise.all([1, 2, 3].map(() => executor.run('snapshot', {}, ctx)));
      expect(pages.map((result) => result.text)).toEqual(Array(3).fill('Page "" about:blank'));
      expect(browserProcesses().main).toHaveLength(1);
      expect(lines.filter((line) => line.startsWith('fallback browser up'))).toHaveLength(1);

      await executor.run('navigate', { url: server.url('nav-basic.html') }, ctx);
      const state = await executor.state();
      expect(state).toMatchObject({
        launched: true,
        tabs: 1,
        currentTab: { url: server.url('nav-basic.html'), title: 'Nav basic' },
      });
      expect(state.executable).toBeTruthy();
    } finally {
      await executor.close();
    }
    await until(() => browserProcesses().all.length === 0);
    expect((await executor.state()).launched).toBe(false);
  });

  it('fails calls in flight with BROWSER_CLOSED when the browser dies, then relaunches on the next call', async () => {
    const executor = new FallbackExecutor({
      headless: true,
      profileDir,
      log: () => undefined,
      policy: () => TEST_POLICY,
    });
    try {
      const opened = await executor.run('tab_new', { url: server.url('nav-basic.html') }, ctx);
      const handle = String(opened.data?.['tab']);
      // failure() takes hold of the rejection now, before the kill makes it happen.
      const waiting = failure(executor.run('wait_for', { text: 'never appears', timeout: 20_000 }, ctx));
      const [main] = browserProcesses().main;
      process.kill(main!, 'SIGKILL');

      expect((await waiting).code).toBe('BROWSER_CLOSED');

      const again = await executor.run('navigate', { url: server.url('nav-second.html') }, ctx);
      expect(again.text).toBe(`${server.url('nav-second.html')} "Nav second"`);
      expect(browserProcesses().main).toHaveLength(1);
      expect(browserProcesses().main[0]).not.toBe(main);

      expect((await failure(executor.run('eval', { expression: '1', tab: handle }, ctx))).code).toBe('STALE_TAB');
    } finally {
      await executor.close();
    }
    await until(() => browserProcesses().all.length === 0);
  });
});
