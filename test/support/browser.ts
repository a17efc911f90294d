// Launches the real fallback browser (headless Chromium, ours the only CDP connection) on a fresh profile for engine tests.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchBrowser, type LaunchedBrowser } from '../../electron/core/fallback/launch.js';
import { CdpTabHost } from '../../electron/core/fallback/cdp-tab-host.js';
import type { CdpConnection } from '../../electron/core/fallback/cdp-connection.js';
import type { Cdp } from '../../shared/engine/cdp.js';
import { PageContext } from '../../shared/engine/page-context.js';
import type { PolicyGate } from '../../shared/engine/policy-gate.js';
import { TEST_GATE } from './test-policy.js';
import { removeDir } from './remove-dir.js';

export interface TestBrowser {
  browser: LaunchedBrowser;
  host: CdpTabHost;
  /** Opens a background tab at url, waits for load, and returns its engine context; `wrap` sees every CDP command. */
  open(url: string, wrap?: (cdp: Cdp) => Cdp): Promise<{ tabId: string; page: PageContext }>;
  close(): Promise<void>;
}

/**
 * `gate`: the policy the host keeps the browser to (downloads); the test policy unless a test needs its own. `seen`:
 * what the host hears of the browser, for a test that reorders it (pauses-first.ts).
 */
export async function startTestBrowser(
  gate: PolicyGate = TEST_GATE,
  seen: (connection: CdpConnection) => CdpConnection = (connection) => connection,
): Promise<TestBrowser> {
  const profileDir = mkdtempSync(join(tmpdir(), 'chrome-mcp-test-'));
  const browser = await launchBrowser({ headless: true, profileDir, log: () => undefined });
  const host = new CdpTabHost(seen(browser.connection), gate, { windowPerTab: true });
  const pages: PageContext[] = [];
  return {
    browser,
    host,
    open: (url, wrap) => openTab(host, url, pages, wrap),
    async close() {
      for (const page of pages) page.dispose();
      // Killed, not closed: the profile is deleted next, so Chromium's save on close (1-2 s a file) buys nothing.
      await browser.kill();
      removeDir(profileDir);
    },
  };
}

/**
 * Opens a background tab at url and waits for load. The page joins `pages` before anything can fail, so the
 * caller's close() disposes it either way; `wrap` sees every CDP command the page's engine sends.
 */
export async function openTab(
  host: CdpTabHost,
  url: string,
  pages: PageContext[],
  wrap: (cdp: Cdp) => Cdp = (cdp) => cdp,
): Promise<{ tabId: string; page: PageContext }> {
  const tab = await host.create('about:blank', { focus: false });
  const page = new PageContext(wrap(await host.cdp(tab.id)), TEST_GATE);
  pages.push(page);
  await page.frames.init();
  await loadUrl(page, url);
  return { tabId: tab.id, page };
}

/** Navigates the tab to url and resolves on its own load event (events from out-of-process frames carry a sessionId). */
export async function loadUrl(page: PageContext, url: string): Promise<void> {
  // Listen before navigating: a fast page can fire load before Page.navigate's answer arrives.
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
}
