// After routes answered what a site's service worker fetched and the routing tab closed, a new tab on that site loads
// with the worker it had: the browser installs no new version before each load (it did, holding every load ~1–4 s,
// for as long as the browser ran: worker-update-switch.ts). The worker counts its installs; the page logs the count.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngineExecutor, type EngineExecutor } from '../../shared/engine/executor.js';
import type { Operation } from '../../shared/protocol/operations.js';
import { ctx, useEngineSuite } from '../support/engine-suite.js';
import { serveCountingWorkerSite } from '../support/counting-worker-site.js';
import { TEST_POLICY } from '../support/test-policy.js';

const suite = useEngineSuite();
let executor: EngineExecutor;

beforeAll(() => {
  serveCountingWorkerSite(suite.server, 'sw-update', 'update=1');
  executor = createEngineExecutor(suite.browser.host, { tag: 'ta', policy: () => TEST_POLICY });
});
// Before the suite closes the browser (afterAll hooks run in reverse order).
afterAll(() => executor?.dispose());

const run = async (op: string, args: Record<string, unknown> = {}) =>
  (await executor.run(op as Operation, args, ctx)).text;

/** Polls the current tab's console until a line matches. */
async function logged(wanted: RegExp): Promise<string> {
  let text = '';
  await expect.poll(async () => (text = await run('console')), { timeout: 20_000 }).toMatch(wanted);
  return text;
}

/** Routes a mock and a block into the site's worker from a new tab, and answers that tab's id at the browser. */
async function routeInWorker(visit: string): Promise<string> {
  await run('tab_new', { url: suite.server.url(`sw-update?${visit}`) });
  await logged(/: installs \d+$/m);
  await run('network_route', { action: 'add', url: '*echo?update*', mock: { body: 'the mock' } });
  await run('navigate', { action: 'reload' });
  await logged(/: sw got the mock$/m);
  await run('network_route', { action: 'add', url: '*echo?update*', block: true });
  await run('navigate', { action: 'reload' });
  await expect.poll(() => run('network_route', { action: 'list' }), { timeout: 15_000 }).toMatch(/block \(1 hit\)/);
  const tabs = await suite.browser.host.list();
  return tabs.find((tab) => tab.url.includes(`sw-update?${visit}`))!.id;
}

/** The site's next two tabs each load with the worker it had: one install in all. */
async function nextTabsKeepTheWorker(): Promise<void> {
  for (const visit of ['next-1', 'next-2']) {
    await run('tab_new', { url: suite.server.url(`sw-update?${visit}`) });
    const lines = await logged(/: installs \d+$/m);
    expect(lines).toMatch(/: installs 1$/m);
    await run('tab_close');
  }
}

describe("a site's service worker after routes answered in it", () => {
  it('installs no new version before the next tab on the site loads', async () => {
    await routeInWorker('a');
    await run('tab_close');
    await nextTabsKeepTheWorker();
  }, 120_000);

  it('nor when the person closes the routing tab themselves', async () => {
    // Another tab stays open: the switch can only be turned off from a page's session.
    await run('tab_new', { url: suite.server.url('echo?stays') });
    const routing = await routeInWorker('b');
    await suite.browser.host.close(routing);
    await nextTabsKeepTheWorker();
  }, 120_000);
});
