// A srcdoc a timer the agent's script left sets into a frame of the page's own, on real Chromium: the set names no stack
// and asks nothing of the network, and the srcdoc page's own code is not the tagged script, yet what it sends reaches no
// one and the next result names it. The page's own srcdoc sets, after the script, load what they like.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { evaluate } from '../../shared/engine/ops/eval.js';
import { PageContext } from '../../shared/engine/page-context.js';
import { PolicyGate } from '../../shared/engine/policy-gate.js';
import { policyFromFlags } from '../../shared/policy/flags.js';
import { loadUrl, startTestBrowser } from '../support/browser.js';
import { ctx, useEngineSuite } from '../support/engine-suite.js';
import { ownFrame, srcdocLater, srcdocSending, type SrcdocSend } from '../support/late-srcdoc.js';
import { heldLater, reachedSite, untilMarker } from '../support/late-results.js';
import { testServerHosts } from '../support/test-policy.js';
import { startWatchedSite, type WatchedSite } from '../support/watched-site.js';

let watched: WatchedSite;
const gate = new PolicyGate(() => policyFromFlags({ allow: [new URL(watched.origin).host], trust: testServerHosts() }));
const suite = useEngineSuite({
  startBrowser: async () => {
    watched = await startWatchedSite();
    return startTestBrowser(gate);
  },
});
let page: PageContext;

beforeAll(async () => {
  const tab = await suite.browser.host.create('about:blank', { focus: false });
  page = new PageContext(await suite.browser.host.cdp(tab.id), gate);
  await page.frames.init();
  await loadUrl(page, suite.server.url('egress-late.html'));
});
afterAll(async () => {
  page?.dispose();
  await watched?.close();
});
afterEach(() => {
  watched.requests.length = 0;
});

const run = (expression: string) => evaluate(page, { expression }, ctx);
/** The page's own code, with no eval open. */
const asPage = (expression: string) => page.cdp.send('Runtime.evaluate', { expression, awaitPromise: true });

/** What reached W, and what the next results name, once the srcdoc page a timer of the script's set has sent. */
async function timerSet(kind: SrcdocSend, by: 'srcdoc' | 'setAttribute' = 'srcdoc') {
  const marker = `${kind}-${by}`;
  await asPage(ownFrame(marker));
  await run(srcdocLater(marker, srcdocSending(kind, `${watched.origin}/${marker}`, marker), marker, by));
  await untilMarker(page, marker);
  const reached = await reachedSite(page, watched);
  // A form's navigation may pause a moment after its page told the marker: each look is an eval of its own.
  const named: string[] = [];
  const deadline = Date.now() + 10_000;
  while (named.length === 0 && Date.now() < deadline) named.push(...heldLater(await run('1'), watched));
  return { reached, heldLater: named };
}

describe('a srcdoc a timer the script left sets into the page’s own frame', () => {
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

  it('set through another realm’s setAttribute: held, and named', async () => {
    expect(await timerSet('fetch', 'setAttribute')).toEqual({
      reached: [],
      heldLater: ['GET W/fetch-setAttribute (Fetch)'],
    });
  });

  it('the page’s own srcdoc set, after the script, loads its image from another origin', async () => {
    await asPage(ownFrame('mail'));
    await run('1');
    await asPage(`addEventListener('message', (event) => { if (event.data === 'ownImg') window.ownImg = true; });
      document.getElementById('mail').srcdoc = ${JSON.stringify(srcdocSending('img', `${watched.origin}/own-img`, 'ownImg'))}; 0`);
    await untilMarker(page, 'ownImg');
    expect(watched.requests).toEqual(['/own-img']);
  });
});

describe('what a timer the script left writes into the page’s own frame’s document', () => {
  /** What reached W, and what the next results name, once what `write` put in frame `id` has sent. */
  async function written(id: string, write: (doc: string) => string) {
    await asPage(ownFrame(id));
    await run(
      `setTimeout(() => { const doc = document.getElementById('${id}').contentDocument; ${write('doc')}; }, 1000); 0`,
    );
    await untilMarker(page, id);
    const reached = await reachedSite(page, watched);
    const named: string[] = [];
    const deadline = Date.now() + 10_000;
    while (named.length === 0 && Date.now() < deadline) named.push(...heldLater(await run('1'), watched));
    return { reached, heldLater: named };
  }
  const tell = (id: string) => `parent.window.${id} = true`;

  it('an image whose error handler fetches, through innerHTML: held, and named', async () => {
    const html = `<img src=x onerror="fetch('${watched.origin}/inner', { mode: 'no-cors' }).finally(() => ${tell('inner')})">`;
    expect(await written('inner', (doc) => `${doc}.body.innerHTML = ${JSON.stringify(html)}`)).toEqual({
      reached: [],
      heldLater: ['GET W/inner (Fetch)'],
    });
  });
});
