// console on real Chromium: lines of the top page and a cross-origin iframe (its own process), exceptions, replay of
// what was logged before the first read, level, frame and since filters, and lines from a site the policy hides.
import { describe, expect, it } from 'vitest';
import { PolicyGate } from '../../shared/engine/policy-gate.js';
import { readConsole } from '../../shared/engine/ops/console.js';
import { click } from '../../shared/engine/ops/pointer.js';
import { ctx, useEngineSuite } from '../support/engine-suite.js';
import { PageContext } from '../../shared/engine/page-context.js';
import { loadUrl } from '../support/browser.js';
import { testServerPolicy } from '../support/test-policy.js';

const suite = useEngineSuite();

/** Reads until `wanted` shows (a frame's lines arrive as the frame loads), or the last read after 10 s. */
async function readUntil(page: Parameters<typeof readConsole>[0], wanted: RegExp, args = {}): Promise<string> {
  let text = '';
  await expect
    .poll(async () => (text = (await readConsole(page, args, ctx)).text), { timeout: 10_000 })
    .toMatch(wanted);
  return text;
}

describe('console', () => {
  it('answers what the page logged before the first read, and the frames and exceptions after', async () => {
    const { page } = await suite.browser.open(suite.server.url('console-page.html'));
    const text = await readUntil(page, /child exploded/);
    const lines = text.split('\n');
    expect(lines[0]).toMatch(/^console: \d+ lines; since=\d+ reads only newer ones$/);
    expect(text).toMatch(/#\d+ log console-page\.html:\d+: top says hello 42 null true/);
    expect(text).toMatch(/#\d+ error console-page\.html:\d+: top failed: quota exceeded/);
    expect(text).toMatch(/#\d+ info f1 console-child\.html:\d+: child frame speaks/);
    expect(text).toMatch(/#\d+ error f1 console-child\.html:\d+: Error: child exploded/);
    // Debug lines only when asked for.
    expect(text).not.toContain('top debug detail');
    expect((await readConsole(page, { level: 'debug' }, ctx)).text).toContain('top debug detail');
  });

  it('filters by level and frame, and since reads only lines after a seq', async () => {
    const { page } = await suite.browser.open(suite.server.url('console-page.html'));
    const first = await readUntil(page, /child exploded/);
    const last = Number(/since=(\d+)/.exec(first)![1]);
    const errors = (await readConsole(page, { level: 'error' }, ctx)).text;
    expect(errors).not.toContain('hello');
    expect(errors).toContain('child exploded');
    const child = (await readConsole(page, { frame: 1 }, ctx)).text;
    expect(child).toContain('child frame speaks');
    expect(child).not.toContain('top says hello');

    await click(page, { selector: '#later' }, ctx);
    const newer = await readUntil(page, /undefinedFunction/, { since: last });
    expect(newer).toMatch(/#\d+ warn console-page\.html:\d+: clicked 3 Object/);
    expect(newer).toMatch(/ReferenceError: undefinedFunction is not defined/);
    expect(newer).not.toContain('top says hello');
    const limited = (await readConsole(page, { limit: 1 }, ctx)).text;
    expect(limited.split('\n').filter((line) => line.startsWith('#'))).toHaveLength(1);
    expect(limited).toMatch(/earlier not shown \(raise limit\)/);
  });

  it('empties on navigation: a new document starts a new console', async () => {
    const { page } = await suite.browser.open(suite.server.url('console-page.html'));
    await readUntil(page, /top says hello/);
    await page.cdp.send('Page.navigate', { url: suite.server.url('mcp-hello.html') });
    await expect
      .poll(async () => (await readConsole(page, {}, ctx)).text, { timeout: 10_000 })
      .toMatch(/^console: 0 lines/);
  });

  it('leaves out the lines of a frame whose site the policy keeps from the model now, and says so', async () => {
    // Both sites readable while the page loads; then the person takes localhost (the cross-origin frame) away.
    let policy = testServerPolicy('read');
    const { host } = suite.browser;
    const tab = await host.create('about:blank', { focus: false });
    const page = new PageContext(await host.cdp(tab.id), new PolicyGate(() => policy));
    try {
      await page.frames.init();
      await loadUrl(page, suite.server.url('console-page.html'));
      await readUntil(page, /child exploded/);
      policy = testServerPolicy('read', ['127.0.0.1']);
      const text = (await readConsole(page, {}, ctx)).text;
      expect(text).toMatch(/, 2 from sites the policy keeps from you left out/);
      expect(text).toContain('top says hello');
      expect(text).not.toContain('child');
    } finally {
      page.dispose();
      await host.close(tab.id);
    }
  });
});
