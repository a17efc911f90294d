// What the extension's egress tests start from: the linked extension, its browser running page timers as the fallback's
// does, and one tab in front on a fixture page, with a probe on that page.
import type { Policy } from '../../../shared/policy/policy.js';
import { startLinkedExtension, type LinkedExtension } from './linked-extension.js';
import { probePage, type PageProbe } from './page-probe.js';

export interface EgressTab {
  linked: LinkedExtension;
  /** The tab's handle. */
  tab: string;
  page: PageProbe;
  close(): Promise<void>;
}

export async function startEgressTab(policy: () => Policy, fixture: string): Promise<EgressTab> {
  // The late sends come from the page's timers, which a busy or hidden tab of the person's Chromium may hold back for
  // tens of seconds (measured on Chromium 156: a 200 ms timer never fired while microtasks ran); the hold is what is
  // under test, not Chrome's throttling.
  const linked = await startLinkedExtension({
    policy,
    args: [
      '--disable-background-timer-throttling',
      '--disable-renderer-backgrounding',
      '--disable-backgrounding-occluded-windows',
    ],
  });
  try {
    const url = linked.fixtures.url(fixture);
    const tab = String((await linked.run('tab_new', { url, focus: true })).data?.['tab']);
    const page = await probePage(linked.browser, url);
    return {
      linked,
      tab,
      page,
      async close() {
        // A test may have closed the tab, and the probe's session with it.
        await page.close().catch(() => undefined);
        await linked.close();
      },
    };
  } catch (error) {
    await linked.close();
    throw error;
  }
}
