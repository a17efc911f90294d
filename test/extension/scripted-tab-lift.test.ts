// A tab an agent's script ran in, held by the extension's rules while no engine follows it (scripted-tabs.ts), through
// the real extension with no core to link again and a worker that stopped meanwhile: the hold lifts once the script's
// document is gone for good (the person takes the tab to another site, whose own sends to other origins then load), but
// not for a document the script could write itself (a blob: page of its own origin), and a closed tab leaves no rule
// and no record behind.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCRIPTED_TABS_KEY } from '../../extension/src/scripted-tabs.js';
import type { Policy } from '../../shared/policy/policy.js';
import { testServerPolicy } from '../support/test-policy.js';
import { startWatchedSite, type WatchedSite } from '../support/watched-site.js';
import { startEgressTab, type EgressTab } from './support/egress-tab.js';
import type { LinkedExtension } from './support/linked-extension.js';
import { probePage, type PageProbe } from './support/page-probe.js';
import { rulesFor } from './support/session-rules.js';
import { until } from './support/until.js';

let started: EgressTab;
let linked: LinkedExtension;
/** A site neither the policy nor the scripts name, which pages send to. */
let elsewhere: WatchedSite;
/**
 * The tab the person takes to another site once no engine follows it, the one they took there while one did, and the
 * one whose script writes a page of its own.
 */
let taken: Tab;
let moved: Tab;
let written: Tab;

interface Tab {
  page: PageProbe;
  tabId: number;
}

/** The fixture page the tabs start at (`query` tells them apart). */
const at = (query: string) => linked.fixtures.url(`egress-late.html${query}`);

/** The chrome tab showing `url`, as the extension's worker knows it. */
const tabIdAt = (url: string) =>
  linked.browser.evaluate<number>(`chrome.tabs.query({ url: ${JSON.stringify(url)} }).then(([tab]) => tab.id)`);

const kept = () =>
  linked.browser.evaluate<number[]>(
    `chrome.storage.session.get('${SCRIPTED_TABS_KEY}').then((stored) =>
      (stored['${SCRIPTED_TABS_KEY}'] ?? []).map(([tabId]) => tabId))`,
  );

/**
 * Whether the extension holds no attachment of the tab (Chrome gives one chrome.debugger client per tab and extension):
 * one made here is let go of at once.
 */
const attachable = (tabId: number) =>
  linked.browser.evaluate<boolean>(
    `chrome.debugger.attach({ tabId: ${tabId} }, '1.3').then(() => chrome.debugger.detach({ tabId: ${tabId} })).then(
      () => true, () => false)`,
  );

/** A new tab at `at(query)`, with a probe on it. */
async function opened(query: string): Promise<Tab> {
  await linked.run('tab_new', { url: at(query) });
  return { page: await probePage(linked.browser, at(query)), tabId: await tabIdAt(at(query)) };
}

/** Runs `expression` as the agent's script in the tab showing `url`. */
async function run(url: string, expression: string): Promise<void> {
  const tabs = (await linked.run('tabs')).data?.['tabs'] as Array<{ tab: string; url: string }>;
  await linked.run('eval', { tab: tabs.find((tab) => tab.url === url)!.tab, expression });
}

/** A page that sends to `elsewhere` every 100 ms, counting its sends in `window.blobSent`. */
const blobPage = () =>
  `<script>let n = 0; setInterval(() => { fetch('${elsewhere.origin}/blob?n=' + n++, { mode: 'no-cors' });
  window.blobSent = n; }, 100);</` + `script>`;

/**
 * The person takes the page's tab to the fixture page on the other site (`query` tells the tabs apart), and it has
 * loaded: the URL commits before the page's script defines `pageSend`.
 */
async function takeElsewhere(page: PageProbe, query: string): Promise<void> {
  const there = `${linked.fixtures.crossOrigin}/egress-late.html${query}`;
  await page.navigate(there);
  const loaded = () =>
    page.evaluate<string>(`document.readyState === 'complete' ? location.href : ''`).catch(() => 'navigating');
  expect(await until(loaded, (href) => href === there)).toBe(there);
}

/** The page's own send to `elsewhere` at `path` arrives (tried again while a hold's lifting is on its way). */
async function sendsFrom(page: PageProbe, path: string): Promise<void> {
  const send = () => page.evaluate<string>(`pageSend('${elsewhere.origin}${path}')`);
  expect(await until(send, (outcome) => outcome === 'sent', 20_000)).toBe('sent');
  expect(elsewhere.requests).toContain(path);
}

beforeAll(async () => {
  elsewhere = await startWatchedSite('127.0.0.4');
  const policy = (): Policy => testServerPolicy('trusted');
  started = await startEgressTab(policy, 'egress-late.html');
  linked = started.linked;
  taken = { page: started.page, tabId: await tabIdAt(at('')) };
  moved = await opened('?m');
  written = await opened('?w');
  await run(at(''), '1');
  await run(at('?m'), '1');
  await takeElsewhere(moved.page, '?m');
  // Once the page sets `window.goBlob`, the script's timer takes its tab to a page it wrote, of its own origin.
  await run(
    at('?w'),
    `{ const timer = setInterval(() => { if (!window.goBlob) return; clearInterval(timer);
      location = URL.createObjectURL(new Blob([${JSON.stringify(blobPage())}], { type: 'text/html' })); }, 50); } 0`,
  );
  // The core refuses the extension from now on: the session ends, and the restarted worker links no more.
  linked.auth.unpaired = true;
  linked.bridge.link()?.close(1000, 'the session ended');
  await linked.browser.stopWorker();
  // The person acts once the new worker let go of the old one's attachments (it sweeps them at its start): a navigation
  // one of them paused before then is failed, for none can tell it from a script's (orphan-requests.ts).
  for (const { tabId } of [taken, moved, written]) expect(await until(() => attachable(tabId), Boolean)).toBe(true);
  for (const { tabId } of [taken, written])
    expect(await until(() => rulesFor(linked.browser, tabId), Boolean)).not.toBe(0);
}, 90_000);

afterAll(async () => {
  for (const probe of [moved, written]) await probe?.page.close().catch(() => undefined);
  await started?.close();
  await elsewhere?.close();
});

describe('a scripted tab no engine follows', () => {
  it('taken by the person to another site: the hold lifts, and that site’s own sends to other origins load', async () => {
    await takeElsewhere(taken.page, '?t');
    await sendsFrom(taken.page, '/taken');
    expect(await rulesFor(linked.browser, taken.tabId)).toBe(0);
  }, 90_000);

  it('taken to another site while an engine followed it: no hold once none does', async () => {
    await sendsFrom(moved.page, '/moved');
    expect(await rulesFor(linked.browser, moved.tabId)).toBe(0);
  }, 90_000);

  it('taken by its script to a blob: page it wrote: that page reaches no other origin', async () => {
    await written.page.evaluate('window.goBlob = true');
    const sent = () => written.page.evaluate<number>('window.blobSent ?? 0').catch(() => 0);
    expect(await until(sent, (count) => count >= 20, 20_000)).toBeGreaterThanOrEqual(20);
    expect(await written.page.evaluate<string>('location.protocol')).toBe('blob:');
    await elsewhere.settled();
    expect(elsewhere.requests.filter((path) => path.startsWith('/blob'))).toEqual([]);
    expect(await rulesFor(linked.browser, written.tabId)).toBeGreaterThan(0);
  }, 90_000);

  it('closed: no rule and no record of it stay', async () => {
    await linked.browser.evaluate(`chrome.tabs.remove(${written.tabId})`);
    expect(
      await until(
        () => rulesFor(linked.browser, written.tabId),
        (count) => count === 0,
      ),
    ).toBe(0);
    expect(await until(kept, (tabIds) => !tabIds.includes(written.tabId))).not.toContain(written.tabId);
  }, 90_000);
});
