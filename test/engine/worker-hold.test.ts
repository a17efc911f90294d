// In the launched browser, what an agent's script leaves for the site's workers stays held, as in the person's Chrome
// (test/extension/worker-hold.test.ts): once the engine let go of its tab (the executor disposed, as when its session
// ends), a blob shared worker, or a message to the site's service worker, that the page starts later reaches no other
// origin, and the page's own sends flow; a message the script posts as it runs, its first on the site, is held too.
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import type { Cdp } from '../../shared/engine/cdp.js';
import { createEngineExecutor, type EngineExecutor } from '../../shared/engine/executor.js';
import { policyFromFlags } from '../../shared/policy/flags.js';
import { ctx, useEngineSuite } from '../support/engine-suite.js';
import { laterSenders } from '../support/late-scripts.js';
import { testServerHosts } from '../support/test-policy.js';
import { startWatchedSite, type WatchedSite } from '../support/watched-site.js';

const suite = useEngineSuite();
let watched: WatchedSite;
let executor: EngineExecutor;

beforeAll(async () => {
  watched = await startWatchedSite();
  // The second origin may be read: only the worker hold keeps the workers from it.
  const policy = policyFromFlags({ allow: [new URL(watched.origin).host], trust: testServerHosts() });
  executor = createEngineExecutor(suite.browser.host, { tag: 'wh', policy: () => policy });
});
afterEach(() => {
  watched.requests.length = 0;
});
afterAll(async () => {
  executor?.dispose();
  await watched?.close();
});

/** Opens `url` in an agent's tab whose page the site's service worker controls (the page's own doing); its own code. */
async function controlledTab(url: string): Promise<<T>(expression: string) => Promise<T>> {
  await executor.run('tab_new', { url }, ctx);
  const tab = (await suite.browser.host.list()).find((each) => each.url === url)!;
  const cdp: Cdp = await suite.browser.host.cdp(tab.id);
  const pageOwn = async <T>(expression: string): Promise<T> => {
    const reply = await cdp.send<{ result: { value: T }; exceptionDetails?: { text: string } }>('Runtime.evaluate', {
      expression,
      awaitPromise: true,
      returnByValue: true,
    });
    if (reply.exceptionDetails) throw new Error(`page eval failed: ${reply.exceptionDetails.text}`);
    return reply.result.value;
  };
  await pageOwn(`navigator.serviceWorker.register('/egress-late-sw.js').then(() => navigator.serviceWorker.controller
    ? true : new Promise((resolve) => navigator.serviceWorker.addEventListener('controllerchange', () => resolve(true))))`);
  return pageOwn;
}

it('a message the script posts as it runs, its first on the site, reaches no other origin', async () => {
  // The fixture server's other name: no script ran on that site yet.
  await controlledTab(`${suite.server.crossOrigin}/egress-late.html`);
  await executor.run(
    'eval',
    {
      expression: `new Promise((resolve) => { navigator.serviceWorker.onmessage = () => resolve(0);
        navigator.serviceWorker.controller.postMessage('${watched.origin}/at-once'); })`,
    },
    ctx,
  );
  expect(watched.requests).toEqual([]);
});

it('a shared worker or a service-worker message the page starts after the engine let go reaches no other origin', async () => {
  const pageOwn = await controlledTab(suite.server.url('egress-late.html'));
  await executor.run('eval', { expression: laterSenders(`${watched.origin}/let-go`) }, ctx);
  executor.dispose();

  expect(await pageOwn('window.laterShared()')).toBe(true);
  expect(await pageOwn('window.laterMessage()')).toBe(true);
  expect(watched.requests).toEqual([]);
  // The page's own sends flow: to its origin (which its worker fetches again), and to the other one.
  expect(await pageOwn(`pageSend(${JSON.stringify(suite.server.url('egress-late.html?own'))})`)).toBe('sent');
  expect(await pageOwn(`pageSend('${watched.origin}/page-own')`)).toBe('sent');
  expect(watched.requests).toEqual(['/page-own']);
});
