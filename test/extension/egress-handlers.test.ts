// Inline event handlers an agent's script leaves in the page, in the person's Chrome through the real extension (as the
// engine's egress-handlers test does in the fallback): the attacks are written and skipped, as no signal Chrome gives
// ties a handler's run to who set it (measurements there); the page's own handler, after an eval, keeps sending.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { appending, detachedImage, failingImage } from '../support/late-handlers.js';
import { heldLater } from '../support/late-results.js';
import { testServerPolicy } from '../support/test-policy.js';
import { startWatchedSite, type WatchedSite } from '../support/watched-site.js';
import { startEgressTab, type EgressTab } from './support/egress-tab.js';
import type { LinkedExtension } from './support/linked-extension.js';
import type { PageProbe } from './support/page-probe.js';
import { reachedBesidesOwn } from './support/reached-site.js';
import { forgetWatched, withSite } from './support/watched-popups.js';

let started: EgressTab;
let linked: LinkedExtension;
let watched: WatchedSite;
let tab: string;
let page: PageProbe;

beforeAll(async () => {
  watched = await startWatchedSite();
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

/** What reached W, and what the next result names, once the handler the script left has run. */
async function afterHandler(marker: string) {
  await page.until(marker);
  const reached = await reachedBesidesOwn(page, watched);
  return { reached, heldLater: heldLater(await run('1'), watched) };
}

describe('an inline handler the script leaves in the page, through the extension', () => {
  it('inserted during the eval: its fetch is held, and named', async () => {
    await run(appending(failingImage(`${watched.origin}/inserted`, 'inserted')));
    expect(await afterHandler('inserted')).toEqual({ reached: [], heldLater: ['GET W/inserted (Fetch)'] });
  });

  it('inserted by a timer the script left: its fetch is held, and named', async () => {
    const later = JSON.stringify(appending(failingImage(`${watched.origin}/timer`, 'timer')));
    await run(`setTimeout(${later}, 1000); 0`);
    expect(await afterHandler('timer')).toEqual({ reached: [], heldLater: ['GET W/timer (Fetch)'] });
  });

  it('on an image never inserted, calling the page’s own send: held, and named', async () => {
    await run(detachedImage(`${watched.origin}/detached`, 'detached'));
    expect(await afterHandler('detached')).toEqual({ reached: [], heldLater: ['GET W/detached (Fetch)'] });
  });
});

describe('the page’s own inline handlers, after an eval, through the extension', () => {
  it('one the page inserts sends to another origin', async () => {
    await run('1');
    await page.evaluate(appending(failingImage(`${watched.origin}/own`, 'own')));
    await page.until('own');
    expect(watched.requests).toEqual(['/own']);
  });
});
