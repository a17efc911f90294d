// network_route and the service worker of a tab's site, on real Chromium: what the worker fetches for a page's request
// meets the tab's routes (mocked, blocked), also for a worker that was running before the tab was attached; the same
// site's worker in a tab on another site is left alone; and a shared worker's own request is not routed (Chrome hands
// no tab a shared worker's session: measured, Chromium 156).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { networkRoute } from '../../shared/engine/ops/network-route.js';
import { PageContext } from '../../shared/engine/page-context.js';
import { PolicyGate } from '../../shared/engine/policy-gate.js';
import { loadUrl } from '../support/browser.js';
import { ctx, useEngineSuite } from '../support/engine-suite.js';
import { testServerPolicy } from '../support/test-policy.js';

const suite = useEngineSuite();
const policy = testServerPolicy('act');

beforeAll(() => {
  // A page whose service worker answers /sw-api?… by fetching /echo?… itself, and whose shared worker fetches what
  // it is sent; `ready` is set once the service worker controls the page.
  suite.server.serve('/route-sw', {
    body: `<!doctype html><title>SW</title><h1>SW page</h1><script>
      window.ready = navigator.serviceWorker.register('/route-sw.js')
        .then(() => navigator.serviceWorker.ready)
        .then(() => navigator.serviceWorker.controller ? true : new Promise((resolve) =>
          navigator.serviceWorker.addEventListener('controllerchange', () => resolve(true))));
      window.shared = (url) => new Promise((resolve) => {
        const worker = new SharedWorker('/route-shared.js');
        worker.port.onmessage = (event) => resolve(event.data);
        worker.port.postMessage(url);
      });
    </script>`,
  });
  suite.server.serve('/route-sw.js', {
    body: `self.addEventListener('install', () => self.skipWaiting());
      self.addEventListener('activate', (event) => event.waitUntil(clients.claim()));
      self.addEventListener('fetch', (event) => {
        const url = new URL(event.request.url);
        if (url.pathname === '/sw-api') event.respondWith(fetch('/echo' + url.search));
      });`,
    headers: { 'content-type': 'text/javascript' },
  });
  suite.server.serve('/route-shared.js', {
    body: `onconnect = (event) => {
      const port = event.ports[0];
      port.onmessage = (message) => fetch(message.data).then(
        async (response) => port.postMessage(response.status + ' ' + (await response.text())),
        (error) => port.postMessage('failed ' + error.message));
    };`,
    headers: { 'content-type': 'text/javascript' },
  });
});

const tabs: { page: PageContext; id: string }[] = [];
afterAll(async () => {
  for (const { page, id } of tabs) {
    page.dispose();
    await suite.browser.host.close(id).catch(() => undefined);
  }
});

/** A tab the engine drives, loaded at `url`, once its service worker controls it. */
async function swTab(url: string): Promise<PageContext> {
  const { host } = suite.browser;
  const tab = await host.create('about:blank', { focus: false });
  const page = new PageContext(await host.cdp(tab.id), new PolicyGate(() => policy));
  tabs.push({ page, id: tab.id });
  await page.frames.init();
  await loadUrl(page, url);
  await evaluate(page, 'window.ready');
  return page;
}

async function evaluate(page: PageContext, expression: string): Promise<string> {
  const answer = await page.cdp.send<{ result: { value: string } }>('Runtime.evaluate', {
    expression,
    awaitPromise: true,
    returnByValue: true,
  });
  return answer.result.value;
}

/** The page's own fetch, which its service worker answers: "status body", or "failed …". */
const viaServiceWorker = (page: PageContext, query: string) =>
  evaluate(
    page,
    `fetch('/sw-api?${query}').then(async (r) => r.status + ' ' + (await r.text()), (e) => 'failed ' + e.message)`,
  );

const route = (page: PageContext, args: Parameters<typeof networkRoute>[1]) => networkRoute(page, args, ctx);

describe("network_route and a site's workers", () => {
  it('answers with the mock, or blocks, what the service worker fetches for the page', async () => {
    const page = await swTab(suite.server.url('route-sw'));
    // Unrouted, the worker's fetch reaches the server.
    expect(await viaServiceWorker(page, 'sw=0')).toMatch(/^200 \{"method":"GET","query":"\?sw=0"/);
    await route(page, { action: 'add', url: '*echo?sw=*', mock: { status: 202, body: 'mocked in the worker' } });
    await route(page, { action: 'add', url: '*echo?swcut*', block: true });
    expect(await viaServiceWorker(page, 'sw=1')).toBe('202 mocked in the worker');
    expect(await viaServiceWorker(page, 'swcut=1')).toMatch(/^failed /);
    expect(await viaServiceWorker(page, 'free=1')).toMatch(/^200 \{"method":"GET","query":"\?free=1"/);
    expect((await route(page, { action: 'list' })).data).toMatchObject({
      routes: [
        { id: 'r2', hits: 1 },
        { id: 'r1', hits: 1 },
      ],
    });
    await route(page, { action: 'remove' });
    expect(await viaServiceWorker(page, 'sw=2')).toMatch(/^200 \{"method":"GET","query":"\?sw=2"/);
  });

  it("leaves the worker of a tab on another site alone, and a shared worker's own request", async () => {
    const routed = await swTab(suite.server.url('route-sw'));
    // The same page on the other site (localhost): its own service worker, attached by the engine in its own tab.
    const other = await swTab(`${suite.server.crossOrigin}/route-sw`);
    await route(routed, { action: 'add', url: '*echo?*', mock: { body: 'mocked' } });
    expect(await viaServiceWorker(routed, 'sw=3')).toBe('200 mocked');
    expect(await viaServiceWorker(other, 'sw=4')).toMatch(/^200 \{"method":"GET","query":"\?sw=4"/);
    expect(await evaluate(routed, `shared('/echo?shared=1')`)).toMatch(/^200 \{"method":"GET","query":"\?shared=1"/);
  });
});
