// The late-send tests' one set-up through the real extension: a watched site the policy lets the agent act on (so only
// the script hold stops a send to it), the egress tab on egress-late.html, and the clean-up between tests.
import { afterAll, afterEach, beforeAll } from 'vitest';
import { heldLater } from '../../support/late-results.js';
import type { LateTab } from '../../support/late-tab.js';
import { testServerPolicy, type TestHost } from '../../support/test-policy.js';
import { startWatchedSite, type WatchedSite } from '../../support/watched-site.js';
import { startEgressTab, type EgressTab } from './egress-tab.js';
import type { LinkedExtension } from './linked-extension.js';
import { probePage, type PageProbe } from './page-probe.js';
import { reachedBesidesOwn } from './reached-site.js';
import { forgetWatched, withSite } from './watched-popups.js';

export interface WatchedEgressTab extends LateTab {
  readonly linked: LinkedExtension;
  /** The tab's handle. */
  readonly tab: string;
  /** The test's own session on the tab's page. */
  readonly page: PageProbe;
  /** Another tab on egress-late.html, in front, closed with the file's browser (late-cases.ts). */
  openTab(): Promise<LateTab>;
}

/**
 * Starts it all before the file's tests and closes it after; its fields are there once beforeAll ran. `hosts`: the test
 * servers' names the person trusts (localhost too for a frame of another site).
 */
export function watchedEgressTab(hosts: readonly TestHost[] = ['127.0.0.1']): WatchedEgressTab {
  let watched: WatchedSite | undefined;
  let started: EgressTab | undefined;
  beforeAll(async () => {
    const site = (watched = await startWatchedSite());
    started = await startEgressTab(() => withSite(testServerPolicy('trusted', hosts), site, 'act'), 'egress-late.html');
  });
  afterAll(async () => {
    await started?.close();
    await watched?.close();
  });
  const site = () => running(watched);
  const egress = () => running(started);
  afterEach(() => forgetWatched(egress().linked, site()));
  let opened = 0;
  return {
    ...actsOn(
      () => egress().tab,
      () => egress().page,
      egress,
      site,
    ),
    get watched() {
      return site();
    },
    get linked() {
      return egress().linked;
    },
    get tab() {
      return egress().tab;
    },
    get page() {
      return egress().page;
    },
    async openTab() {
      const { linked } = egress();
      // Its own address, so the probe finds this tab.
      const url = linked.fixtures.url(`egress-late.html?tab=${++opened}`);
      const tab = String((await linked.run('tab_new', { url, focus: true })).data?.['tab']);
      const page = await probePage(linked.browser, url);
      return {
        ...actsOn(
          () => tab,
          () => page,
          egress,
          site,
        ),
        get watched() {
          return site();
        },
      };
    },
  };
}

/** What a LateTab does on the tab `tab` names, probed by `page` (the set-up read only once the file runs). */
function actsOn(
  tab: () => string,
  page: () => PageProbe,
  egress: () => EgressTab,
  site: () => WatchedSite,
): Omit<LateTab, 'watched'> {
  return {
    run: (expression) => egress().linked.run('eval', { tab: tab(), expression }),
    asPage: (expression) => page().evaluate(expression),
    personClicks: () => page().click(5, 5),
    until: (marker) => page().until(marker),
    reached: () => reachedBesidesOwn(page(), site()),
    heldLater: (result) => heldLater(result, site()),
  };
}

/** Fails loudly where module-level code reads the tab before beforeAll has started it. */
function running<T>(value: T | undefined): T {
  if (value === undefined) throw new Error('the egress tab starts in beforeAll: use it inside a hook or test');
  return value;
}
