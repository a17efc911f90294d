// A worker restarted while another debugger holds a tab whose routes it kept: its attach at start is refused, and it
// tries again once that debugger lets go, so the routes are set again with no call of the agent's on the tab.
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLinkedExtension, type LinkedExtension } from './support/linked-extension.js';
import { probePage } from './support/page-probe.js';
import { until } from './support/until.js';

let linked: LinkedExtension;

beforeAll(async () => {
  linked = await startLinkedExtension();
});

afterAll(async () => {
  await linked?.close();
});

/** Holds the next link's handshake until the returned release is called: the worker runs, unlinked, meanwhile. */
function holdNextLink(): () => void {
  const { auth } = linked;
  const secret = auth.secret.bind(auth);
  let release = () => undefined as void;
  const released = new Promise<void>((resolve) => (release = resolve));
  auth.secret = async () => {
    await released;
    auth.secret = secret;
    return secret();
  };
  return release;
}

describe('a restarted worker whose kept tab another debugger holds', () => {
  it('sets the routes again once that debugger lets go', async () => {
    const url = linked.fixtures.url('frames.html');
    await linked.run('tab_new', { url });
    await linked.run('network_route', { action: 'add', url: '*echo?mocked*', mock: { status: 201, body: 'kept' } });
    const tabId = await linked.browser.evaluate<number>(
      `chrome.tabs.query({}).then((tabs) => tabs.find((tab) => tab.url === ${JSON.stringify(url)}).id)`,
    );
    const probe = await probePage(linked.browser, url);
    const pageFetch = (query: string) =>
      probe.evaluate<string>(`fetch('/echo?${query}').then(async (r) => r.status + ' ' + (await r.text()))`);
    try {
      expect(await pageFetch('mocked=1')).toBe('201 kept');
      const release = holdNextLink();
      const relinked = linked.nextLink();
      await linked.browser.stopWorker();
      // The new worker lets go of the old one's attachment at its start; the one made here then holds the tab alone
      // (Chrome gives one chrome.debugger client per tab and extension), as the extension's own attach will find.
      const attach = `chrome.debugger.attach({ tabId: ${tabId} }, '1.3').then(() => true, () => false)`;
      expect(await until(() => linked.browser.evaluate<boolean>(attach), Boolean, 15_000)).toBe(true);
      release();
      await relinked;
      // Long enough for the attach at the link's start to be refused; let go well within the tries it makes.
      await sleep(1_000);
      await linked.browser.evaluate(`chrome.debugger.detach({ tabId: ${tabId} })`);
      expect(
        await until(
          () => pageFetch('mocked=2'),
          (text) => text === '201 kept',
          15_000,
        ),
      ).toBe('201 kept');
    } finally {
      await probe.close();
    }
    await linked.run('tab_close');
  });
});
