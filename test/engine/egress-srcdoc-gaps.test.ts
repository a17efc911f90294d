// The gaps in telling who changed a frame after an eval returned, on real Chromium: a document a timer of the script's
// opens and writes, a srcdoc the script's observer sets on a frame the page just inserted, the page's own sets after an
// inspection, and a frame owner whose frame runs in another process. The script's are held and named; the page's load.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { evaluate } from '../../shared/engine/ops/eval.js';
import { inspect } from '../../shared/engine/ops/inspect.js';
import { PageContext } from '../../shared/engine/page-context.js';
import { PolicyGate } from '../../shared/engine/policy-gate.js';
import { policyFromFlags } from '../../shared/policy/flags.js';
import { loadUrl, startTestBrowser } from '../support/browser.js';
import { ctx, useEngineSuite } from '../support/engine-suite.js';
import { listen, ownFrame, remoteSrcdocCases, srcdocCases, srcdocSending } from '../support/late-srcdoc.js';
import type { LateTab } from '../support/late-tab.js';
import { heldLater, reachedSite, untilMarker } from '../support/late-results.js';
import { testServerHosts } from '../support/test-policy.js';
import { startWatchedSite, type WatchedSite } from '../support/watched-site.js';
import { personClicks } from '../support/watched-engine-tab.js';

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
const tab: LateTab = {
  get watched() {
    return watched;
  },
  run,
  asPage,
  personClicks: () => personClicks(page),
  until: (marker) => untilMarker(page, marker),
  reached: () => reachedSite(page, watched),
  heldLater: (result) => heldLater(result, watched),
};

/** What reached W once the page's `marker` is set, and what the next results name. */
async function outcome(marker: string) {
  await untilMarker(page, marker);
  const reached = await reachedSite(page, watched);
  // A form's navigation may pause a moment after its page told the marker: each look is an eval of its own.
  const named: string[] = [];
  const deadline = Date.now() + 10_000;
  while (named.length === 0 && Date.now() < deadline) named.push(...heldLater(await run('1'), watched));
  return { reached, heldLater: named };
}

describe('what a timer the script left writes into the page’s own frame with open()', () => {
  /** Opens frame `id`'s document anew and writes `html` into it. */
  const openWrite = (id: string, html: string) =>
    `const doc = document.getElementById(${JSON.stringify(id)}).contentDocument;
    doc.open(); doc.write(${JSON.stringify(html)}); doc.close();`;

  it('a form the written page submits: held, and named', async () => {
    await asPage(ownFrame('opened'));
    const html = srcdocSending('form', `${watched.origin}/opened`, 'opened');
    await run(`${listen('opened')} setTimeout(() => { ${openWrite('opened', html)} }, 1000); 0`);
    expect(await outcome('opened')).toEqual({
      reached: [],
      heldLater: ['GET W/opened?k=[redacted 6 chars] (navigation)'],
    });
  });

  it('after the page’s own open() and write() meanwhile, whose image loads: held, and named', async () => {
    await asPage(ownFrame('reopened'));
    const html = srcdocSending('form', `${watched.origin}/reopened`, 'reopened');
    await run(`${listen('reopened')} setTimeout(() => { ${openWrite('reopened', html)} }, 1500); 0`);
    const own = srcdocSending('img', `${watched.origin}/own-written`, 'ownWritten');
    await asPage(`${listen('ownWritten')} ${openWrite('reopened', own)} 0`);
    await untilMarker(page, 'ownWritten');
    expect(await outcome('reopened')).toEqual({
      reached: ['/own-written'],
      heldLater: ['GET W/reopened?k=[redacted 6 chars] (navigation)'],
    });
  });
});

describe('a srcdoc set on a frame the page has just inserted', () => {
  // No breakpoint can stand on the new frame's owner before a set in the insertion's own task; srcdoc is a Trusted
  // Types HTML sink, so the handler policy pauses the set with its writer on the stack, and the script's waits for one.
  it('by an observer the script left, in the insertion’s own task: held, and named', () =>
    srcdocCases.observerSets(tab));

  it('by the page itself, in the insertion’s own task: its image loads', () => srcdocCases.pageSetsAsInserted(tab));
});

describe('the page’s own srcdoc set after an inspection', () => {
  it('loads its image from another origin', async () => {
    await asPage(ownFrame('inspected'));
    await run('1');
    await inspect(page, { selector: '#secret' }, ctx);
    const html = srcdocSending('img', `${watched.origin}/after-inspect`, 'afterInspect');
    await asPage(`${listen('afterInspect')} document.getElementById('inspected').srcdoc = ${JSON.stringify(html)}; 0`);
    await untilMarker(page, 'afterInspect');
    expect(watched.requests).toEqual(['/after-inspect']);
  });
});

describe('a frame owner whose frame runs in another process', () => {
  const frameUrl = () => `${suite.server.crossOrigin}/frame-child.html`;

  it('the page’s own srcdoc set there loads its image from another origin', () =>
    remoteSrcdocCases.pageOwnSet(tab, frameUrl()));

  // The srcdoc document commits back in the parent's process, where no Fetch session pauses its requests (measured on
  // Chromium 156): the parent's session refuses other origins from the set until Fetch is enabled there again.
  it('a timer the script left sets its srcdoc: held, and named', () => remoteSrcdocCases.timerSets(tab, frameUrl()));

  it('a timer the script left fetches through its window once the page brought it back: held, and named', () =>
    remoteSrcdocCases.fetchThroughBrought(tab, frameUrl()));
});
