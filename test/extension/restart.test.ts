// The worker stopped mid-call, as Chrome does when it evicts one: the call in flight fails once, typed; the worker
// comes back on its own and dials again within 5 s; the next call runs, and the agent's tabs are still its own; the
// routes it held are set again on their tab before any call (a mock answers, a block holds), and what it could not
// keep (routes over the bound, a trace) is named as lost to the next call there.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Policy } from '../../shared/policy/policy.js';
import { ToolError } from '../../shared/protocol/errors.js';
import { TEST_POLICY, testServerPolicy } from '../support/test-policy.js';
import { startLinkedExtension, type LinkedExtension } from './support/linked-extension.js';
import { probePage } from './support/page-probe.js';
import { until } from './support/until.js';

let linked: LinkedExtension;
let policy: Policy = TEST_POLICY;

beforeAll(async () => {
  linked = await startLinkedExtension({ policy: () => policy });
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

  it("sets a tab's routes again as the new worker attaches it: a mock still answers, a block still holds", async () => {
    const url = linked.fixtures.url('frames.html');
    await linked.run('tab_new', { url });
    await linked.run('network_route', { action: 'add', url: '*echo?cut*', block: true });
    await linked.run('network_route', { action: 'add', url: '*echo?mocked*', mock: { status: 201, body: 'kept' } });
    const probe = await probePage(linked.browser, url);
    // The page's own fetch, made beside the extension's debugger: no call of the agent's comes near it.
    const pageFetch = (query: string) =>
      probe.evaluate<string>(
        `fetch('/echo?${query}').then(async (r) => r.status + ' ' + (await r.text()), (e) => 'failed ' + e.message)`,
      );
    try {
      expect(await pageFetch('mocked=1')).toBe('201 kept');
      const relinked = linked.nextLink();
      await linked.browser.stopWorker();
      await relinked;
      // No call on the tab yet: the new worker attaches it at its start and sets its routes again.
      expect(
        await until(
          () => pageFetch('mocked=2'),
          (text) => text === '201 kept',
          20_000,
        ),
      ).toBe('201 kept');
      expect(await pageFetch('cut=1')).toBe('failed Failed to fetch');
      expect(await pageFetch('free=1')).toMatch(/^200 \{"method":"GET","query":"\?free=1"/);
    } finally {
      await probe.close();
    }
    const listed = await linked.run('network_route', { action: 'list' });
    expect(listed.text).toMatch(
      new RegExp(
        "^Note: the extension restarted and set this tab's routes again \\(r2, r1\\); requests made while it was " +
          'down went out unrouted\\.\nnetwork_route: 2 routes\n' +
          'r2 \\* \\*echo\\?mocked\\* → mock 201 "kept" \\(\\d+ hits?\\)\n' +
          'r1 \\* \\*echo\\?cut\\* → block \\(1 hit\\)$',
      ),
    );
    // Ids count on from the routes set again.
    expect((await linked.run('network_route', { action: 'add', url: '*other*', block: true })).text).toMatch(
      /^network_route: added r3 /,
    );
    await linked.run('tab_close');
  });

  it('names as lost the routes over what it keeps whole, and the trace, to the next call on their tab', async () => {
    await linked.run('tab_new', { url: linked.fixtures.url('frames.html') });
    // Two bodies of 600,000 characters: only the newer fits in what the extension keeps (KEPT_ROUTE_CHARS).
    const big = 'x'.repeat(600_000);
    await linked.run('network_route', { action: 'add', url: '*echo?older*', mock: { body: big } });
    await linked.run('network_route', { action: 'add', url: '*echo?x*', method: 'post', mock: { body: big } });
    await linked.run('performance', { action: 'start' });
    const relinked = linked.nextLink();
    await linked.browser.stopWorker();
    await relinked;

    const listed = await linked.run('network_route', { action: 'list' });
    expect(listed.text.split('\n').slice(0, 3)).toEqual([
      "Note: the extension restarted and set this tab's routes again (r2); requests made while it was down went out " +
        'unrouted.',
      'Note: the extension restarted, and this tab lost its routes (r1 * *echo?older*) and its performance trace: ' +
        'none of it applies now. To go on, add the routes again with `network_route`; start the trace again with ' +
        '`performance`.',
      'network_route: 1 route',
    ]);
    // Told once: the next call on the tab is as any other.
    expect((await linked.run('network_route', { action: 'list' })).text).toMatch(/^network_route: 1 route\nr2 POST /);
    await linked.run('tab_close');
  });

  it('does not set again a route whose named site the policy refuses since, and names it as lost', async () => {
    await linked.run('tab_new', { url: linked.fixtures.url('frames.html') });
    const other = `${linked.fixtures.crossOrigin}/*`;
    await linked.run('network_route', { action: 'add', url: other, mock: { body: 'for the other site' } });
    await linked.run('network_route', { action: 'add', url: '*echo?mine*', block: true });
    // The other site (localhost) left to the person's `ask` from the next link on.
    policy = testServerPolicy('trusted', ['127.0.0.1']);
    try {
      const relinked = linked.nextLink();
      await linked.browser.stopWorker();
      await relinked;
      const listed = await linked.run('network_route', { action: 'list' });
      expect(listed.text.split('\n')).toEqual([
        "Note: the extension restarted and set this tab's routes again (r2); requests made while it was down went out " +
          'unrouted.',
        `Note: the extension restarted, and this tab lost its routes (r1 * ${other}): none of it applies now. To go ` +
          'on, add the routes again with `network_route`.',
        'network_route: 1 route',
        'r2 * *echo?mine* → block (0 hits)',
      ]);
    } finally {
      policy = TEST_POLICY;
      await linked.run('tab_close');
    }
  });

  it('names as lost, rather than sets again unasked, the routes of a link that ended', async () => {
    await linked.run('tab_new', { url: linked.fixtures.url('frames.html') });
    await linked.run('network_route', { action: 'add', url: '*echo?ended*', block: true });
    const relinked = linked.nextLink();
    linked.bridge.link()?.close(1000, 'the session ended');
    await relinked;
    const listed = await linked.run('network_route', { action: 'list' });
    expect(listed.text).toBe(
      'Note: the extension restarted, and this tab lost its routes (r1 * *echo?ended*): none of it applies now. To ' +
        'go on, add the routes again with `network_route`.\nnetwork_route: 0 routes',
    );
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
