// Launches the real fallback browser (headless Chromium via playwright-core) on a fresh profile for engine tests.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchBrowser, type LaunchedBrowser } from '../../electron/core/fallback/launch.js';
import { CdpTabHost } from '../../electron/core/fallback/cdp-tab-host.js';
import { PageContext } from '../../shared/engine/page-context.js';

export interface TestBrowser {
  browser: LaunchedBrowser;
  host: CdpTabHost;
  /** Opens a background tab at url, waits for load, and returns its engine context. */
  open(url: string): Promise<{ tabId: string; page: PageContext }>;
  close(): Promise<void>;
}

export async function startTestBrowser(): Promise<TestBrowser> {
  const profileDir = mkdtempSync(join(tmpdir(), 'chrome-mcp-test-'));
  const browser = await launchBrowser({ headless: true, profileDir, log: () => undefined });
  const host = new CdpTabHost(browser.connection);
  const pages: PageContext[] = [];
  return {
    browser,
    host,
    async open(url) {
      const tab = await host.create('about:blank', { focus: false });
      const page = new PageContext(await host.cdp(tab.id));
      pages.push(page);
      await page.frames.init();
      const loaded = new Promise<void>((resolve) => {
        const off = page.cdp.on((event) => {
          if (event.method === 'Page.loadEventFired' && !event.sessionId) {
            off();
            resolve();
          }
        });
      });
      await page.cdp.send('Page.navigate', { url });
      await loaded;
      return { tabId: tab.id, page };
    },
    async close() {
      for (const page of pages) page.dispose();
      await browser.close();
      rmSync(profileDir, { recursive: true, force: true });
    },
  };
}
