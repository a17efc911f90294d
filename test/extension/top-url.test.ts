// The top URL the extension keeps per tab instead of asking chrome.tabs.get before every eval (top-urls.ts) follows the
// tab through the real extension: after the person or the agent takes the tab to another site, the next eval's
// worker hold names the new site; and the policy's refusal of the site stands on the very next call.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WORKER_HOLD_KEY } from '../../extension/src/worker-hold-record.js';
import { parseSitePattern } from '../../shared/policy/pattern.js';
import type { Policy } from '../../shared/policy/policy.js';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { testServerPolicy } from '../support/test-policy.js';
import { startLinkedExtension, type LinkedExtension } from './support/linked-extension.js';
import { until } from './support/until.js';

const TRUSTED = testServerPolicy('trusted');

let current: Policy = TRUSTED;
let linked: LinkedExtension;
let tab: string;
let tabId: number;
let main: string;
let other: string;
/** A second server: another port, so a third origin. */
let third: FixtureServer;

beforeAll(async () => {
  // Started first, so the policy the extension is sent grants it too.
  third = await startFixtureServer();
  linked = await startLinkedExtension({ policy: () => current });
  main = new URL(linked.fixtures.url('nav-a.html')).origin;
  other = linked.fixtures.crossOrigin;
  const opened = await linked.run('tab_new', { url: `${main}/nav-a.html` });
  tab = String(opened.data?.['tab']);
  tabId = await linked.browser.evaluate<number>(
    `chrome.tabs.query({ url: '${main}/nav-a.html' }).then((tabs) => tabs[0].id)`,
  );
});

afterAll(async () => {
  await linked?.close();
  await third?.close();
});

/** The origins the worker hold keeps for the tab (worker-hold-record.ts), as the extension stored them. */
async function heldOrigins(): Promise<string[]> {
  const record = await linked.browser.evaluate<[number, { origins: string[] }][] | undefined>(
    `chrome.storage.session.get('${WORKER_HOLD_KEY}').then((stored) => stored['${WORKER_HOLD_KEY}'])`,
  );
  return record?.find(([id]) => id === tabId)?.[1].origins ?? [];
}

/** The tab's URL once it finished loading `url`, read in the extension's worker. */
const loaded = (url: string) =>
  until(
    () => linked.browser.evaluate<string>(`chrome.tabs.get(${tabId}).then((t) => t.status + ' ' + t.url)`),
    (state) => state === `complete ${url}`,
  );

/** `ok` with the page's title, or the error code. */
const title = () =>
  linked.run('eval', { tab, expression: 'document.title' }).then(
    (result) => `ok ${result.text}`,
    (error: { code?: string }) => error.code ?? String(error),
  );

describe('the top URL kept per tab', () => {
  it('follows the person taking the tab to another site: the next eval holds that site’s workers', async () => {
    expect(await title()).toMatch(/^ok /);
    // Twice on the same page: the second eval is the one that reads what the first one kept.
    expect(await title()).toMatch(/^ok /);
    expect(await heldOrigins()).toEqual([main]);
    await linked.browser.evaluate(`chrome.tabs.update(${tabId}, { url: '${other}/nav-b.html' }).then(() => true)`);
    expect(await loaded(`${other}/nav-b.html`)).toBe(`complete ${other}/nav-b.html`);
    expect(await title()).toMatch(/^ok /);
    expect(await heldOrigins()).toEqual([main, other]);
  });

  it('follows the agent taking the tab to another site, and a site refused since is refused on the next call', async () => {
    await linked.run('navigate', { tab, url: third.url('nav-a.html') });
    expect(await loaded(third.url('nav-a.html'))).toBe(`complete ${third.url('nav-a.html')}`);
    expect(await title()).toMatch(/^ok /);
    expect(await heldOrigins()).toEqual([main, other, new URL(third.url('')).origin]);
    current = { ...TRUSTED, rules: [{ site: parseSitePattern(new URL(third.url('')).host), level: 'blocked' }] };
    linked.bridge.policyChanged();
    expect(await title()).toBe('POLICY_DENIED');
  });
});
