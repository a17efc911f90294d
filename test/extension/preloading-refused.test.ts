// Where Chrome's "Preload pages" stays on whatever the extension sets (here another extension holds it on, as a policy
// of the person's would), the agent's script is refused unsent with PRELOADING_ON, reads still work, and scripts run
// again once the setting is let go: the browser's own preloading would send what a script puts in a link. Held off by
// another extension (a content blocker's "disable prefetching"), preloading is off all the same, and scripts run.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLinkedExtension, type LinkedExtension } from './support/linked-extension.js';
import { probePage, type PageProbe } from './support/page-probe.js';
import { preloadingHeldExtension, type PreloadingHeld } from './support/preloading-held.js';

interface HeldTab {
  held: PreloadingHeld;
  linked: () => LinkedExtension;
  /** The agent's eval of a script that marks the page. */
  mark: () => Promise<{ text: string }>;
  /** Whether that script ran, as the page itself tells. */
  marked: () => Promise<boolean>;
  tab: () => string;
}

/** The describe's browser, with another extension installed after ours holding the setting at `value`, and a tab. */
function heldTab(value: boolean): HeldTab {
  const held = preloadingHeldExtension(value);
  let started: { linked: LinkedExtension; tab: string; page: PageProbe } | undefined;
  beforeAll(async () => {
    const linked = await startLinkedExtension({ extensions: [held.dir] });
    const url = linked.fixtures.url('nav-a.html');
    const tab = String((await linked.run('tab_new', { url, focus: true })).data?.['tab']);
    started = { linked, tab, page: await probePage(linked.browser, url) };
  });
  afterAll(async () => {
    await started?.page.close();
    await started?.linked.close();
    held.remove();
  });
  const now = () => started ?? assertStarted();
  return {
    held,
    linked: () => now().linked,
    tab: () => now().tab,
    mark: () => now().linked.run('eval', { tab: now().tab, expression: 'window.ran = 1' }),
    marked: () => now().page.evaluate<boolean>("'ran' in window"),
  };
}

function assertStarted(): never {
  throw new Error('the browser starts in beforeAll: use it inside a test');
}

describe('a script while "Preload pages" cannot be turned off', () => {
  const on = heldTab(true);

  it('is refused with PRELOADING_ON and a next step, and never runs; reads still work', async () => {
    for (let attempt = 0; attempt < 2; attempt++) {
      const refused = await on.mark().catch((error: unknown) => error);
      expect(refused).toMatchObject({ code: 'PRELOADING_ON', next: expect.stringMatching(/Reads, clicks/) });
    }
    expect(await on.marked()).toBe(false);
    expect((await on.linked().run('get_text', { tab: on.tab() })).text).toContain('Page A');
  });

  it('runs once the setting is let go', async () => {
    await on.held.letGo(on.linked().browser);
    expect((await on.mark()).text).toBe('1');
    expect(await on.marked()).toBe(true);
  });
});

describe('a script while another extension holds "Preload pages" off', () => {
  const off = heldTab(false);

  it('runs', async () => {
    const setting = 'chrome.privacy.network.networkPredictionEnabled.get({})';
    expect(await off.linked().browser.evaluate(setting)).toEqual({
      levelOfControl: 'controlled_by_other_extensions',
      value: false,
    });
    expect((await off.mark()).text).toBe('1');
    expect(await off.marked()).toBe(true);
  });
});
