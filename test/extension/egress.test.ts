// The egress hold in the person's Chrome, through the real extension: what an eval's script sends to another origin,
// itself or through a dedicated worker it starts (whose requests meet only rules put on the worker's own session),
// reaches no one and is named in the result.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWatchedSite, type WatchedSite } from '../support/watched-site.js';
import type { LinkedExtension } from './support/linked-extension.js';
import { startEgressTab, type EgressTab } from './support/egress-tab.js';
import type { PageProbe } from './support/page-probe.js';
import { testServerPolicy } from '../support/test-policy.js';

let started: EgressTab;
let linked: LinkedExtension;
let watched: WatchedSite;
let tab: string;
let page: PageProbe;

beforeAll(async () => {
  watched = await startWatchedSite();
  started = await startEgressTab(() => testServerPolicy('trusted', ['127.0.0.1']), 'egress-page.html');
  ({ linked, tab, page } = started);
});

afterAll(async () => {
  await started?.close();
  await watched?.close();
});

describe('eval through the extension', () => {
  it('holds a fetch to another origin, and the requests of a worker the script starts', async () => {
    const worker = `Promise.allSettled([fetch('${watched.origin}/worker-put?d=1', { method: 'PUT' }), fetch('${watched.origin}/worker-get')]).then(() => postMessage(0));`;
    const result = await linked.run('eval', {
      tab,
      // Every send settles before the script ends (the worker answers once its own have), so any that left has arrived.
      expression: `await fetch('${watched.origin}/direct').catch(() => undefined);
        await new Promise((resolve) => {
          const worker = new Worker(URL.createObjectURL(new Blob([${JSON.stringify(worker)}], { type: 'text/javascript' })));
          worker.onmessage = resolve;
        }); 'done'`,
    });
    const held = (result.data?.['held'] as string[]).map((entry) => entry.replaceAll(watched.origin, 'W')).sort();
    expect(held).toEqual([
      'GET W/direct (Fetch)',
      'GET W/worker-get (Fetch)',
      'PUT W/worker-put?d=[redacted 1 chars] (Fetch)',
    ]);
    expect(watched.requests).toEqual([]);
  });

  it("holds a fetch the script's timer sends once it returned, and names it in the next result", async () => {
    // The timer sends once the page is told the eval returned (a fixed delay raced a slow eval on a loaded box).
    const scheduled = await linked.run('eval', {
      tab,
      expression: `const waiting = setInterval(() => { if (!window.evalReturned) return; clearInterval(waiting);
        fetch('${watched.origin}/late?key=' + encodeURIComponent(document.title))
          .catch(() => undefined).finally(() => (window.lateDone = true)); }, 50); 'scheduled'`,
    });
    expect(scheduled.text).toBe('"scheduled"');
    await page.evaluate('window.evalReturned = true');
    // The page's own marker says the late send was tried, read with no eval: an eval open as the timer fires would hold
    // the send in its own window and name it in its own `held`, not in a later result's.
    await page.until('lateDone');
    const next = await linked.run('eval', { tab, expression: '1' });
    expect((next.data?.['heldLater'] as string[]).map((entry) => entry.replaceAll(watched.origin, 'W'))).toEqual([
      'GET W/late?key=[redacted 11 chars] (Fetch)',
    ]);
    expect(watched.requests).toEqual([]);
  });

  it('holds a form the script submits a second later, whose request names no stack, and names it next', async () => {
    await linked.run('eval', {
      tab,
      expression: `setTimeout(() => { const form = document.createElement('form'); form.method = 'post';
        form.action = '${watched.origin}/form-late'; document.body.append(form); form.submit();
        setTimeout(() => (window.formDone = true), 300); }, 1000); 0`,
    });
    // As above: the page's marker, read with no eval, then the next result.
    await page.until('formDone');
    const later = ((await linked.run('eval', { tab, expression: '1' })).data?.['heldLater'] ?? []) as string[];
    expect(later.map((entry) => entry.replaceAll(watched.origin, 'W'))).toEqual(['POST W/form-late (navigation)']);
    expect(watched.requests).toEqual([]);
    expect((await linked.run('eval', { tab, expression: 'location.pathname' })).text).toBe('"/egress-page.html"');
  });
});
