// A repeated snapshot after a change no DOM mutation tells (a style rule edited through the CSSOM, a sheet turned off,
// emulated media, a container resized by a font that loaded, a popover shown, an inner scroller scrolled) shows the
// change: the kept walk's stamp must see each, or its lines would show elements hidden or shown wrongly.
import { describe, expect, it } from 'vitest';
import { snapshot } from '../../shared/engine/ops/snapshot.js';
import type { PageContext } from '../../shared/engine/page-context.js';
import { ctx, useEngineSuite } from '../support/engine-suite.js';
import { expectReused, stats, untilTrusted } from '../support/snapshot-stats.js';

const suite = useEngineSuite();

async function run(page: PageContext, expression: string): Promise<unknown> {
  const reply = (await page.cdp.send('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true })) as {
    result: { value?: unknown };
    exceptionDetails?: { exception?: { description?: string } };
  };
  if (reply.exceptionDetails) throw new Error(reply.exceptionDetails.exception?.description ?? 'page script failed');
  return reply.result.value;
}

/**
 * Opens the page, takes a snapshot, checks a repeat is reused (the kept walk is in play) and that one is given on the
 * engine's trust (which the change must then turn down), makes `change`, and returns the snapshot before and after.
 */
async function across(change: (page: PageContext) => Promise<unknown>): Promise<[string, string]> {
  const { page } = await suite.browser.open(suite.server.url('snapshot-stamp.html'));
  const look = async () => (await snapshot(page, {}, ctx)).text;
  const before = await look();
  const walked = await stats(page);
  expect(await look()).toBe(before);
  expectReused(walked, await stats(page));
  await untilTrusted(page, look);
  await change(page);
  return [before, await look()];
}

describe('a repeated snapshot sees what no mutation tells', () => {
  it('a style rule edited in place through the CSSOM', async () => {
    const [before, after] = await across((page) =>
      run(page, `document.getElementById('rules').sheet.cssRules[0].style.display = 'none'`),
    );
    expect(before).toContain('Edited rule target');
    expect(after).not.toContain('Edited rule target');
  }, 60_000);

  it('a rule edited by a command sent just before the snapshot, with no frame drawn in between', async () => {
    let edit: Promise<unknown> | undefined;
    const [before, after] = await across(async (page) => {
      // Not awaited: the snapshot's commands follow it on the session, so no frame recalculates styles in between.
      edit = run(page, `document.getElementById('rules').sheet.cssRules[0].style.display = 'none'`);
    });
    await edit;
    expect(before).toContain('Edited rule target');
    expect(after).not.toContain('Edited rule target');
  }, 60_000);

  it('a rule inserted and another deleted, so the count stays', async () => {
    const [before, after] = await across((page) =>
      run(
        page,
        `{ const sheet = document.getElementById('rules').sheet;
        sheet.deleteRule(1); sheet.insertRule('#swapped { display: none; }', 1); }`,
      ),
    );
    expect(before).toContain('Swapped rule target');
    expect(after).not.toContain('Swapped rule target');
  }, 60_000);

  it('a rule inserted into a @media rule', async () => {
    const [before, after] = await across((page) =>
      run(page, `document.getElementById('rules').sheet.cssRules[2].insertRule('#nested { display: none; }', 0)`),
    );
    expect(before).toContain('Nested rule target');
    expect(after).not.toContain('Nested rule target');
  }, 60_000);

  it('a style sheet turned off', async () => {
    const [before, after] = await across((page) =>
      run(page, `document.getElementById('switchable').sheet.disabled = true`),
    );
    expect(before).not.toContain('Shown while the sheet is off');
    expect(after).toContain('Shown while the sheet is off');
  }, 60_000);

  it('an adopted style sheet replaced with as many rules', async () => {
    const [before, after] = await across((page) =>
      run(page, `document.adoptedStyleSheets[0].replaceSync('#adopted { display: none; }')`),
    );
    expect(before).toContain('Adopted rule target');
    expect(after).not.toContain('Adopted rule target');
  }, 60_000);

  it('a style sheet adopted by a shadow root', async () => {
    const [before, after] = await across((page) =>
      run(
        page,
        `{ const sheet = new CSSStyleSheet(); sheet.replaceSync('.inner { display: none; }');
        document.getElementById('host').shadowRoot.adoptedStyleSheets = [sheet]; }`,
      ),
    );
    expect(before).toContain('Shadow text');
    expect(after).not.toContain('Shadow text');
  }, 60_000);

  it('an emulated colour scheme and media type', async () => {
    let page: PageContext | undefined;
    const [before, dark] = await across(async (opened) => {
      page = opened;
      await page.cdp.send('Emulation.setEmulatedMedia', {
        features: [{ name: 'prefers-color-scheme', value: 'dark' }],
      });
    });
    try {
      expect(before).toContain('Light scheme only');
      expect(dark).not.toContain('Light scheme only');
      expect(dark).toContain('Screen only');
      await page!.cdp.send('Emulation.setEmulatedMedia', { media: 'print' });
      const print = (await snapshot(page!, {}, ctx)).text;
      expect(print).not.toContain('Screen only');
    } finally {
      await page!.cdp.send('Emulation.setEmulatedMedia', { media: '', features: [] });
    }
  }, 60_000);

  it('a container query answering a font that loaded', async () => {
    const width = (page: PageContext) => run(page, `document.querySelector('.box').getBoundingClientRect().width`);
    const widths: unknown[] = [];
    const [before, after] = await across(async (page) => {
      widths.push(await width(page));
      // A narrower font for the text beside the box, loaded by script: the box widens, with no mutation.
      await run(
        page,
        `(async () => { const face = new FontFace('StampNarrow', 'local("DejaVu Sans")');
        document.fonts.add(await face.load()); await document.fonts.ready; })()`,
      );
      widths.push(await width(page));
    });
    // The fixture's premise: the box was narrower than the query's 200 px and is wider now.
    expect(widths[0]).toBeLessThan(200);
    expect(widths[1]).toBeGreaterThanOrEqual(200);
    expect(before).not.toContain('Wide box only');
    expect(after).toContain('Wide box only');
  }, 60_000);

  it('a scroll-state container query answering an inner scroller scrolled', async () => {
    const [before, after] = await across(async (page) => {
      await run(page, `document.querySelector('.shelf').scrollTop = 200`);
      // The query answers from the scroll state taken at the next rendering update.
      await run(page, `new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))`);
    });
    expect(before).not.toContain('Back to the shelf top');
    expect(after).toContain('Back to the shelf top');
  }, 60_000);

  it('a popover shown by script', async () => {
    const [before, after] = await across((page) => run(page, `document.getElementById('pop').showPopover()`));
    expect(before).not.toContain('Popover text');
    expect(after).toContain('Popover text');
  }, 60_000);

  it('a custom property registered by script', async () => {
    const [before, after] = await across((page) =>
      run(
        page,
        `CSS.registerProperty({ name: '--stamp-display', syntax: '<custom-ident>', inherits: false,
        initialValue: 'none' })`,
      ),
    );
    expect(before).toContain('Registered property target');
    expect(after).not.toContain('Registered property target');
  }, 60_000);

  it('a scroll that changes nothing shown keeps the walk', async () => {
    const { page } = await suite.browser.open(suite.server.url('snapshot-long.html?n=100'));
    const first = (await snapshot(page, {}, ctx)).text;
    const walked = await stats(page);
    // Scrolled, and the scroll event fired: an outline shows no scroll position, so the kept walk still holds.
    await run(page, `new Promise((done) => { addEventListener('scroll', done, { once: true }); scrollTo(0, 2000); })`);
    expect((await snapshot(page, {}, ctx)).text).toBe(first);
    expectReused(walked, await stats(page));
  }, 60_000);
});
