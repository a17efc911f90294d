// The new-window hold inside the real extension: during the agent's acts a window a page's script opens into a
// refused site gets no request at all (chrome.debugger alone could only close it after its first), one into an
// allowed site loads and is guarded, and a tab the person opens meanwhile is never touched.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Policy } from '../../shared/policy/policy.js';
import { ToolError } from '../../shared/protocol/errors.js';
import { startWatchedSite, type WatchedSite } from '../support/watched-site.js';
import { startLinkedExtension, type LinkedExtension } from './support/linked-extension.js';
import { until } from './support/until.js';
import { forgetWatched, openLinksPage as openLinks, withSite } from './support/watched-popups.js';
import { testServerPolicy } from '../support/test-policy.js';

const HOME = testServerPolicy('act', ['127.0.0.1']);
let current: Policy = HOME;
let linked: LinkedExtension;
let watched: WatchedSite;

beforeAll(async () => {
  watched = await startWatchedSite();
  linked = await startLinkedExtension({ policy: () => current });
});

afterAll(async () => {
  await linked?.close();
  await watched?.close();
});

afterEach(() => forgetWatched(linked, watched));

function change(policy: Policy): void {
  current = policy;
  linked.bridge.policyChanged();
}

const withWatched = (level: 'blocked' | 'act'): Policy => withSite(HOME, watched, level);
const openLinksPage = () => openLinks(linked, watched);

const watchedTabCount = () =>
  linked.browser.evaluate<number>(`chrome.tabs.query({ url: '${watched.origin}/*' }).then((tabs) => tabs.length)`);
/** The act hold's block of every new tab's page, whatever its site (the rules that stand name theirs). */
const blanketBlocks = () =>
  linked.browser.evaluate<number>(
    `chrome.declarativeNetRequest.getSessionRules().then((rules) => rules.filter((rule) => rule.action.type === 'block'
      && rule.condition.resourceTypes && !rule.condition.regexFilter && !rule.condition.requestDomains).length)`,
  );
const sessionRuleCount = () =>
  linked.browser.evaluate<number>('chrome.declarativeNetRequest.getSessionRules().then((rules) => rules.length)');

describe('windows a driven page opens during an act', () => {
  it('into a refused site: no request reaches it, every time, and each click says the window was refused', async () => {
    change(withWatched('blocked'));
    const tab = await openLinksPage();
    const host = new URL(watched.origin).host;
    for (let round = 0; round < 20; round++) {
      const error = await linked.run('click', { tab, selector: '#popup' }).then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
      expect(error, `round ${round}`).toBeInstanceOf(ToolError);
      expect((error as ToolError).code).toBe('POLICY_DENIED');
      expect((error as ToolError).message).toContain(`(a new window at ${host}) was refused`);
    }
    // The engine still closes each blocked window (it shows Chrome's "blocked" page until then).
    expect(await until(watchedTabCount, (count) => count === 0)).toBe(0);
    await watched.settled();
    expect(watched.requests).toEqual([]);
    await linked.run('tab_close', { tab });
  });

  it('into an allowed site: loads, and is guarded like any popup', async () => {
    change(withWatched('act'));
    const tab = await openLinksPage();
    await linked.run('click', { tab, selector: '#popup' });
    // Let through by the hold's allow rule for the watched site (Chrome took its regex), not by a hold that failed.
    const actions = await linked.browser.evaluate<string[]>(
      'chrome.declarativeNetRequest.getSessionRules().then((rules) => rules.map((rule) => rule.action.type))',
    );
    expect(actions).toContain('allow');
    const listed = await until(
      async () =>
        ((await linked.run('tabs')).data?.['tabs'] as { tab: string; url: string }[]).filter((entry) =>
          entry.url.startsWith(watched.origin),
        ),
      (tabs) => tabs.length === 1,
    );
    const popup = listed[0]?.tab;
    expect(popup).toBeDefined();
    expect((await linked.run('wait_for', { tab: popup, text: 'Watched site' })).text).toBeTruthy();
    expect(watched.requests).toContain('/');
    change(withWatched('blocked'));
    const refused = await linked.run('navigate', { tab: popup, url: `${watched.origin}/?again` }).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect((refused as ToolError).code).toBe('POLICY_DENIED');
    expect(watched.requests).not.toContain('/?again');
    await linked.run('tab_close', { tab });
  });

  it('leaves a tab the person opens during the hold alone, even at a site the agent may not read', async () => {
    change(withWatched('blocked'));
    const tab = await openLinksPage();
    // Any act holds new windows for a few seconds after it; a click on the heading opens nothing itself.
    await linked.run('click', { tab, selector: 'h1' });
    expect(await sessionRuleCount()).toBeGreaterThan(0);
    await linked.browser.evaluate(
      `chrome.tabs.create({ url: '${watched.origin}/?person', active: false }).then(() => true)`,
    );
    expect(
      await until(
        async () => watched.requests,
        (requests) => requests.includes('/?person'),
      ),
    ).toContain('/?person');
    // Still held when the tab loaded: the hold was there and did not touch it.
    expect(await sessionRuleCount()).toBeGreaterThan(0);
    await linked.run('tab_close', { tab });
  });

  it('lets go of its act rules a few seconds after the last act; the refused site stays refused', async () => {
    change(withWatched('blocked'));
    const tab = await openLinksPage();
    await linked.run('click', { tab, selector: 'h1' });
    expect(await blanketBlocks()).toBeGreaterThan(0);
    expect(await until(blanketBlocks, (count) => count === 0, 10_000)).toBe(0);
    // What stands while the tab is driven names the refused site.
    const host = new URL(watched.origin).host.replaceAll('.', '\\.');
    const named = await linked.browser.evaluate<string[]>(
      `chrome.declarativeNetRequest.getSessionRules().then((rules) => rules.flatMap((rule) =>
        rule.action.type === 'block' && rule.condition.regexFilter ? [rule.condition.regexFilter] : []))`,
    );
    expect(named.some((regex) => regex.includes(host))).toBe(true);
    await linked.run('tab_close', { tab });
  });
});
