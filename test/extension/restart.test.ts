// The worker stopped mid-call, as Chrome does when it evicts one: the call in flight fails once, typed; the worker
// comes back on its own and dials again within 5 s; the next call runs, and the agent's tabs are still its own; the
// routes and the trace it held are named as lost to the next call on their tab.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolError } from '../../shared/protocol/errors.js';
import { startLinkedExtension, type LinkedExtension } from './support/linked-extension.js';

let linked: LinkedExtension;

beforeAll(async () => {
  linked = await startLinkedExtension();
});

afterAll(async () => {
  await linked?.close();
});

describe('a stopped worker', () => {
  it('fails the call in flight once, re-dials within 5 s, and serves the next call with its tabs intact', async () => {
    const opened = await linked.run('tab_new', { url: linked.fixtures.url('frames.html') });
    const oldHandle = String(opened.data?.['tab']);

    let failures = 0;
    const inFlight = linked.run('wait_for', { text: 'never shows up', timeout: 20_000 }).then(
      () => undefined,
      (error: unknown) => {
        failures++;
        return error;
      },
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    const relinked = linked.nextLink();
    const stoppedAt = performance.now();
    await linked.browser.stopWorker();

    const error = await inFlight;
    expect(error).toBeInstanceOf(ToolError);
    expect((error as ToolError).code).toBe('EXTENSION_DISCONNECTED');
    await relinked;
    const reconnectMs = performance.now() - stoppedAt;
    process.stderr.write(`worker stopped → extension linked again in ${reconnectMs.toFixed(0)} ms\n`);
    // Wide for a loaded machine, and still well under the 30 s an alarm takes in Chrome at the least.
    expect(reconnectMs).toBeLessThan(15_000);
    expect(failures).toBe(1);

    // A new link is a new session: the old handle is recognisably stale, and the tab is still the agent's and current.
    await expect(linked.run('snapshot', { tab: oldHandle })).rejects.toMatchObject({ code: 'STALE_TAB' });
    const tabs = await linked.run('tabs');
    const mine = (tabs.data?.['tabs'] as Array<{ tab: string; url: string; owned: boolean; current: boolean }>).find(
      (tab) => tab.url.endsWith('/frames.html'),
    );
    expect(mine).toMatchObject({ owned: true, current: true });

    // The old worker's attachment was let go and made afresh, so the out-of-process iframe is reachable again.
    const outline = await linked.run('snapshot');
    expect(outline.text).toMatch(
      /iframe "Cross origin" \[frame \d+\]:\n(?:.*\n)*?\s+- button "Child button" \[ref=f\d+e\d+\]/,
    );
    expect((await linked.run('tab_close', { tab: mine!.tab })).text).toBe(`closed ${mine!.tab}`);
  });

  it('tells the next call on a tab that the routes and the trace set up there went with the worker', async () => {
    await linked.run('tab_new', { url: linked.fixtures.url('frames.html') });
    await linked.run('network_route', { action: 'add', url: '*/api/messages', block: true });
    await linked.run('network_route', { action: 'add', url: '*echo?x*', method: 'post', mock: { body: 'x' } });
    await linked.run('performance', { action: 'start' });
    const relinked = linked.nextLink();
    await linked.browser.stopWorker();
    await relinked;

    const listed = await linked.run('network_route', { action: 'list' });
    expect(listed.text).toBe(
      'Note: the extension restarted, and this tab lost its routes (r2 POST *echo?x*, r1 * */api/messages) and its ' +
        'performance trace: none of it applies now. To go on, add the routes again with `network_route`; start the ' +
        'trace again with `performance`.\nnetwork_route: 0 routes',
    );
    // Told once: the next call on the tab is as any other.
    expect((await linked.run('network_route', { action: 'list' })).text).toBe('network_route: 0 routes');
    await linked.run('tab_close');
  });

  it('comes back by its alarm alone when nothing else wakes it (idle, no tab attached)', async () => {
    const attached =
      await linked.browser.evaluate<Array<{ attached: boolean; tabId?: number }>>('chrome.debugger.getTargets()');
    expect(attached.filter((target) => target.attached && target.tabId !== undefined)).toEqual([]);
    const relinked = linked.nextLink();
    const stoppedAt = performance.now();
    await linked.browser.stopWorker();
    await relinked;
    const reconnectMs = performance.now() - stoppedAt;
    process.stderr.write(`idle worker stopped → linked again by its alarm in ${reconnectMs.toFixed(0)} ms\n`);
    // Wide for a loaded machine, and still well under the 30 s an alarm takes in Chrome at the least.
    expect(reconnectMs).toBeLessThan(15_000);
    expect(await linked.bridge.link()?.ping(2_000)).toBe(true);
  });
});
