// The page engine inside the real extension, driven through the real bridge: a background tab in the agent's tab
// group, a snapshot across a cross-origin iframe, a click in it, the text read back, and evals back to back (their
// latency is measured by `npm run bench`, not asserted: a busy machine would fail it).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChromeTab, startLinkedExtension, type LinkedExtension } from './support/linked-extension.js';

let linked: LinkedExtension;

beforeAll(async () => {
  linked = await startLinkedExtension();
});

afterAll(async () => {
  await linked?.close();
});

describe('the engine in the extension', () => {
  it('says hello with the seeded secret and names itself', () => {
    const identity = linked.bridge.link()?.identity;
    expect(identity?.version).toBe('0.1.0');
    expect(identity?.chrome).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
  });

  it('opens the agent tab in the background, in the "Chrome MCP" group, and drives a cross-origin iframe in it', async () => {
    const [front] = await linked.browser.evaluate<ChromeTab[]>('chrome.tabs.query({ active: true })');
    const opened = await linked.run('tab_new', { url: linked.fixtures.url('frames.html') });
    const handle = String(opened.data?.['tab']);
    expect(opened.text).toMatch(/^opened x\w+\.\d+ .*frames\.html "Frames"/);

    const tabs = await linked.browser.evaluate<ChromeTab[]>('chrome.tabs.query({})');
    const agentTab = tabs.find((tab) => tab.url.endsWith('/frames.html'))!;
    expect(agentTab.active).toBe(false);
    expect(tabs.find((tab) => tab.active)?.id).toBe(front!.id);
    const group = await linked.browser.evaluate<{ title: string }>(`chrome.tabGroups.get(${agentTab.groupId})`);
    expect(group.title).toBe('Chrome MCP');

    const outline = await linked.run('snapshot', { tab: handle });
    const crossRef =
      /iframe "Cross origin" \[frame (\d+)\]:\n(?:.*\n)*?\s+- button "Child button" \[ref=(f\d+e\d+)\]/.exec(
        outline.text,
      );
    expect(crossRef, outline.text).not.toBeNull();
    const ref = crossRef![2]!;

    const clicked = await linked.run('click', { ref, tab: handle });
    expect(clicked.text).toContain('Child button');
    const text = await linked.run('get_text', { ref, tab: handle });
    expect(text.text).toContain(`Clicked in localhost:${new URL(linked.fixtures.origin).port}`);

    // A second tab joins the same group rather than starting one.
    const second = await linked.run('tab_new', {});
    const after = await linked.browser.evaluate<ChromeTab[]>('chrome.tabs.query({})');
    const groups = new Set(after.filter((tab) => tab.groupId !== -1).map((tab) => tab.groupId));
    expect(groups.size).toBe(1);
    await linked.run('tab_close', { tab: String(second.data?.['tab']) });
  });

  it('answers evals through the bridge and chrome.debugger back to back, each with its own value', async () => {
    await linked.run('tab_use', { url: linked.fixtures.url('frames.html') });
    for (let i = 0; i < 20; i++) {
      const result = await linked.run('eval', { expression: `${i} + 1` });
      expect(result.text).toBe(String(i + 1));
    }
  });
});
