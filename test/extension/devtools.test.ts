// Another debugger on the tab the agent drives. DevTools, opened first, shares the tab with chrome.debugger on
// Chromium 156, so the extension must simply work; the one client Chrome refuses to share with is a chrome.debugger
// attachment of the same extension, which is how DEVTOOLS_OPEN is reached here.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLinkedExtension, type LinkedExtension } from './support/linked-extension.js';
import { until } from './support/until.js';

let linked: LinkedExtension;

beforeAll(async () => {
  // Chromium opens DevTools on every tab as it is created, before the extension can attach to it.
  linked = await startLinkedExtension({ args: ['--auto-open-devtools-for-tabs'] });
});

afterAll(async () => {
  await linked?.close();
});

interface TargetInfo {
  type: string;
  url: string;
  title: string;
}

describe('DevTools open on the agent tab', () => {
  it('still lets the extension attach, read and act, cross-origin iframe included', async () => {
    const devtoolsOpen = async () => {
      const { targetInfos } = await linked.browser.control.send<{ targetInfos: TargetInfo[] }>('Target.getTargets');
      return targetInfos.filter((info) => info.url.startsWith('devtools://')).length;
    };
    const before = await devtoolsOpen();
    const opened = await linked.run('tab_new', { url: linked.fixtures.url('frames.html') });
    const handle = String(opened.data?.['tab']);
    // One more DevTools: the agent's tab got its own (their titles do not name the tab).
    expect(await until(devtoolsOpen, (count) => count === before + 1)).toBe(before + 1);

    const outline = await linked.run('snapshot', { tab: handle });
    const ref = /iframe "Cross origin" \[frame \d+\]:\n(?:.*\n)*?\s+- button "Child button" \[ref=(f\d+e\d+)\]/.exec(
      outline.text,
    )?.[1];
    expect(ref, outline.text).toBeDefined();
    await linked.run('click', { ref, tab: handle });
    expect((await linked.run('get_text', { ref, tab: handle })).text).toContain('Clicked in localhost');
  });
});

describe('a tab another debugger holds exclusively', () => {
  it('is DEVTOOLS_OPEN, explained, until that debugger lets go; then the next call attaches', async () => {
    const url = linked.fixtures.url('nav-a.html');
    const tabId = await linked.browser.evaluate<number>(
      `chrome.tabs.create({ url: ${JSON.stringify(url)}, active: false }).then((tab) => tab.id)`,
    );
    // Attached outside the extension's tab host: Chrome gives one chrome.debugger client per tab and extension.
    await linked.browser.evaluate(`chrome.debugger.attach({ tabId: ${tabId} }, '1.3')`);
    const listed = (await linked.run('tabs')).data?.['tabs'] as Array<{ tab: string; url: string }>;
    const handle = listed.find((tab) => tab.url === url)!.tab;

    const refused = await linked.run('get_text', { tab: handle }).catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: 'DEVTOOLS_OPEN', next: expect.stringMatching(/close DevTools/i) });

    await linked.browser.evaluate(`chrome.debugger.detach({ tabId: ${tabId} })`);
    // The tab may still be loading on a busy machine: its text comes once it has.
    const text = () => linked.run('get_text', { tab: handle }).then((result) => result.text);
    expect(await until(text, (read) => read.includes('Page A'))).toContain('Page A');
  });
});
