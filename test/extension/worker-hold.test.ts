// What an agent's script leaves for the site's workers stays held in the person's Chrome for as long as its tab lives,
// through the real extension: a blob shared worker or a service-worker message the page starts while no engine follows
// the tab (the session ended, or the extension's worker restarted, and the core takes no new link) reaches no other
// origin, nor once an engine follows the tab again; once the tab closed and its grace passed, the site's workers are free
// again. The page's own traffic to other origins waits for an engine to follow the tab again (the tab's own hold,
// scripted-tabs.ts, keeps it to the script's origins meanwhile), then flows.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CLOSED_GRACE_MS, WORKER_HOLD_ALARM, WORKER_HOLD_KEY } from '../../extension/src/worker-hold-record.js';
import { laterSenders } from '../support/late-scripts.js';
import { testServerPolicy } from '../support/test-policy.js';
import { startWatchedSite, type WatchedSite } from '../support/watched-site.js';
import { startEgressTab, type EgressTab } from './support/egress-tab.js';
import type { LinkedExtension } from './support/linked-extension.js';
import { probePage, type PageProbe } from './support/page-probe.js';
import { rulesFor } from './support/session-rules.js';
import { until } from './support/until.js';
import { withSite } from './support/watched-popups.js';

let started: EgressTab;
let linked: LinkedExtension;
let watched: WatchedSite;
let page: PageProbe;
let url: string;

// The page's own: its service worker (egress-late-sw.js) controls it, as a site's would.
const CONTROLLED = `navigator.serviceWorker.register('/egress-late-sw.js').then(() => navigator.serviceWorker.controller
  ? true : new Promise((resolve) => navigator.serviceWorker.addEventListener('controllerchange', () => resolve(true))))`;

beforeAll(async () => {
  watched = await startWatchedSite();
  // The watched site may be read and acted on: only the worker hold keeps the workers from it.
  const policy = () => withSite(testServerPolicy('trusted'), watched, 'act');
  started = await startEgressTab(policy, 'egress-late.html');
  ({ linked, page } = started);
  url = linked.fixtures.url('egress-late.html');
});

beforeEach(() => {
  watched.requests.length = 0;
});

afterAll(async () => {
  await started?.close();
  await watched?.close();
});

/** The tab's handle in the current session (a new link is a new session, whose handles are new). */
async function handle(): Promise<string> {
  const tabs = (await linked.run('tabs')).data?.['tabs'] as Array<{ tab: string; url: string }>;
  return tabs.find((tab) => tab.url === url)!.tab;
}

/** Has an eval leave the later senders to `path` on the watched site in the tab. */
async function leaveSenders(path: string): Promise<void> {
  await linked.run('eval', { tab: await handle(), expression: laterSenders(`${watched.origin}${path}`) });
}

/** Chrome's id of the tab. */
const tabId = () =>
  linked.browser.evaluate<number>(`chrome.tabs.query({ url: ${JSON.stringify(url)} }).then((tabs) => tabs[0].id)`);

/** Whether the extension holds the tab with its debugger (getTargets' `attached` counts the test's probe too). */
const attached = async () =>
  linked.browser.evaluate<boolean>(
    `chrome.debugger.sendCommand({ tabId: ${await tabId()} }, 'Runtime.evaluate', { expression: '1' }).then(() => true, () => false)`,
  );

/**
 * The core refuses the extension from now on, and `end` ends its link: the extension lets go of the tab, and no new
 * session follows it again (one would at once, as it follows every tab a script ran in) until `relink`.
 */
async function letGo(end: () => Promise<void> | void): Promise<void> {
  linked.auth.unpaired = true;
  await end();
  expect(await until(attached, (held) => !held)).toBe(false);
}

/** The agent's session ends, as its link does. */
const sessionEnds = () => linked.bridge.link()?.close(1000, 'the session ended');

/** The core takes the extension back, and the person presses Reconnect: the new session follows the tab again. */
async function relink(): Promise<void> {
  linked.auth.unpaired = false;
  const relinked = linked.nextLink();
  const popup = await linked.browser.openPage('popup.html');
  try {
    await popup.evaluate(`document.getElementById('reconnect').click()`);
    await relinked;
  } finally {
    await popup.close();
  }
  expect(await until(attached, Boolean)).toBe(true);
  // Followed again once the engine's trail stands there: only then does the tab's own hold (session rules) go.
  expect(
    await until(
      async () => rulesFor(linked.browser, await tabId()),
      (rules) => rules === 0,
    ),
  ).toBe(0);
}

/** The page's own fetch of `target`: 'sent' or 'failed'. */
const pageSend = (probe: PageProbe, target: string) => probe.evaluate<string>(`pageSend(${JSON.stringify(target)})`);

describe('what a script leaves for the workers stays held while its tab lives, through the extension', () => {
  it('a blob shared worker the page starts after the tab was let go reaches no other origin; the page’s own send does once followed', async () => {
    await leaveSenders('/shared-let-go');
    await letGo(sessionEnds);
    expect(await page.evaluate('window.laterShared()')).toBe(true);
    // No engine tells the page's own sends from the script's: the tab's hold keeps them all.
    expect(await pageSend(page, `${watched.origin}/page-unfollowed`)).toBe('failed');
    await relink();
    expect(await pageSend(page, `${watched.origin}/page-own`)).toBe('sent');
    expect(watched.requests).toEqual(['/page-own']);
  });

  it('a message posted to the site’s service worker after the tab was let go reaches no other origin', async () => {
    await page.evaluate(CONTROLLED);
    await leaveSenders('/sw-let-go');
    await letGo(sessionEnds);
    expect(await page.evaluate('window.laterMessage()')).toBe(true);
    expect(watched.requests).toEqual([]);
    // The site's worker still fetches its own origin: the page's own request through it goes out.
    expect(await pageSend(page, linked.fixtures.url('egress-late.html?own'))).toBe('sent');
    await relink();
    // Followed again, the page's own request to another origin goes past the engine; the cost: when its worker
    // fetches it again, it is held with the worker.
    expect(await pageSend(page, `${watched.origin}/through-worker`)).toBe('failed');
    expect(watched.requests).toEqual([]);
  });

  it('stays up across a restart of the extension’s worker', async () => {
    await leaveSenders('/after-restart');
    // The new worker let go of the old one's attachment (it sweeps them at start).
    await letGo(() => linked.browser.stopWorker());
    expect(await page.evaluate('window.laterShared()')).toBe(true);
    expect(await page.evaluate('window.laterMessage()')).toBe(true);
    expect(watched.requests).toEqual([]);
    await relink();
    expect(await page.evaluate('window.laterShared()')).toBe(true);
    expect(await page.evaluate('window.laterMessage()')).toBe(true);
    expect(watched.requests).toEqual([]);
  });

  it('stays up for a grace after the tab closes, then the site’s workers are free again', async () => {
    const closing = await tabId();
    // Another page of the site, the person's own: its worker is the same, its messages its own.
    const otherUrl = linked.fixtures.url('egress-late.html?other');
    await linked.browser.control.send('Target.createTarget', { url: otherUrl });
    const other = await probePage(linked.browser, otherUrl);
    try {
      // Found while it still shows the blank page it starts from: loaded once its own document is complete.
      const loaded = () =>
        other.evaluate<boolean>(`location.href === ${JSON.stringify(otherUrl)} && document.readyState === 'complete'`);
      expect(await until(() => loaded().catch(() => false), Boolean)).toBe(true);
      await other.evaluate(CONTROLLED);
      await linked.browser.evaluate(`chrome.tabs.remove(${closing})`);
      const lives = () => linked.browser.evaluate<boolean>(`chrome.tabs.get(${closing}).then(() => true, () => false)`);
      expect(await until(lives, (live) => !live)).toBe(false);

      await other.evaluate(laterSenders(`${watched.origin}/in-grace`));
      expect(await other.evaluate('window.laterMessage()')).toBe(true);
      expect(watched.requests).toEqual([]);

      const closedAt = () =>
        linked.browser.evaluate<number | null>(
          `chrome.storage.session.get('${WORKER_HOLD_KEY}').then((stored) =>
            stored['${WORKER_HOLD_KEY}'].find(([id]) => id === ${closing})?.[1].closedAt ?? null)`,
        );
      expect(await until(closedAt, (at) => at !== null)).not.toBeNull();
      // The grace passes: the record says the tab closed that long ago, and its alarm goes off now.
      await linked.browser.evaluate(
        `chrome.storage.session.get('${WORKER_HOLD_KEY}').then((stored) => chrome.storage.session.set({
          '${WORKER_HOLD_KEY}': stored['${WORKER_HOLD_KEY}'].map(([id, held]) =>
            [id, held.closedAt === undefined ? held : { ...held, closedAt: held.closedAt - ${CLOSED_GRACE_MS} }]),
        })).then(() => chrome.alarms.create('${WORKER_HOLD_ALARM}', { when: Date.now() }))`,
      );
      const workerRules = () =>
        linked.browser.evaluate<number>(
          'chrome.declarativeNetRequest.getSessionRules().then((rules) => rules.filter((rule) => rule.condition.tabIds?.includes(-1)).length)',
        );
      expect(await until(workerRules, (count) => count === 0)).toBe(0);

      await other.evaluate(laterSenders(`${watched.origin}/after-grace`));
      expect(await other.evaluate('window.laterMessage()')).toBe(true);
      expect(watched.requests).toEqual(['/after-grace']);
    } finally {
      await other.close();
    }
  });

  it('a message the script posts as it runs, its first on the site, reaches no other origin', async () => {
    // A site no script ran on yet (the fixture server's other name): its workers are held before the script is sent.
    url = `${linked.fixtures.crossOrigin}/egress-late.html`;
    await linked.run('tab_new', { url });
    const fresh = await probePage(linked.browser, url);
    try {
      await fresh.evaluate(CONTROLLED);
      await linked.run('eval', {
        tab: await handle(),
        expression: `navigator.serviceWorker.onmessage = () => (window.swDone = true);
          navigator.serviceWorker.controller.postMessage('${watched.origin}/at-once'); 0`,
      });
      await fresh.until('swDone');
      expect(watched.requests).toEqual([]);
    } finally {
      await fresh.close();
    }
  });

  it('holds the workers from every origin, their own too, when Chrome refuses the rules (its regex budget full)', async () => {
    // Other regex rules take the whole budget (as a long policy's window holds could): the hold's own allow, a regex,
    // cannot be added.
    await linked.browser.evaluate(`chrome.declarativeNetRequest.getSessionRules().then((rules) => {
      const free = chrome.declarativeNetRequest.MAX_NUMBER_OF_REGEX_RULES - rules.filter((rule) => rule.condition.regexFilter).length;
      return chrome.declarativeNetRequest.updateSessionRules({ addRules: Array.from({ length: free }, (_, i) => ({
        id: 1_000_000 + i, priority: 1, action: { type: 'block' },
        condition: { regexFilter: '^https://filler-' + i + '\\\\.invalid/', resourceTypes: ['main_frame'] } })) });
    })`);
    url = linked.fixtures.url('egress-late.html?budget');
    await linked.run('tab_new', { url });
    const budget = await probePage(linked.browser, url);
    try {
      await budget.evaluate(CONTROLLED);
      await leaveSenders('/over-budget');
      const workerRules = () =>
        linked.browser.evaluate<string[]>(
          `chrome.declarativeNetRequest.getSessionRules().then((rules) => rules.filter((rule) => rule.condition.tabIds?.includes(-1))
            .map((rule) => rule.action.type + ' ' + rule.condition.initiatorDomains).sort())`,
        );
      // Blocks, no allow: the cost of failing closed is that the sites' workers reach not even their own origin.
      expect(await until(workerRules, (rules) => rules.includes('block 127.0.0.1'))).toEqual([
        'block 127.0.0.1',
        'block localhost',
      ]);
      expect(await budget.evaluate('window.laterShared()')).toBe(true);
      expect(await budget.evaluate('window.laterMessage()')).toBe(true);
      expect(watched.requests).toEqual([]);
    } finally {
      await budget.close();
    }
  });
});
