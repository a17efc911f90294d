// A blank window an out-of-process frame's own code opens and writes into, after an eval, on real Chromium (the fallback):
// its requests pause in that frame's session, and the window's verdicts must be filed there, or they wait out the
// verdict time and are held as the script's (the page's window over-held). Measures the fallback's filing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluate } from '../../shared/engine/ops/eval.js';
import { PageContext } from '../../shared/engine/page-context.js';
import { EVAL_ACTIVATION_MS } from '../../shared/engine/scripted-documents.js';
import { PolicyGate } from '../../shared/engine/policy-gate.js';
import { policyFromFlags } from '../../shared/policy/flags.js';
import { loadUrl, startTestBrowser } from '../support/browser.js';
import { ctx, useEngineSuite } from '../support/engine-suite.js';
import { heldLater } from '../support/late-results.js';
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
let stopPopups: () => void;

beforeAll(async () => {
  stopPopups = suite.browser.host.onPopup(async () => undefined);
  const tab = await suite.browser.host.create('about:blank', { focus: false });
  page = new PageContext(await suite.browser.host.cdp(tab.id), gate);
  await page.frames.init();
  await loadUrl(page, suite.server.url('frames.html'));
});
afterAll(async () => {
  stopPopups?.();
  page?.dispose();
  await watched?.close();
});

describe('a blank window an out-of-process frame writes into', () => {
  it('sends as the frame’s page likes after an eval, named held by no result', async () => {
    let child: string | undefined;
    for (let attempt = 0; attempt < 200 && child === undefined; attempt++) {
      child = (await page.frames.list()).find((frame) => frame.sessionId !== undefined)?.sessionId;
      if (child === undefined) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(child).toBeDefined();
    await evaluate(page, { expression: '1' }, ctx);
    // As a person's later click in the frame would open it: after the eval's activation, with a gesture.
    await new Promise((resolve) => setTimeout(resolve, EVAL_ACTIVATION_MS + 500));
    await page.cdp.send(
      'Runtime.evaluate',
      {
        userGesture: true,
        expression: `const own = window.open(''); own.document.write('<img src="${watched.origin}/oopif-img">');
          own.document.close(); 0`,
      },
      child,
    );
    const deadline = Date.now() + 10_000;
    while (!watched.requests.includes('/oopif-img') && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 100));
    const next = await evaluate(page, { expression: '1' }, ctx);
    expect({ reached: watched.requests, heldLater: heldLater(next, watched) }).toEqual({
      reached: ['/oopif-img'],
      heldLater: [],
    });
  }, 60_000);
});
