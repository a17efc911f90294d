// The late-send tests' one set-up through the real extension: a watched site the policy lets the agent act on (so only
// the script hold stops a send to it), the egress tab on egress-late.html, and the clean-up between tests.
import { afterAll, afterEach, beforeAll } from 'vitest';
import { heldLater } from '../../support/late-results.js';
import type { LateTab } from '../../support/late-tab.js';
import { testServerPolicy, type TestHost } from '../../support/test-policy.js';
import { startWatchedSite, type WatchedSite } from '../../support/watched-site.js';
import { startEgressTab, type EgressTab } from './egress-tab.js';
import type { LinkedExtension } from './linked-extension.js';
import type { PageProbe } from './page-probe.js';
import { reachedBesidesOwn } from './reached-site.js';
import { forgetWatched, withSite } from './watched-popups.js';

export interface WatchedEgressTab extends LateTab {
  readonly linked: LinkedExtension;
  /** The tab's handle. */
  readonly tab: string;
  /** The test's own session on the tab's page. */
  readonly page: PageProbe;
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
  return {
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
    run: (expression) => egress().linked.run('eval', { tab: egress().tab, expression }),
    asPage: (expression) => egress().page.evaluate(expression),
    personClicks: () => egress().page.click(5, 5),
    until: (marker) => egress().page.until(marker),
    reached: () => reachedBesidesOwn(egress().page, site()),
    heldLater: (result) => heldLater(result, site()),
  };
}

/** Fails loudly where module-level code reads the tab before beforeAll has started it. */
function running<T>(value: T | undefined): T {
  if (value === undefined) throw new Error('the egress tab starts in beforeAll: use it inside a hook or test');
  return value;
}
