// Documents an agent's script makes, in the person's Chrome through the real extension (as the engine's
// egress-documents test does in the fallback): what a srcdoc, blob or data frame it adds, or a blob window it opens, sends
// a second later reaches no one and the next result names it; the page's own such frames send as they like.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { OperationResult } from '../../shared/protocol/operations.js';
import { lateDocument, type LateDocument } from '../support/late-documents.js';
import { heldLater as heldOf } from '../support/late-results.js';
import { startWatchedSite, type WatchedSite } from '../support/watched-site.js';
import { testServerPolicy } from '../support/test-policy.js';
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

const heldLater = (result: OperationResult) => heldOf(result, watched);

const reached = () => reachedBesidesOwn(page, watched);

/** What a document of `kind` the script makes sends a second later to W/kind: what reached W, and what was named. */
async function made(kind: LateDocument) {
  await run(lateDocument(kind, `${watched.origin}/${kind}`, kind));
  await page.until(kind);
  return { reached: await reached(), heldLater: heldLater(await run('1')) };
}

describe('what a frame the script made sends later stays held, through the extension', () => {
  for (const kind of ['srcdoc', 'blob-frame', 'data-frame'] as const)
    it(`a ${kind.replace('-frame', '')} frame`, async () => {
      expect(await made(kind)).toEqual({ reached: [], heldLater: [`GET W/${kind} (Fetch)`] });
    });

  it('a blob window', async () => {
    expect(await made('blob-window')).toEqual({ reached: [], heldLater: ['GET W/blob-window (Fetch)'] });
  });

  it('a blob window that sends as it loads, before the engine follows it', async () => {
    const html =
      `<script>fetch('${watched.origin}/blob-at-once', { mode: 'no-cors' }).catch(() => undefined)
      .finally(() => opener.postMessage('atOnce', '*'))</scr` + `ipt>`;
    await run(`addEventListener('message', (event) => { if (event.data === 'atOnce') window.atOnce = true; });
      window.open(URL.createObjectURL(new Blob([${JSON.stringify(html)}], { type: 'text/html' }))); 0`);
    await page.until('atOnce');
    expect(await reached()).toEqual([]);
  });

  it('the page’s own frame the script writes a srcdoc page into', async () => {
    await page.evaluate(`document.body.append(Object.assign(document.createElement('iframe'), { id: 'own' })); 0`);
    await run(lateDocument('srcdoc', `${watched.origin}/into`, 'into', 'own'));
    await page.until('into');
    expect({ reached: await reached(), heldLater: heldLater(await run('1')) }).toEqual({
      reached: [],
      heldLater: ['GET W/into (Fetch)'],
    });
  });

  it('the page’s own srcdoc and blob frames send as they like', async () => {
    await run('1');
    for (const kind of ['srcdoc', 'blob-frame'] as const) {
      const marker = `page-${kind}`;
      await page.evaluate(lateDocument(kind, `${watched.origin}/${marker}`, marker));
      await page.until(marker);
    }
    expect(watched.requests).toEqual(['/page-srcdoc', '/page-blob-frame']);
  });
});
