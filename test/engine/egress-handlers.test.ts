// Inline event handlers an agent's script leaves in the page, on real Chromium: the handler's code is compiled from the
// attribute when its event fires, and what it sends names only the page's document on its stack (no tagged frame, no
// async parent), so no initiator tells it from the page's own. The attacks are written here, skipped until a signal
// ties a handler to who set it; the page's own handlers, after an eval, must keep sending.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { evaluate } from '../../shared/engine/ops/eval.js';
import { PageContext } from '../../shared/engine/page-context.js';
import { PolicyGate } from '../../shared/engine/policy-gate.js';
import { policyFromFlags } from '../../shared/policy/flags.js';
import { loadUrl, startTestBrowser } from '../support/browser.js';
import { ctx, useEngineSuite } from '../support/engine-suite.js';
import { appending, detachedImage, failingImage } from '../support/late-handlers.js';
import { heldLater, reachedSite, untilMarker } from '../support/late-results.js';
import { testServerHosts } from '../support/test-policy.js';
import { startWatchedSite, type WatchedSite } from '../support/watched-site.js';

let watched: WatchedSite;
// W may be read, so only the hold stands between a handler's send and W.
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

/** What reached W, and what the next results name, once the handler the script left has run. */
async function afterHandler(marker: string) {
  await untilMarker(page, marker);
  const reached = await reachedSite(page, watched);
  return { reached, heldLater: heldLater(await run('1'), watched) };
}

// Measured on Chromium 156: a handler set after load is compiled from the attribute when its event fires, its
// Debugger.scriptParsed (at 0:0 of the document's URL, hash the SHA-256 of the attribute) names no stack then (only the
// stack of code that reads the property first), beforeScriptExecution pauses on its frame alone, and the request's
// initiator is [handler] with no async parent at depth 32; one calling the page's own function may show only that
// function. A MutationObserver over the eval misses a never-inserted image and a shadow root, and a timer's later set is
// the page's to any observer; a DOM breakpoint pauses on every change of the page's tree. Nothing sound holds them yet.
describe('an inline handler the script leaves in the page', () => {
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

describe('the page’s own inline handlers, after an eval', () => {
  it('one the page inserts sends to another origin', async () => {
    await run('1');
    await asPage(appending(failingImage(`${watched.origin}/own`, 'own')));
    await untilMarker(page, 'own');
    expect(watched.requests).toEqual(['/own']);
  });
});
