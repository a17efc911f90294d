// A srcdoc a timer the agent's script left sets into a frame of the page's own, in the person's Chrome through the real
// extension (as the engine's egress-srcdoc-timers test does in the fallback): what its page sends reaches no one and the
// next result names it, as does what such a timer writes into the frame's document; the page's own srcdoc set, after
// the script, loads its image from another origin.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { heldLater } from '../support/late-results.js';
import { ownFrame, srcdocLater, srcdocSending, type SrcdocSend } from '../support/late-srcdoc.js';
import { testServerPolicy } from '../support/test-policy.js';
import { startWatchedSite, type WatchedSite } from '../support/watched-site.js';
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

/** What reached W, and what the next results name, once the srcdoc page a timer of the script's set has sent. */
async function timerSet(kind: SrcdocSend) {
  // Not the kind's own name: the page would set its `fetch` to true.
  const marker = `${kind}-srcdoc`;
  await page.evaluate(ownFrame(marker));
  await run(srcdocLater(marker, srcdocSending(kind, `${watched.origin}/${marker}`, marker), marker));
  await page.until(marker);
  const reached = await reachedBesidesOwn(page, watched);
  // A form's navigation may pause a moment after its page told the marker: each look is an eval of its own.
  const named: string[] = [];
  await until(
    async () => (named.push(...heldLater(await run('1'), watched)), named),
    (held) => held.length > 0,
  );
  return { reached, heldLater: named };
}

describe('a srcdoc a timer the script left sets into the page’s own frame, through the extension', () => {
  it('whose page fetches: held, and named', async () => {
    expect(await timerSet('fetch')).toEqual({ reached: [], heldLater: ['GET W/fetch-srcdoc (Fetch)'] });
  });

  it('whose page shows an image: held, and named', async () => {
    expect(await timerSet('img')).toEqual({ reached: [], heldLater: ['GET W/img-srcdoc (Image)'] });
  });

  it('whose page submits a form: held, and named', async () => {
    expect(await timerSet('form')).toEqual({
      reached: [],
      heldLater: ['GET W/form-srcdoc?k=[redacted 6 chars] (navigation)'],
    });
  });

  it('the page’s own srcdoc set, after the script, loads its image from another origin', async () => {
    await page.evaluate(ownFrame('mail'));
    await run('1');
    await page.evaluate(`addEventListener('message', (event) => { if (event.data === 'ownImg') window.ownImg = true; });
      document.getElementById('mail').srcdoc = ${JSON.stringify(srcdocSending('img', `${watched.origin}/own-img`, 'ownImg'))}; 0`);
    await page.until('ownImg');
    expect(watched.requests).toEqual(['/own-img']);
  });

  it('an image whose error handler fetches, written into the page’s own frame through innerHTML: held, and named', async () => {
    const html = `<img src=x onerror="fetch('${watched.origin}/inner', { mode: 'no-cors' }).finally(() => parent.window.inner = true)">`;
    await page.evaluate(ownFrame('inner'));
    await run(
      `setTimeout(() => { document.getElementById('inner').contentDocument.body.innerHTML = ${JSON.stringify(html)}; }, 1000); 0`,
    );
    await page.until('inner');
    const reached = await reachedBesidesOwn(page, watched);
    const named: string[] = [];
    await until(
      async () => (named.push(...heldLater(await run('1'), watched)), named),
      (held) => held.length > 0,
    );
    expect({ reached, heldLater: named }).toEqual({ reached: [], heldLater: ['GET W/inner (Fetch)'] });
  });
});
