// inspect on real Chromium: an element's attributes, box model, computed styles, matching rules (file:line, the
// overridden declarations marked) and listeners, in the top page, a cross-origin iframe (its own process) and a
// same-origin one (its parent's session); a password field's value never shown; rules and frames of a site the
// policy hides left out or refused.
import { describe, expect, it } from 'vitest';
import { find } from '../../shared/engine/ops/find.js';
import { inspect } from '../../shared/engine/ops/inspect.js';
import { sources } from '../../shared/engine/ops/sources.js';
import { PageContext } from '../../shared/engine/page-context.js';
import { PolicyGate } from '../../shared/engine/policy-gate.js';
import type { Policy } from '../../shared/policy/policy.js';
import { loadUrl } from '../support/browser.js';
import { ctx, failure, useEngineSuite } from '../support/engine-suite.js';
import { testServerPolicy } from '../support/test-policy.js';

const suite = useEngineSuite();

type Page = Parameters<typeof inspect>[0];

/** The inspect page loaded with both sites allowed; `policy` may narrow it afterwards. */
async function inspectTab(policy: { now: Policy } = { now: testServerPolicy('act') }) {
  const { host } = suite.browser;
  const tab = await host.create('about:blank', { focus: false });
  const page: Page = new PageContext(await host.cdp(tab.id), new PolicyGate(() => policy.now));
  await page.frames.init();
  await loadUrl(page, suite.server.url('inspect-page.html'));
  // The other site's stylesheet and the frame load after the page's own load event.
  await expect.poll(async () => (await inspect(page, { selector: '#save' }, ctx)).text).toContain('dotted');
  await expect
    .poll(async () => (await page.frames.list()).some((frame) => frame.url.includes('inspect-child')))
    .toBe(true);
  return {
    page,
    async close() {
      page.dispose();
      await host.close(tab.id);
    },
  };
}

describe('inspect', () => {
  it('reads attributes, box, styles, rules with overridden declarations, and listeners with their source', async () => {
    const { page, close } = await inspectTab();
    try {
      const { text } = await inspect(page, { selector: '#save' }, ctx);
      const lines = text.split('\n');
      expect(lines[0]).toBe('<button> in f0');
      expect(text).toContain('attributes: id="save" class="card" style="font-weight: 700" data-kind="primary"');
      // padding 4px 8px and a 1px border from the page's rules; the margin from two rules, the id's top winning.
      expect(text).toMatch(/\nbox: [\d.]+×25 at [\d.]+,[\d.]+ .*; padding 4 8; border 1; margin 10 2 2\n/);
      // The less specific !important background wins over the id rule's.
      expect(text).toMatch(
        /\nstyles: display: inline-block; .* color: rgb\(255, 0, 0\); background-color: rgb\(255, 255, 255\);/,
      );
      const rules = lines.slice(lines.indexOf('rules (most specific first):') + 1);
      expect(rules[0]).toBe('  style attribute { font-weight: 700 }');
      expect(rules[1]).toMatch(
        /^ {2}#save http:\/\/localhost:\d+\/inspect-other\.css:2 \{ outline: 3px dotted purple \}$/,
      );
      expect(rules[2]).toBe(
        '  #save /inspect-page.css:9 { color: red; margin-top: 10px; background-color: yellow (overridden) }',
      );
      // Blue loses to the id rule's red; the shorthand margin keeps three of its four sides, so it is not overridden.
      expect(rules[3]).toBe('  .card /inspect-page.css:3 { color: blue (overridden); padding: 4px 8px; margin: 2px }');
      expect(rules[4]).toBe(
        '  button /inspect-page.html:5 { border: 1px solid black; background-color: white !important }',
      );
      expect(text).toMatch(/\n {2}\(\d+ browser default rules not shown\)\n/);
      // A ref from find names the same element.
      const found = (await find(page, { selector: '#save' }, ctx)).text;
      const ref = /\[ref=(e\d+)\]/.exec(found)?.[1] ?? found;
      expect((await inspect(page, { ref }, ctx)).text).toBe(text);
      expect(text).toMatch(
        /\nlisteners:\n {2}click \(capture, once\) \/inspect-app\.js:3:16 \(#\d+\)\n {2}keydown \(passive\) \/inspect-app\.js:8:\d+/,
      );
    } finally {
      await close();
    }
  });

  it('inspects an element of a cross-origin frame on its own session, and only the computed styles asked for', async () => {
    const { page, close } = await inspectTab();
    try {
      const { text } = await inspect(page, { selector: '#note', frame: 1, styles: ['color', 'display'] }, ctx);
      expect(text.split('\n')[0]).toBe('<p> in f1 (/inspect-child.html)');
      expect(text).toContain('\nstyles: color: rgb(0, 128, 0); display: block\n');
      expect(text).toContain('\n  .child /inspect-child.html:4 { color: green }\n');
      expect(text).toMatch(/\nlisteners:\n {2}mouseover \/inspect-child\.html:10:\d+ \(#\d+\)$/);
    } finally {
      await close();
    }
  });

  it("never shows a password field's value, and says when an element has no box", async () => {
    const { page, close } = await inspectTab();
    try {
      const { text } = await inspect(page, { selector: '#pw' }, ctx);
      expect(text).toContain('value="[value hidden]"');
      expect(text).not.toContain('Hunter2PlantedPw9');
      expect(text).toContain('\nlisteners: none');
      const hidden = await inspect(page, { selector: 'title', frame: 0 }, ctx);
      expect(hidden.text).toContain('\nbox: none (not rendered)\n');
    } finally {
      await close();
    }
  });

  it("leaves out the rules of a site the policy now hides, and refuses that site's frame", async () => {
    const policy = { now: testServerPolicy('act') };
    const { page, close } = await inspectTab(policy);
    try {
      policy.now = testServerPolicy('act', ['127.0.0.1']);
      const { text } = await inspect(page, { selector: '#save' }, ctx);
      expect(text).not.toContain('dotted');
      expect(text).not.toContain('localhost');
      expect(text).toContain('\n  (1 from stylesheets of sites the policy keeps from you left out)\n');
      expect(text).toContain(
        '\n  #save /inspect-page.css:9 { color: red; margin-top: 10px; background-color: yellow (overridden) }\n',
      );
      const refused = await failure(inspect(page, { selector: '#note', frame: 1 }, ctx));
      expect(refused.code).toMatch(/^(POLICY_DENIED|DOMAIN_CONFIRMATION_REQUIRED)$/);
    } finally {
      await close();
    }
  });
});

describe('inspect in a same-process frame', () => {
  it("reads an element of a same-origin iframe, which shares its parent's session, and its attribute handler", async () => {
    const { page } = await suite.browser.open(suite.server.url('frames.html'));
    const { text } = await inspect(page, { selector: '#child', frame: 1 }, ctx);
    expect(text.split('\n')[0]).toBe('<button> in f1 (/frame-child.html)');
    expect(text).toMatch(/\nbox: [\d.]+×21 at [\d.]+,[\d.]+ .*; padding 1 6; border 2; margin 0\n/);
    expect(text).toMatch(/\nrules \(most specific first\):\n {2}\(\d+ browser default rules not shown\)\n/);
    // An onclick attribute is a script of its own, on the line of its element.
    const handler = /\nlisteners:\n {2}click \/frame-child\.html:5:\d+ \(#(\d+)\)$/.exec(text);
    expect(handler, text).not.toBeNull();
    expect((await sources(page, { frame: 1 }, ctx)).text).toContain(
      `\n#${handler![1]} f1 46B /frame-child.html:5 (inline)`,
    );
  });
});
