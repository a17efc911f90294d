// In the launched browser, what an agent's script leaves for the site's workers stays held once the engine let go of
// its tab (the executor disposed, as when its session ends), as in the person's Chrome (test/extension/
// worker-hold.test.ts): a blob shared worker, or a message to the site's service worker, that the page starts later
// reaches no other origin; the page's own sends flow.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createEngineExecutor } from '../../shared/engine/executor.js';
import { policyFromFlags } from '../../shared/policy/flags.js';
import { ctx, useEngineSuite } from '../support/engine-suite.js';
import { laterSenders } from '../support/late-scripts.js';
import { testServerHosts } from '../support/test-policy.js';
import { startWatchedSite, type WatchedSite } from '../support/watched-site.js';

const suite = useEngineSuite();
let watched: WatchedSite;

beforeAll(async () => {
  watched = await startWatchedSite();
});
afterAll(async () => {
  await watched?.close();
});

it('a shared worker or a service-worker message the page starts after the engine let go reaches no other origin', async () => {
  // The second origin may be read: only the worker hold keeps the workers from it.
  const policy = policyFromFlags({ allow: [new URL(watched.origin).host], trust: testServerHosts() });
  const executor = createEngineExecutor(suite.browser.host, { tag: 'wh', policy: () => policy });
  const url = suite.server.url('egress-late.html');
  await executor.run('tab_new', { url }, ctx);
  const tab = (await suite.browser.host.list()).find((each) => each.url === url)!;
  const cdp = await suite.browser.host.cdp(tab.id);
  /** The page's own code, outside any eval. */
  const pageOwn = async <T>(expression: string): Promise<T> => {
    const reply = await cdp.send<{ result: { value: T }; exceptionDetails?: { text: string } }>('Runtime.evaluate', {
      expression,
      awaitPromise: true,
      returnByValue: true,
    });
    if (reply.exceptionDetails) throw new Error(`page eval failed: ${reply.exceptionDetails.text}`);
    return reply.result.value;
  };
  // The site's worker controls the page first (the page's own doing, not the script's).
  await pageOwn(`navigator.serviceWorker.register('/egress-late-sw.js').then(() => navigator.serviceWorker.controller
    ? true : new Promise((resolve) => navigator.serviceWorker.addEventListener('controllerchange', () => resolve(true))))`);
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
