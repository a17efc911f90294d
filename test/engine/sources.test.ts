// sources on real Chromium: the scripts of the top page and of a cross-origin iframe (its own process) listed with
// frame, size and source-map files, searched and read by line; ours (the page library, an agent's tagged eval) never
// among them; scripts known after an eval armed Debugger first; a page's `debugger;` never stops it; a navigation
// replaces the list; and scripts of a site the policy hides left out and unreadable.
import { describe, expect, it } from 'vitest';
import { inspect } from '../../shared/engine/ops/inspect.js';
import { click } from '../../shared/engine/ops/pointer.js';
import { sources } from '../../shared/engine/ops/sources.js';
import { PageContext } from '../../shared/engine/page-context.js';
import { PolicyGate } from '../../shared/engine/policy-gate.js';
import type { Policy } from '../../shared/policy/policy.js';
import { loadUrl } from '../support/browser.js';
import { ctx, failure, useEngineSuite } from '../support/engine-suite.js';
import { testServerPolicy } from '../support/test-policy.js';

const suite = useEngineSuite();

type Page = Parameters<typeof sources>[0];

/** The inspect page with both sites allowed (`policy` may narrow it later), once all four of its scripts ran. */
async function sourcesTab(
  policy: { now: Policy } = { now: testServerPolicy('act') },
  before?: (page: Page) => Promise<void>,
) {
  const { host } = suite.browser;
  const tab = await host.create('about:blank', { focus: false });
  const page: Page = new PageContext(await host.cdp(tab.id), new PolicyGate(() => policy.now));
  await page.frames.init();
  await loadUrl(page, suite.server.url('inspect-page.html'));
  await before?.(page);
  await expect
    .poll(async () => (await sources(page, {}, ctx)).text, { timeout: 10_000 })
    .toMatch(/^sources: 4 scripts/);
  return {
    page,
    async close() {
      page.dispose();
      await host.close(tab.id);
    },
  };
}

/** The #id a listing gives the script whose row matches `row`. */
function idOf(listing: string, row: RegExp): number {
  const line = listing.split('\n').find((each) => row.test(each));
  return Number(/^#(\d+) /.exec(line ?? '')?.[1]);
}

describe('sources', () => {
  it('lists the scripts of every frame with frame, size and source-map files, and none of ours', async () => {
    const { page, close } = await sourcesTab();
    try {
      // The page library is in every frame once an element tool ran; an agent's eval leaves a tagged script.
      await inspect(page, { selector: '#note', frame: 1 }, ctx);
      await inspect(page, { selector: '#save' }, ctx);
      const tagged = page.trail.tag("window.evalMarker = 'EvalTaggedMarker'");
      await page.cdp.send('Runtime.evaluate', { expression: tagged });
      await page.cdp.send('Runtime.evaluate', { expression: "window.plainMarker = 'PlainEvalMarker'" });
      const { text } = await sources(page, {}, ctx);
      const lines = text.split('\n');
      expect(lines[0]).toBe('sources: 4 scripts');
      expect(text).toMatch(/\n#\d+ f0 \d+B \/inspect-app\.js map: src\/app\.ts, src\/util\.ts(\n|$)/);
      expect(text).toMatch(/\n#\d+ f0 \d+B \/inspect-page\.html:\d+ \(inline\)(\n|$)/);
      expect(text).toMatch(/\n#\d+ f0 \d+B http:\/\/localhost:\d+\/inspect-other\.js(\n|$)/);
      expect(text).toMatch(/\n#\d+ f1 \d+B \/inspect-child\.html:9 \(inline\)(\n|$)/);
      expect(text).not.toContain('chrome-mcp');
      for (const ours of ['EvalTaggedMarker', 'PlainEvalMarker', 'snapshotFrame', 'inspectFacts']) {
        expect((await sources(page, { query: ours }, ctx)).text).toMatch(/^search: 0 matches of "\w+" in 4 scripts/);
      }
    } finally {
      await close();
    }
  });

  it('knows the scripts of sessions an eval armed Debugger on first, and the page never stops at `debugger;`', async () => {
    const { page, close } = await sourcesTab(undefined, (page) => page.trail.follow());
    try {
      expect((await sources(page, { url: 'inspect-app' }, ctx)).text).toMatch(/^sources: 1 script\n#\d+ f0 /);
      await click(page, { selector: '#save' }, ctx);
      // Paused at the handler's `debugger;`, the page would never set this.
      await expect
        .poll(async () => {
          const { result } = await page.cdp.send<{ result: { value?: string } }>('Runtime.evaluate', {
            expression: 'document.body.dataset.saved',
            returnByValue: true,
          });
          return result.value;
        })
        .toBe('yes');
    } finally {
      await close();
    }
  });

  it('searches every frame by text or regex as file:line, and reads one script by id or url with a line range', async () => {
    const { page, close } = await sourcesTab();
    try {
      const found = (await sources(page, { query: 'marker' }, ctx)).text;
      expect(found).toMatch(/^search: 4 matches of "marker" in 4 scripts\n/);
      expect(found).toMatch(
        /\n#\d+ \/inspect-child\.html:10: function childMarker\(\) \{ return 'ChildScriptMarker'; \}/,
      );
      expect(found).toMatch(/\n#\d+ \/inspect-app\.js:9: window\.appMarker = 'AppScriptMarker';/);
      const regex = (await sources(page, { action: 'search', query: 'add\\w+\\(.click', regex: true }, ctx)).text;
      expect(regex).toMatch(/^search: 1 match of "add\\\\w\+\\\\\(\.click" in 4 scripts\n#\d+ \/inspect-app\.js:7: /);
      expect((await sources(page, { query: 'marker', limit: 1 }, ctx)).text).toMatch(
        /^search: 4 matches of "marker" in 4 scripts \(first 1 shown; raise limit or narrow with url\)\n[^\n]+$/,
      );
      expect((await failure(sources(page, { query: '(', regex: true }, ctx))).code).toBe('BAD_ARGS');
      // In a long line, only the text around the match, redacted before it was cut.
      const long = (await sources(page, { query: 'NeedleHere' }, ctx)).text.split('\n')[1]!;
      expect(long).toMatch(/^#\d+ \/inspect-page\.html:\d+: …[^\n]* chars\]', fill: 'b{50}', find: 'NeedleHere' \};$/);
      expect(long.length).toBeLessThan(250);
      expect(long).not.toContain('zdp7dc');

      const listing = (await sources(page, {}, ctx)).text;
      const app = idOf(listing, /inspect-app\.js/);
      const read = (await sources(page, { id: app, line: 3, lines: 2 }, ctx)).text;
      expect(read).toBe(
        `#${app} f0 /inspect-app.js lines 3-4 of 1-12; map: src/app.ts, src/util.ts\n3: function onSave() {\n4:   debugger;\n… more: sources id=${app} line=5`,
      );
      // An inline script is numbered as the page's lines are.
      const child = (await sources(page, { action: 'read', url: 'inspect-child' }, ctx)).text;
      expect(child).toMatch(/^#\d+ f1 \/inspect-child\.html:9 \(inline\) lines 9-12 of 9-12\n/);
      expect(child).toContain("\n10:     function childMarker() { return 'ChildScriptMarker'; }\n");
      expect((await failure(sources(page, { action: 'read', url: 'inspect' }, ctx))).code).toBe('AMBIGUOUS');
      // A private key's lines are masked even when a read starts in its middle, where no line says what they are.
      const other = idOf(listing, /inspect-other\.js/);
      const whole = (await sources(page, { id: other }, ctx)).text;
      expect(whole).toMatch(/\n\d+: window\.otherKey = `-----BEGIN PRIVATE KEY-----\[redacted \d+ chars\]-----END/);
      const middle = await sources(page, { id: other, line: 5, lines: 1 }, ctx).then(
        (result) => result.text,
        (error: Error) => error.message,
      );
      // A search looks at the same masked text: no piece of the key is found, shown or counted.
      const piece = (await sources(page, { query: 'MzEfYyjiWA4R4', url: 'inspect-other' }, ctx)).text;
      expect(piece).toBe('search: 0 matches of "MzEfYyjiWA4R4" in 1 script');
      const base64 = { query: '[a-z0-9+/]{40}', regex: true, url: 'inspect-other' };
      expect((await sources(page, base64, ctx)).text).toMatch(/^search: 0 matches /);
      // And numbers its lines as a read does, after the key's mask.
      const after = (await sources(page, { query: 'otherAfterKey', url: 'inspect-other' }, ctx)).text;
      const line = Number(/inspect-other\.js:(\d+): /.exec(after)?.[1]);
      expect((await sources(page, { id: other, line, lines: 1 }, ctx)).text).toContain(
        `\n${line}: window.otherAfterKey`,
      );
      for (const text of [whole, middle]) expect(text).not.toContain('MzEfYyjiWA4R4');
      expect((await failure(sources(page, { id: app, line: 500 }, ctx))).code).toBe('BAD_ARGS');
      expect((await failure(sources(page, { id: 9_999 }, ctx))).code).toBe('NOT_FOUND');
    } finally {
      await close();
    }
  });

  it('replaces the list when the page navigates', async () => {
    const { page, close } = await sourcesTab();
    try {
      const app = idOf((await sources(page, {}, ctx)).text, /inspect-app\.js/);
      await loadUrl(page, suite.server.url('network-page.html'));
      const { text } = await sources(page, {}, ctx);
      expect(text).toMatch(/^sources: \d+ scripts?\n/);
      expect(text).toContain('/network-page.html');
      expect(text).not.toContain('inspect');
      expect((await failure(sources(page, { id: app }, ctx))).code).toBe('NOT_FOUND');
    } finally {
      await close();
    }
  });

  it('leaves out the scripts of a site the policy now hides, its frame and its files, and will not read them', async () => {
    const policy = { now: testServerPolicy('act') };
    const { page, close } = await sourcesTab(policy);
    try {
      const listing = (await sources(page, {}, ctx)).text;
      const child = idOf(listing, / f1 /);
      const other = idOf(listing, /inspect-other\.js/);
      policy.now = testServerPolicy('act', ['127.0.0.1']);
      const { text } = await sources(page, {}, ctx);
      expect(text).toMatch(/^sources: 2 scripts, 2 from sites the policy keeps from you left out\n/);
      expect(text).not.toContain('localhost');
      expect(text).not.toContain('inspect-child');
      const found = (await sources(page, { query: 'marker' }, ctx)).text;
      expect(found).toMatch(
        /^search: 1 match of "marker" in 2 scripts, 2 from sites the policy keeps from you left out\n/,
      );
      expect(found).not.toContain('ChildScriptMarker');
      expect(found).not.toContain('OtherSiteScriptMarker');
      for (const id of [child, other]) expect((await failure(sources(page, { id }, ctx))).code).toBe('NOT_FOUND');
    } finally {
      await close();
    }
  });
});
