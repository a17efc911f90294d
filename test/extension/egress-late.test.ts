// What an eval's script starts after it returned, in the person's Chrome through the real extension (as the engine's
// egress-late test does in the fallback): a window its timer opens, a location change it makes, a blob shared worker
// its timer starts, a message it posts to the site's service worker reach no one, and the window's request and the
// navigation are named next; the page's own sends flow.
import { describe, expect, it } from 'vitest';
import { lateLocationAssign } from '../support/late-location.js';
import { lateSharedWorker } from '../support/late-scripts.js';
import { until } from './support/until.js';
import { watchedEgressTab } from './support/watched-egress-tab.js';

const egress = watchedEgressTab();
const { run, asPage, heldLater, reached } = egress;
const KEY = `document.getElementById('secret').textContent`;

describe('what a script starts after it returned stays held, through the extension', () => {
  it('a window a timer opens: its first request is held, the next result names it, the window is closed', async () => {
    await run(`setTimeout(() => { window.open('${egress.watched.origin}/popup-late?key=' + encodeURIComponent(${KEY}));
      window.opened = true; }, 1000); 0`);
    await egress.until('opened');
    // Settled either way: the request reached the site, or a result names the hold (the host hears of it a moment later).
    const later = await until(
      async () =>
        egress.watched.requests.some((path) => path.startsWith('/popup-late')) ? [] : heldLater(await run('1')),
      (held) => held.length > 0 || egress.watched.requests.some((path) => path.startsWith('/popup-late')),
      20_000,
    );
    expect(await reached()).toEqual([]);
    // webNavigation, where the extension hears of the blocked window, names no method: the entry does not guess one.
    expect(later).toEqual(['W/popup-late?key=[redacted 34 chars] (navigation, method not known)']);
    const watchedTabs = () =>
      egress.linked.browser.evaluate<number>(
        `chrome.tabs.query({ url: '${egress.watched.origin}/*' }).then((tabs) => tabs.length)`,
      );
    expect(await until(watchedTabs, (count) => count === 0)).toBe(0);
  });

  // With the worker running (restart-paused.test.ts holds one while it is stopped).
  it('a location change a timer makes: held, the tab left on its page, and named next', () =>
    lateLocationAssign(egress));

  it('a shared worker a timer starts from a blob, whose fetch reaches no one', async () => {
    await run(lateSharedWorker(`${egress.watched.origin}/shared-late`));
    await egress.until('sharedDone');
    expect(await reached()).toEqual([]);
  });

  it('a message the script posts to the site’s service worker, which fetches as it is told', async () => {
    // The site's worker controls the page first (the page's own doing, not the script's).
    await asPage(
      `navigator.serviceWorker.register('/egress-late-sw.js').then(() => navigator.serviceWorker.controller
        ? true : new Promise((resolve) => navigator.serviceWorker.addEventListener('controllerchange', () => resolve(true))))`,
    );
    await run(`navigator.serviceWorker.onmessage = () => (window.swDone = true);
      setTimeout(() => navigator.serviceWorker.controller.postMessage('${egress.watched.origin}/sw-late'), 1000); 0`);
    await egress.until('swDone');
    expect(await reached()).toEqual([]);
  });

  it('the page’s own sends to that origin flow, after every script', async () => {
    await run('1');
    expect(await reached()).toEqual([]);
    expect(egress.watched.requests).toEqual(['/page-own']);
  });
});
