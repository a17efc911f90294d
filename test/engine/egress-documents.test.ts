// Documents an agent's script makes, on real Chromium: a srcdoc, blob or data frame, a blob window, a blank window it
// writes into. Their own scripts are not the tagged one, yet what they send later reaches no one but their maker's
// origin, and the next result names it; the page's own such frames send as they like.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { evaluate } from '../../shared/engine/ops/eval.js';
import { PageContext } from '../../shared/engine/page-context.js';
import { PolicyGate } from '../../shared/engine/policy-gate.js';
import { policyFromFlags } from '../../shared/policy/flags.js';
import type { OperationResult } from '../../shared/protocol/operations.js';
import { loadUrl, startTestBrowser } from '../support/browser.js';
import { ctx, useEngineSuite } from '../support/engine-suite.js';
import { lateDocument, type LateDocument } from '../support/late-documents.js';
import { heldLater as heldOf, reachedSite, untilMarker } from '../support/late-results.js';
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
  await loadUrl(page, suite.server.url('egress-late.html'));
});
afterAll(async () => {
  stopPopups?.();
  page?.dispose();
  await watched?.close();
});
afterEach(() => {
  watched.requests.length = 0;
});

const run = (expression: string) => evaluate(page, { expression }, ctx);

const until = (marker: string) => untilMarker(page, marker);
const heldLater = (result: OperationResult) => heldOf(result, watched);
const reached = () => reachedSite(page, watched);

/** Runs the script, waits for `marker` (its document's late send tried), and returns what reached W and was named. */
async function sends(marker: string, expression: string) {
  await run(expression);
  await until(marker);
  return { reached: await reached(), heldLater: heldLater(await run('1')) };
}

/** What a document of `kind` the script makes sends a second later to W/kind. */
const made = (kind: LateDocument) => sends(kind, lateDocument(kind, `${watched.origin}/${kind}`, kind));

describe('what a document the script made sends later stays held', () => {
  it('a srcdoc frame', async () => {
    expect(await made('srcdoc')).toEqual({ reached: [], heldLater: ['GET W/srcdoc (Fetch)'] });
  });

  it('a blob frame', async () => {
    expect(await made('blob-frame')).toEqual({ reached: [], heldLater: ['GET W/blob-frame (Fetch)'] });
  });

  it('a data frame', async () => {
    expect(await made('data-frame')).toEqual({ reached: [], heldLater: ['GET W/data-frame (Fetch)'] });
  });

  it('a blob window', async () => {
    expect(await made('blob-window')).toEqual({ reached: [], heldLater: ['GET W/blob-window (Fetch)'] });
  });

  it('a blank window the script writes into', async () => {
    // Held before this rule too: its fetch pauses in the opener's session, whose trail never hears its initiator (that
    // goes to the window's session) and holds it after a second as untold, under the kind Fetch pauses it as.
    expect(await made('written-window')).toEqual({ reached: [], heldLater: ['GET W/written-window (XHR)'] });
  });

  it('a srcdoc frame a timer adds, whose code calls its parent’s fetch', async () => {
    const html =
      `<script>setTimeout(() => parent.fetch('${watched.origin}/parent-call', { mode: 'no-cors' })
      .catch(() => undefined).finally(() => parent.postMessage('parentCall', '*')), 1000)</scr` + `ipt>`;
    const expression = `addEventListener('message', (event) => (window[event.data] = true));
      setTimeout(() => document.body.append(Object.assign(document.createElement('iframe'),
        { srcdoc: ${JSON.stringify(html)} })), 500); 0`;
    expect(await sends('parentCall', expression)).toEqual({
      reached: [],
      heldLater: ['GET W/parent-call (Fetch)'],
    });
  });

  it('a frame in a srcdoc frame a timer adds, whose image the parser asks for', async () => {
    const html = `<iframe srcdoc="<img src='${watched.origin}/nested'>" onload="parent.postMessage('nested', '*')">`;
    const expression = `addEventListener('message', (event) => (window[event.data] = true));
      setTimeout(() => document.body.append(Object.assign(document.createElement('iframe'),
        { srcdoc: ${JSON.stringify(html)} })), 500); 0`;
    expect(await sends('nested', expression)).toEqual({
      reached: [],
      heldLater: ['GET W/nested (Image)'],
    });
  });

  it('the page’s own frames the script writes a srcdoc or blob page into', async () => {
    for (const id of ['own-srcdoc', 'own-blob'])
      await page.cdp.send('Runtime.evaluate', {
        expression: `document.body.append(Object.assign(document.createElement('iframe'), { id: '${id}' }))`,
      });
    expect(await sends('into', lateDocument('srcdoc', `${watched.origin}/into`, 'into', 'own-srcdoc'))).toEqual({
      reached: [],
      heldLater: ['GET W/into (Fetch)'],
    });
    expect(
      await sends('blob-into', lateDocument('blob-frame', `${watched.origin}/blob-into`, 'blob-into', 'own-blob')),
    ).toEqual({
      reached: [],
      heldLater: ['GET W/blob-into (Fetch)'],
    });
  });

  it('the page’s own srcdoc and blob frames send as they like', async () => {
    await run('1');
    for (const kind of ['srcdoc', 'blob-frame'] as const) {
      const marker = `page-${kind}`;
      await page.cdp.send('Runtime.evaluate', {
        expression: lateDocument(kind, `${watched.origin}/${marker}`, marker),
      });
      await until(marker);
    }
    expect(watched.requests).toEqual(['/page-srcdoc', '/page-blob-frame']);
  });

  it('a srcdoc the page itself writes into its frame sends as it likes', async () => {
    await run('1');
    await page.cdp.send('Runtime.evaluate', {
      expression: `document.body.append(Object.assign(document.createElement('iframe'), { id: 'page-frame' }));
        ${lateDocument('srcdoc', `${watched.origin}/page-into`, 'pageInto', 'page-frame')}`,
    });
    await until('pageInto');
    expect(watched.requests).toEqual(['/page-into']);
  });

  it('a blob the script downloads leaves its page’s own sends flowing', async () => {
    // A navigation to a blob Chrome does not show: it asks the network domain for it, and no page commits.
    await run(`location.href = URL.createObjectURL(new Blob(['made'], { type: 'application/octet-stream' })); 0`);
    expect(await reached()).toEqual([]);
  });
});
