// snapshot reusing its last walk: a later page resumes the walk where the page before stopped, a repeated snapshot
// gives the same lines again, and any change an outline can show (DOM, viewport, focus, a field set by script) sends
// the next snapshot to a new walk, so every answer is exactly what a new walk of the page now would give.
import { describe, expect, it } from 'vitest';
import { snapshot } from '../../shared/engine/ops/snapshot.js';
import type { PageContext } from '../../shared/engine/page-context.js';
import { ctx, useEngineSuite } from '../support/engine-suite.js';
import { expectReused, stats } from '../support/snapshot-stats.js';

const suite = useEngineSuite();

/** Outline lines only: drops the header and notes around them. */
const outlineOf = (text: string) => text.split('\n').filter((line) => /^\s*- /.test(line));

async function run(page: PageContext, expression: string): Promise<void> {
  await page.cdp.send('Runtime.evaluate', { expression, awaitPromise: true });
}

/** A change no outline shows (an attribute on <html>), which still ends the kept walk. */
const touch = (page: PageContext, mark: number) => run(page, `document.documentElement.dataset.mark = '${mark}'`);

describe('snapshot pages of a 37,000-element page', () => {
  it('a page resumes the walk where the page before stopped, line for line what a new walk gives', async () => {
    const { page } = await suite.browser.open(suite.server.url('snapshot-long.html?n=1500'));
    await touch(page, 0);
    const before = await stats(page);
    const all = outlineOf((await snapshot(page, { limit: 1_000_000 }, ctx)).text);
    expect((await stats(page)).walks).toBe(before.walks + 1);

    // Page one cut at every line of the first entries, then the next lines from the kept walk: resumed where it
    // paused, or given from the lines it holds when it paused past them.
    let resumes = 0;
    for (let cut = 1; cut <= 40; cut++) {
      await touch(page, cut);
      const first = await snapshot(page, { offset: 0, limit: cut }, ctx);
      expect(outlineOf(first.text)).toEqual(all.slice(0, cut));
      const walked = await stats(page);
      const next = await snapshot(page, { offset: cut, limit: 40 }, ctx);
      expect(outlineOf(next.text)).toEqual(all.slice(cut, cut + 40));
      const after = await stats(page);
      expect(after.walks).toBe(walked.walks);
      expect(after.resumed + after.reused + after.trusted).toBeGreaterThan(
        walked.resumed + walked.reused + walked.trusted,
      );
      resumes += after.resumed - walked.resumed;
    }
    expect(resumes).toBeGreaterThanOrEqual(10);

    // Pages in turn with the default budget, each resuming the walk, reach the end with nothing lost or repeated.
    await touch(page, 100);
    const pages: string[] = [];
    let offset = 0;
    for (let turn = 0; turn < 4; turn++) {
      const part = await snapshot(page, { offset }, ctx);
      pages.push(...outlineOf(part.text));
      offset = Number(/offset=(\d+) for the next part/.exec(part.text)?.[1]);
    }
    expect(pages).toEqual(all.slice(0, pages.length));
    const paged = await stats(page);
    expect(paged.walks).toBe(before.walks + 42);
    expect(paged.resumed).toBe(before.resumed + resumes + 3);
  }, 240_000);

  it('a change between pages sends the next page to a new walk of the changed page', async () => {
    const { page } = await suite.browser.open(suite.server.url('snapshot-long.html?n=1500'));
    const first = await snapshot(page, {}, ctx);
    const next = Number(/offset=(\d+) for the next part/.exec(first.text)?.[1]);
    const after = Math.max(...[...first.text.matchAll(/article "Entry (\d+)"/g)].map((match) => Number(match[1]))) + 2;
    // Entry 2's paragraph (before the cut) goes, and an entry after the cut is renamed: the old walk's lines would be
    // off. No field changes, so only the mutation tells.
    const change =
      `document.querySelector('[aria-label="Entry 2"] p').remove();` +
      `document.querySelector('[aria-label="Entry ${after}"] h2').textContent = 'Renamed entry';`;
    await run(page, change);
    const walked = await stats(page);
    const second = outlineOf((await snapshot(page, { offset: next, limit: 60 }, ctx)).text);
    const walks = (await stats(page)).walks;
    // What a walk of the changed page gives, from a tab that never walked it before.
    const other = (await suite.browser.open(suite.server.url('snapshot-long.html?n=1500'))).page;
    await run(other, change);
    const all = outlineOf((await snapshot(other, { limit: 1_000_000 }, ctx)).text);
    expect(all.join('\n')).not.toContain('Entry 2 opens with');
    expect(second.some((line) => line.includes('heading "Renamed entry"'))).toBe(true);
    // Refs aside: the other tab never saw the link that went, so it numbers the ones after it one lower.
    const unref = (lines: string[]) => lines.map((line) => line.replace(/ \[ref=\w+\]/, ''));
    expect(unref(second)).toEqual(unref(all.slice(next, next + 60)));
    expect(walks).toBe(walked.walks + 1);
  }, 120_000);
});

describe('a repeated snapshot', () => {
  it('gives the same lines without walking, and shows each change made since', async () => {
    const { page } = await suite.browser.open(suite.server.url('snapshot-reuse.html'));
    const look = async () => (await snapshot(page, {}, ctx)).text;
    const first = await look();
    const start = await stats(page);
    expect(await look()).toBe(first);
    expectReused(start, await stats(page));
    expect(first).toContain('[value hidden]');
    expect(first).toContain('Wide-screen panel');
    expect(first).not.toContain('Hint while typing');
    const goneRef = /link "Gone link" \[ref=(\w+)\]/.exec(first)?.[1];
    expect(goneRef).toBeDefined();

    const changes: [string, string, (text: string) => void][] = [
      [
        'text',
        `document.getElementById('note').textContent = 'Second note'`,
        (text) => expect(text).toContain('Second note'),
      ],
      [
        'hidden',
        `document.getElementById('extra').hidden = true`,
        (text) => expect(text).not.toContain('Extra action'),
      ],
      [
        'removal',
        `document.getElementById('gone').remove()`,
        (text) => expect(text).not.toMatch(new RegExp(`Gone link|ref=${goneRef}\\]`)),
      ],
      [
        'value set by script',
        `document.getElementById('email').value = 'ada@example.com'`,
        (text) => expect(text).toMatch(/textbox "Email".*: ada@example\.com/),
      ],
      [
        'check set by script',
        `document.getElementById('agree').checked = true`,
        (text) => expect(text).toMatch(/checkbox "Agree" \[checked\]/),
      ],
      ['focus', `document.getElementById('email').focus()`, (text) => expect(text).toContain('Hint while typing')],
    ];
    let shown = first;
    for (const [what, change, check] of changes) {
      await run(page, change);
      const text = await look();
      expect(text, what).not.toBe(shown);
      check(text);
      // Then unchanged again: reused.
      const kept = await stats(page);
      expect(await look(), what).toBe(text);
      expectReused(kept, await stats(page), what);
      expect(text).toContain('[value hidden]');
      expect(text).not.toContain('pw-reuse-secret');
      shown = text;
    }

    await page.cdp.send('Emulation.setDeviceMetricsOverride', {
      width: 400,
      height: 600,
      deviceScaleFactor: 1,
      mobile: false,
    });
    try {
      expect(await look()).not.toContain('Wide-screen panel');
    } finally {
      await page.cdp.send('Emulation.clearDeviceMetricsOverride');
    }
    // The override's end reaches the page as a resize after the command answered (seen: innerWidth still 400 after).
    await run(
      page,
      `new Promise((done) => innerWidth !== 400 ? done() : addEventListener('resize', done, { once: true }))`,
    );
    // Said on failure: whether the page itself had the panel shown, and how the snapshot was answered (on trust?).
    const before = await stats(page);
    const text = await look();
    const onPage = await page.cdp.send<{ result: { value: string } }>('Runtime.evaluate', {
      expression: `innerWidth + ' ' + getComputedStyle(document.getElementById('wide')).display`,
      returnByValue: true,
    });
    expect(text, JSON.stringify({ page: onPage.result.value, before, after: await stats(page) })).toContain(
      'Wide-screen panel',
    );
  }, 120_000);
});
